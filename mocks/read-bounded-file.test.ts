import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { readBoundedFile, sizeInWords } from './read-bounded-file.js';

const BOUND = { maxBytes: 300_000, what: 'a test file' };

function fileOf(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'petkit-bounded-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'file.json');
  writeFileSync(path, text);
  return path;
}

describe('readBoundedFile', () => {
  it('reads a file of exactly the bound whole, over more than one chunk', () => {
    const text = `"${'é'.repeat(149_999)}"`;
    expect(Buffer.byteLength(text)).toBe(BOUND.maxBytes);
    expect(readBoundedFile(fileOf(text), BOUND)).toEqual({ text });
  });

  it('refuses a file one byte over the bound, in bytes where rounding would hide it', () => {
    expect(readBoundedFile(fileOf('x'.repeat(300_001)), BOUND)).toEqual({
      fault: 'is 300001 bytes; a test file may be at most 293 KiB',
    });
  });

  it('says a size in the unit a person reads it in', () => {
    expect([512, 2 ** 20, 1.5 * 2 ** 30, 16 * 2 ** 20 + 1].map(sizeInWords)).toEqual([
      '512 bytes',
      '1 MiB',
      '1.5 GiB',
      '16 MiB',
    ]);
  });
});

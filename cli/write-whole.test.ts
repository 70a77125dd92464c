import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { partialOf, writeWhole } from './write-whole.js';

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'petkit-whole-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('writeWhole', () => {
  it('writes the text whole, over what was there, and leaves nothing beside it', () => {
    const dir = folder();
    const file = join(dir, 'url');
    writeFileSync(file, 'old');
    writeWhole(file, 'http://127.0.0.1:4010/v1\n');
    expect(readFileSync(file, 'utf8')).toBe('http://127.0.0.1:4010/v1\n');
    expect(readdirSync(dir)).toEqual(['url']);
  });

  it('never follows a link planted where it writes first, nor truncates what it points to', () => {
    const dir = folder();
    const file = join(dir, 'url');
    const victim = join(dir, 'victim');
    writeFileSync(victim, 'precious');
    const partial = partialOf(file, 'guessed');
    symlinkSync(victim, partial);
    expect(() => writeWhole(file, 'http://127.0.0.1:4010/v1\n', partial)).toThrow(/EEXIST/);
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(lstatSync(partial).isSymbolicLink()).toBe(true);
  });

  it('leaves nothing beside its place when the rename fails (a folder there)', () => {
    const dir = folder();
    const file = join(dir, 'url');
    mkdirSync(file);
    writeFileSync(join(file, 'inside'), 'x');
    expect(() => writeWhole(file, 'text')).toThrow();
    expect(readdirSync(dir)).toEqual(['url']);
  });
});

describe('partialOf', () => {
  it('names a new file beside the target each time', () => {
    expect(partialOf('/tmp/a/url')).toMatch(/^\/tmp\/a\/url\.[0-9a-f]{16}\.partial$/);
    expect(partialOf('/tmp/a/url')).not.toBe(partialOf('/tmp/a/url'));
  });
});

import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it, onTestFinished } from 'vitest';
import { loadKeysFile } from './keys-file.js';
import { loadPetsFile } from './pets-file.js';
import { firstMalformedUtf8, readBoundedFile, sizeInWords } from './read-bounded-file.js';
import { loadRulesFile } from './rules-file.js';

const BOUND = { maxBytes: 300_000, what: 'a test file' };

function fileOf(text: string | Uint8Array): string {
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

  it('refuses a file that is not UTF-8 by line and column, rather than change its bytes to U+FFFD', () => {
    // Saved as Latin-1: "café" is 63 61 66 E9.
    const latin1 = Buffer.from('[\n  {"name": "caf\xe9", "categoryId": 1}\n]\n', 'latin1');
    expect(readBoundedFile(fileOf(latin1), BOUND)).toEqual({
      fault: 'is not valid UTF-8 at line 2, column 16 (byte 17, 0xe9); save it as UTF-8',
    });
    const path = fileOf(latin1);
    expect(() => loadPetsFile(path)).toThrow(
      `Fixtures file ${path}: is not valid UTF-8 at line 2, column 16 (byte 17, 0xe9); save it as UTF-8.`,
    );
    // A key of a keys file, whose bytes could never be sent as they were meant.
    const keys = fileOf(
      Buffer.concat([
        Buffer.from('{"keys":[{"key":"k'),
        Buffer.from([0xff]),
        Buffer.from('","plan":"free"}]}'),
      ]),
    );
    expect(() => loadKeysFile(keys)).toThrow(
      `Keys file ${keys}: is not valid UTF-8 at line 1, column 19 (byte 18, 0xff); save it as UTF-8.`,
    );
  });

  it('says a file saved as UTF-16 is, and to save it as UTF-8', () => {
    const utf16 = Buffer.from('\ufeff{"keys": []}', 'utf16le');
    expect(readBoundedFile(fileOf(utf16), BOUND)).toEqual({
      fault: 'is UTF-16 (it begins with a UTF-16 byte-order mark); save it as UTF-8',
    });
  });

  it('reads UTF-8 of every length of sequence as it is, its byte-order mark kept for the JSON reader', () => {
    const text = '\ufeff["é", "€", "🐶"]';
    expect(readBoundedFile(fileOf(text), BOUND)).toEqual({ text });
  });

  it('finds the first malformed byte where a strict decoder refuses, and only there', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 12 }), (bytes) => {
        let strict = true;
        try {
          new TextDecoder('utf-8', { fatal: true }).decode(bytes);
        } catch {
          strict = false;
        }
        const at = firstMalformedUtf8(bytes);
        expect(at === -1).toBe(strict);
        if (at > 0) new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, at));
      }),
      { numRuns: 5000 },
    );
  });

  it('says an empty path (an unset variable) names no file, and names it as two quotes', () => {
    expect(readBoundedFile('', BOUND)).toEqual({
      fault: 'an empty path names no file; give the path of the file',
    });
    expect(() => loadKeysFile('')).toThrow(
      "Keys file '': an empty path names no file; give the path of the file.",
    );
    expect(() => loadPetsFile('')).toThrow(
      "Fixtures file '': an empty path names no file; give the path of the file.",
    );
  });
  it('says in words that a symbolic link loops, for every file flag, rather than a bare ELOOP', () => {
    const dir = mkdtempSync(join(tmpdir(), 'petkit-loop-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const self = join(dir, 'self.json');
    symlinkSync(self, self);
    const a = join(dir, 'a.json');
    symlinkSync(join(dir, 'b.json'), a);
    symlinkSync(a, join(dir, 'b.json'));
    const words =
      'is a symbolic link that never reaches a file (a loop of links, or more than 40 in a row); point the link at the file itself (ELOOP)';
    for (const path of [self, a]) expect(readBoundedFile(path, BOUND)).toMatchObject({ fault: words });
    expect(() => loadKeysFile(a)).toThrow(`Keys file ${a}: ${words}.`);
    expect(() => loadPetsFile(a)).toThrow(`Fixtures file ${a}: ${words}.`);
    expect(() => loadRulesFile(a, { seed: 42, keys: [] })).toThrow(`Rules file ${a}: ${words}.`);
  });
  it('says in words that a path is too long for the system', () => {
    expect(readBoundedFile(`/tmp/${'n'.repeat(300)}.json`, BOUND)).toMatchObject({
      fault:
        'is a path too long for this system (a name over 255 bytes, or a path over 4,096) (ENAMETOOLONG)',
    });
  });
});

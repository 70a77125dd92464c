// Reads a small input file (a keys file, a fixtures file) whole, for Node only: a regular file and
// at most `maxBytes` of it. `readFileSync` reads whatever the path names: /dev/zero or a 1 GiB file
// until memory runs out, and a FIFO with no writer blocks the process before it starts.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from 'node:fs';

export type FileRead = { readonly text: string } | { readonly fault: string; readonly cause?: unknown };

/** A path as a message names it: an empty one as `''`, so the message does not read "Keys file : …". */
export const pathInWords = (path: string): string => (path === '' ? "''" : path);

/** What `stats` names when it is not a regular file, in words; undefined for a regular file. */
export function notAFile(stats: Stats): string | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** A size in the unit a person reads it in: 512 bytes, 1 MiB, 1.5 GiB. */
export function sizeInWords(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', 2 ** 30],
    ['MiB', 2 ** 20],
    ['KiB', 2 ** 10],
  ] as const) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  }
  return `${bytes} bytes`;
}

/**
 * Why the system would not open a path, in words (the code still follows, for a search): a code alone
 * (`cannot be read (ELOOP)`) told a user whose path was a loop of symbolic links nothing to act on.
 */
const UNREADABLE: Readonly<Record<string, string>> = {
  ELOOP:
    'is a symbolic link that never reaches a file (a loop of links, or more than 40 in a row); point the link at the file itself',
  EACCES:
    'cannot be read: permission denied (this user may not read it, or may not enter a folder on its path)',
  EPERM: 'cannot be read: the system does not permit it',
  ENAMETOOLONG: 'is a path too long for this system (a name over 255 bytes, or a path over 4,096)',
  EMFILE: 'cannot be read now: this process has as many files open as it may',
  ENFILE: 'cannot be read now: the system has as many files open as it may',
  EIO: 'cannot be read: the disk answered with an input/output error',
};

function unreadable(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return 'no such file';
  const words = code === undefined || !Object.hasOwn(UNREADABLE, code) ? undefined : UNREADABLE[code];
  return words === undefined ? `cannot be read (${code ?? String(error)})` : `${words} (${code})`;
}

const notRegular = (kind: string) => `is ${kind}, not a regular file`;
const tooLarge = (size: string, bound: Bound) =>
  `${size}; ${bound.what} may be at most ${sizeInWords(bound.maxBytes)}`;

export interface Bound {
  /** Most bytes the file may hold. */
  readonly maxBytes: number;
  /** The file, for the message: "a keys file". */
  readonly what: string;
}

/** UTF-8 as it is, a leading byte-order mark kept (the JSON reader skips it); throws on a malformed sequence. */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The offset of the first byte that does not begin a well-formed UTF-8 sequence (RFC 3629: no
 * overlong form, no surrogate, nothing past U+10FFFF), or -1.
 */
export function firstMalformedUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; ) {
    const lead = bytes[i] as number;
    if (lead < 0x80) {
      i += 1;
      continue;
    }
    const trail =
      lead >= 0xc2 && lead <= 0xdf
        ? 1
        : lead >= 0xe0 && lead <= 0xef
          ? 2
          : lead >= 0xf0 && lead <= 0xf4
            ? 3
            : 0;
    if (trail === 0) return i;
    // The second byte's range is narrower after E0, ED, F0 and F4.
    const low = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
    const high = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
    for (let k = 1; k <= trail; k += 1) {
      const byte = bytes[i + k];
      if (byte === undefined || byte < (k === 1 ? low : 0x80) || byte > (k === 1 ? high : 0xbf)) return i;
    }
    i += trail + 1;
  }
  return -1;
}

/**
 * The file's bytes as text, or why they are not UTF-8: decoded leniently, each malformed byte became
 * U+FFFD and a key, a pet's name or a rule's path changed without a word (a file saved as Latin-1
 * or UTF-16 by an editor).
 */
function textOf(bytes: Buffer): FileRead {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
    return { fault: 'is UTF-16 (it begins with a UTF-16 byte-order mark); save it as UTF-8' };
  try {
    return { text: UTF8.decode(bytes) };
  } catch {
    const at = firstMalformedUtf8(bytes);
    const before = bytes.subarray(0, Math.max(0, at));
    const line = before.filter((byte) => byte === 0x0a).length + 1;
    const column = Buffer.from(before.subarray(before.lastIndexOf(0x0a) + 1)).toString('utf8').length + 1;
    return {
      fault: `is not valid UTF-8 at line ${line}, column ${column} (byte ${at}, 0x${bytes[at]?.toString(16).padStart(2, '0') ?? '?'}); save it as UTF-8`,
    };
  }
}

/** Most bytes read at a time. */
const CHUNK = 256 * 1024;

/**
 * The text (UTF-8) of the regular file at `path`, or why it cannot be had, in words that never quote
 * the file: no such file, not a regular file (a folder, a FIFO, a device, a socket), larger than
 * the bound, unreadable, not UTF-8 (its first malformed byte by line and column). Never blocks on a FIFO and never reads more than the bound and one byte,
 * even when the file changes between the checks and the read.
 */
export function readBoundedFile(path: string, bound: Bound): FileRead {
  // `--keys "$KEYS"` with the variable unset: "Keys file : no such file." named nothing.
  if (path === '') return { fault: 'an empty path names no file; give the path of the file' };
  const { maxBytes } = bound;
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch (error) {
    return { fault: unreadable(error), cause: error };
  }
  // Checked before opening: opening a FIFO waits for a writer, and opening a device can act on it.
  const kind = notAFile(stats);
  if (kind !== undefined) return { fault: notRegular(kind) };
  if (stats.size > maxBytes) {
    // In bytes where the rounded size would read as the bound itself ("is 1 MiB; … at most 1 MiB").
    const size = sizeInWords(stats.size);
    return { fault: tooLarge(`is ${size === sizeInWords(maxBytes) ? `${stats.size} bytes` : size}`, bound) };
  }
  let fd: number;
  try {
    // O_NONBLOCK: should the path have become a FIFO since the stat, the open does not wait.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    return { fault: unreadable(error), cause: error };
  }
  try {
    const opened = notAFile(fstatSync(fd));
    if (opened !== undefined) return { fault: notRegular(opened) };
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK, maxBytes + 1 - total));
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
      total += read;
      // The file grew since the stat: what was read already says it is too large.
      if (total > maxBytes)
        return { fault: tooLarge(`grew past ${sizeInWords(maxBytes)} as it was read`, bound) };
    }
    return textOf(Buffer.concat(chunks, total));
  } catch (error) {
    return { fault: unreadable(error), cause: error };
  } finally {
    closeSync(fd);
  }
}

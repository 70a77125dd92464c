// Reads a small input file (a keys file, a fixtures file) whole, for Node only: a regular file and
// at most `maxBytes` of it. `readFileSync` reads whatever the path names: /dev/zero or a 1 GiB file
// until memory runs out, and a FIFO with no writer blocks the process before it starts.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from 'node:fs';

export type FileRead = { readonly text: string } | { readonly fault: string; readonly cause?: unknown };

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

function unreadable(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return 'no such file';
  return `cannot be read (${code ?? String(error)})`;
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

/** Most bytes read at a time. */
const CHUNK = 256 * 1024;

/**
 * The text (UTF-8) of the regular file at `path`, or why it cannot be had, in words that never quote
 * the file: no such file, not a regular file (a folder, a FIFO, a device, a socket), larger than
 * the bound, unreadable. Never blocks on a FIFO and never reads more than the bound and one byte,
 * even when the file changes between the checks and the read.
 */
export function readBoundedFile(path: string, bound: Bound): FileRead {
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
    return { text: Buffer.concat(chunks, total).toString('utf8') };
  } catch (error) {
    return { fault: unreadable(error), cause: error };
  } finally {
    closeSync(fd);
  }
}

// Files petkit writes for others to read (`--url-file`, `--har`, `--output`) appear whole: written
// beside their place under a name of their own, then renamed. The name is new each time and the file
// is created only if nothing is there (O_EXCL), so a link planted ahead in a shared folder (`/tmp`) is
// never followed, nor a file there truncated. Each is checked when the command starts (fileFault).
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { notAFile } from '../mocks/read-bounded-file.js';

/**
 * A name beside `file`, its own each time: the rename stays in one folder. Its random part from Web
 * Crypto, loaded when first asked (node:crypto at the mock's start was about 7 ms of it).
 */
export function partialOf(
  file: string,
  suffix = Buffer.from(crypto.getRandomValues(new Uint8Array(8))).toString('hex'),
): string {
  return `${file}.${suffix}.partial`;
}

/**
 * Writes `text` to `file` whole (by rename from `partial`); nothing is left at `partial` if that fails.
 * At once: the files are small, or written when the mock has stopped serving (its HAR).
 */
export function writeWhole(file: string, text: string, partial = partialOf(file)): void {
  writeFileSync(partial, text, { flag: 'wx' });
  try {
    renameSync(partial, file);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
}

/**
 * Why `file` could not be written whole (writeWhole) later, in words, or undefined when it can:
 * checked at start (`petkit mock --har` and `--url-file`, `petkit contract --output` and `--har`),
 * for what a run made is lost when the write fails at its end. The folder must exist and take a new
 * file (one is created there and removed: on a read-only place, or as root where permissions do not
 * stop a write, only trying tells), and `file`, if it exists, must be a regular file (the rename
 * would replace a folder's entry or a device node), or with `devices` a character device or the
 * process's own stdout or stderr.
 */
export function fileFault(file: string, options: { readonly devices?: boolean } = {}): string | undefined {
  // `--har ''` (an unset variable): no file at all, found only at the end, by the rename, and the output lost.
  if (file === '') return 'an empty path names no file; give the path of a file to write';
  const target = statOf(file);
  if (target !== undefined && 'error' in target) return unreachable(target.error);
  if (target !== undefined) {
    // `--output /dev/null`: written into as it is (writeOut), never replaced; `/dev/stdout`: the
    // process's own stream (ownStream), whatever it is. Not another named pipe: with no reader,
    // writing to it would wait for ever.
    if (options.devices === true && (target.isCharacterDevice() || ownStream(file) !== undefined))
      return undefined;
    const kind = notAFile(target);
    if (kind !== undefined) return `is ${kind}; give the path of a file to write`;
  }
  const folder = dirname(file);
  const parent = statOf(folder);
  if (parent === undefined) return `the folder ${folder} does not exist`;
  if ('error' in parent) return `the folder ${folder} cannot be reached (${codeOf(parent.error)})`;
  if (!parent.isDirectory()) return `${folder} is not a folder`;
  const probe = partialOf(file);
  try {
    // A name of its own, created only if nothing is there (O_EXCL: a planted link is not followed).
    const { O_WRONLY, O_CREAT, O_EXCL } = constants;
    closeSync(openSync(probe, O_WRONLY | O_CREAT | O_EXCL));
    rmSync(probe, { force: true });
  } catch (error) {
    return `cannot create a file in ${folder} (${codeOf(error)})`;
  }
  return undefined;
}

/**
 * Why the system would not reach a path, in words, the code after them for a search: `cannot be
 * reached (ELOOP)` told a user whose path was a loop of symbolic links nothing to act on.
 */
const UNREACHABLE: Readonly<Record<string, string>> = {
  ELOOP:
    'is a symbolic link that never reaches a file (a loop of links, or more than 40 in a row); point the link at the file itself, or give another path',
  EACCES: 'cannot be reached: permission denied (this user may not enter a folder on its path)',
  ENAMETOOLONG: 'cannot be reached: the path, or a name in it, is longer than the system allows',
};

function unreachable(error: unknown): string {
  const code = codeOf(error);
  const words = UNREACHABLE[code];
  return words === undefined ? `cannot be reached (${code})` : `${words} (${code})`;
}

/** An error's code (ENOENT, EACCES…), or its text. */
export const codeOf = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? String(error);

/** The stats of `path`, undefined when nothing is there, or the error. */
function statOf(path: string): Stats | undefined | { error: unknown } {
  try {
    return statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? undefined : { error };
  }
}

/**
 * The process's own stdout (1) or stderr (2) when `file` is one of them, whatever they are
 * (`/dev/stdout` is a pipe or a socket under CI, which a path cannot always open): written through
 * the stream, not the path.
 */
export function ownStream(file: string): 1 | 2 | undefined {
  const target = statOf(file);
  if (target === undefined || 'error' in target) return undefined;
  for (const fd of [1, 2] as const) {
    try {
      const own = fstatSync(fd);
      if (own.dev === target.dev && own.ino === target.ino) return fd;
    } catch {
      // That stream is closed: not this one.
    }
  }
  return undefined;
}

/**
 * Writes `text` to `file` as writeWhole does, or into it when it is a character device (`/dev/null`,
 * a terminal): a device is written to, never replaced. The process's own streams are the caller's
 * to write (ownStream).
 */
export function writeOut(file: string, text: string): void {
  const target = statOf(file);
  if (target !== undefined && !('error' in target) && target.isCharacterDevice()) writeFileSync(file, text);
  else writeWhole(file, text);
}

// Files petkit writes for others to read (`--url-file`, `--har`) appear whole: written beside their
// place under a name of their own, then renamed. The name is new each time and the file is created
// only if nothing is there (O_EXCL), so a link planted ahead in a shared folder (`/tmp`) is never
// followed, nor a file there truncated.
import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';

/** A name beside `file`, its own each time: the rename stays in one folder. */
export function partialOf(file: string, suffix = randomBytes(8).toString('hex')): string {
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

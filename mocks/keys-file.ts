// Reads a keys file from disk (Node only; the browser-safe core never imports this file).
import { readFileSync } from 'node:fs';
import { type KeysFile, KeysFileError, parseKeysFile } from './keys.js';

/** Reads and checks a keys file; throws KeysFileError naming the file and the fault. */
export function loadKeysFile(path: string): KeysFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT'
        ? 'no such file.'
        : `cannot be read (${String(error)}).`;
    throw new KeysFileError(path, reason, { cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new KeysFileError(path, `is not valid JSON (${(error as Error).message}).`, { cause: error });
  }
  return parseKeysFile(value, path);
}

// Reads a keys file from disk (Node only; the browser-safe core never imports this file).
import { readFileSync } from 'node:fs';
import { readJsonText } from './json-text.js';
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
  // Its fault by line and column, never quoting the file: its contents are keys.
  const read = readJsonText(text);
  if ('fault' in read) throw new KeysFileError(path, `${read.fault}.`);
  return parseKeysFile(read.value, path);
}

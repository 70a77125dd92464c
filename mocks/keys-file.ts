// Reads a keys file from disk (Node only; the browser-safe core never imports this file).
import { readJsonText } from './json-text.js';
import { type KeysFile, KeysFileError, parseKeysFile } from './keys.js';
import { pathInWords, readBoundedFile } from './read-bounded-file.js';

/** Most bytes a keys file may hold: some thousands of keys of the longest length. */
export const MAX_KEYS_FILE_BYTES = 2 ** 20;

/**
 * Reads and checks a keys file; throws KeysFileError naming the file and the fault: no such file,
 * not a regular file, over MAX_KEYS_FILE_BYTES, not valid JSON, not a keys file.
 */
export function loadKeysFile(path: string): KeysFile {
  const file = readBoundedFile(path, { maxBytes: MAX_KEYS_FILE_BYTES, what: 'a keys file' });
  if ('fault' in file) throw new KeysFileError(pathInWords(path), `${file.fault}.`, { cause: file.cause });
  // Its fault by line and column, never quoting the file: its contents are keys.
  const read = readJsonText(file.text);
  if ('fault' in read) throw new KeysFileError(path, `${read.fault}.`);
  return parseKeysFile(read.value, path);
}

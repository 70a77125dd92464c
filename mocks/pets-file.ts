// Reads a fixtures file (a JSON array of pets) from disk, for `petkit mock --fixtures` (Node only).
import type { NewPet } from '../openapi/index.js';
import { readJsonText } from './json-text.js';
import { MockOptionsError } from './options.js';
import { checkPets } from './pets.js';
import { pathInWords, readBoundedFile } from './read-bounded-file.js';

/**
 * Most bytes a fixtures file may hold: a full store at the default --max-pets (100,000 pets, some
 * 60 to 100 bytes each as `GET /v1/pets` and a pretty-printer write them) fits.
 */
export const MAX_FIXTURES_FILE_BYTES = 16 * 2 ** 20;

/** The pets of a fixtures file; throws MockOptionsError naming the file and its first fault, in one line. */
export function loadPetsFile(path: string): NewPet[] {
  const file = readBoundedFile(path, { maxBytes: MAX_FIXTURES_FILE_BYTES, what: 'a fixtures file' });
  if ('fault' in file)
    throw new MockOptionsError(`Fixtures file ${pathInWords(path)}: ${file.fault}.`, { cause: file.cause });
  const read = readJsonText(file.text);
  const checked = 'fault' in read ? read : checkPets(read.value);
  if ('fault' in checked) throw new MockOptionsError(`Fixtures file ${path}: ${checked.fault}.`);
  return checked.pets;
}

// Reads a fixtures file (a JSON array of pets) from disk, for `petkit mock --fixtures` (Node only).
import { readFileSync } from 'node:fs';
import type { NewPet } from '../openapi/index.js';
import { readJsonText } from './json-text.js';
import { MockOptionsError } from './options.js';
import { checkPets } from './pets.js';

/** The pets of a fixtures file; throws MockOptionsError naming the file and its first fault, in one line. */
export function loadPetsFile(path: string): NewPet[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : `cannot be read (${code ?? String(error)})`;
    throw new MockOptionsError(`Fixtures file ${path}: ${reason}.`, { cause: error });
  }
  const read = readJsonText(text);
  const checked = 'fault' in read ? read : checkPets(read.value);
  if ('fault' in checked) throw new MockOptionsError(`Fixtures file ${path}: ${checked.fault}.`);
  return checked.pets;
}

// Pets given in place of seeded ones (createMock's `pets` option, `petkit mock --fixtures`, a reset
// with `{"pets": [...]}`): each entry a NewPet of openapi.yaml, or a Pet whose id is its place (ids
// are given in order from 1, so a file saved from `GET /v1/pets` reads back as it was).
import { loadSpec, type NewPet, quoteValue } from '../openapi/index.js';
import { describeFaultAsSent } from './control-invalid.js';

export type PetsCheck = { readonly pets: NewPet[] } | { readonly fault: string };

/** The pets of `value`, or the first fault, naming the entry (`pets[2]: /name is required`). */
export function checkPets(value: unknown): PetsCheck {
  if (!Array.isArray(value)) {
    return {
      // What it is, not what it holds: a keys file given by mistake is not printed.
      fault: `pets must be an array of pets ({"name", "categoryId", "status"}), got ${kindOf(value)}`,
    };
  }
  const body = loadSpec().operation('createPet').requestBody?.content.get('application/json');
  if (body === undefined) throw new Error('openapi.yaml: createPet takes no application/json body');
  const pets: NewPet[] = [];
  for (const [i, entry] of value.entries()) {
    const at = `pets[${i}]`;
    let pet: unknown = entry;
    if (typeof entry === 'object' && entry !== null && !Array.isArray(entry) && 'id' in entry) {
      const { id, ...rest } = entry as Record<string, unknown>;
      if (id !== i + 1) {
        return {
          fault: `${at}: /id is ${quoteValue(id)}, but ids are given in order from 1: leave it out or make it ${i + 1}`,
        };
      }
      pet = rest;
    }
    const [fault] = body.validate(pet).map(describeFaultAsSent(pet));
    if (fault !== undefined)
      return { fault: `${at}: ${fault.path === '' ? '' : `${fault.path} `}${fault.message}` };
    const checked = pet as NewPet;
    if (!Number.isSafeInteger(checked.categoryId)) {
      return { fault: `${at}: /categoryId is beyond 2^53-1, the largest integer this mock stores exactly` };
    }
    pets.push(checked);
  }
  return { pets };
}

/** `an object`, `a string`, `null`: what a value is, in words, without quoting it. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'boolean') return String(value);
  return `a ${typeof value}`;
}

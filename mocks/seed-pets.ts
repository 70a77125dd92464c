// The seeded pets: a faker instance of the mock's own (never the global one), so the same seed gives
// the same pets in every process and every adapter.
import type { Faker } from '@faker-js/faker';
// The English build only: faker's main entry loads every locale (about 250 ms and 37 MB at start).
import { faker as english } from '@faker-js/faker/locale/en';
import type { NewPet, PetStatus } from '../openapi/index.js';

const STATUSES: readonly { weight: number; value: PetStatus }[] = [
  { weight: 6, value: 'available' },
  { weight: 2, value: 'pending' },
  { weight: 2, value: 'sold' },
];
/** Categories the seeded pets fall in (the API has no category operations; ids are plausible). */
export const SEED_CATEGORIES = 8;

export function seedPets(seed: number, count: number): NewPet[] {
  // A Faker of our own over the English definitions, so seeding it touches no shared instance.
  const FakerClass = english.constructor as typeof Faker;
  const faker = new FakerClass({ locale: english.rawDefinitions });
  faker.seed(seed);
  return Array.from({ length: count }, () => ({
    name: faker.animal.petName(),
    categoryId: faker.number.int({ min: 1, max: SEED_CATEGORIES }),
    status: faker.helpers.weightedArrayElement(STATUSES),
  }));
}

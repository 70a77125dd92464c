// The seeded pets: a faker instance of the mock's own (never the global one), so the same seed gives
// the same pets in every process and every adapter.
import { en, Faker } from '@faker-js/faker';
import type { NewPet, PetStatus } from '../spec/index.js';

const STATUSES: readonly { weight: number; value: PetStatus }[] = [
  { weight: 6, value: 'available' },
  { weight: 2, value: 'pending' },
  { weight: 2, value: 'sold' },
];
/** Categories the seeded pets fall in (the API has no category operations; ids are plausible). */
export const SEED_CATEGORIES = 8;

export function seedPets(seed: number, count: number): NewPet[] {
  const faker = new Faker({ locale: [en] });
  faker.seed(seed);
  return Array.from({ length: count }, () => ({
    name: faker.animal.petName(),
    categoryId: faker.number.int({ min: 1, max: SEED_CATEGORIES }),
    status: faker.helpers.weightedArrayElement(STATUSES),
  }));
}

// The seeded pets: a faker instance of the mock's own (never the global one), so the same seed gives
// the same pets in every process and every adapter.
//
// The default seed's first DRAWN.length pets were drawn by faker when generating
// (mocks/seed-pets.gen.ts, `npm run generate`; a test holds them to faker's draws): seeding them
// reads no faker. The `petkit` command requires faker only when it is first read
// (scripts/bundle-bin.mjs), so `petkit mock` with the default seed, as `npm start` runs it, loads
// none of it: its base locale was about 35 ms of a start of about 230.
import type { Faker } from '@faker-js/faker';
// Faker's base locale and, of its English one, the one list the seeding reads (mocks/pet-names.gen.ts):
// the same pets as over the whole English locale (a test holds them equal), without loading its
// 288 KB at every start (about 17 ms of it); faker's main entry would load every locale (250 ms).
import { faker as base } from '@faker-js/faker/locale/base';
import type { NewPet, PetStatus } from '../openapi/index.js';
import { PET_NAMES } from './pet-names.gen.js';
import { DRAWN, DRAWN_SEED } from './seed-pets.gen.js';

const STATUSES: readonly { weight: number; value: PetStatus }[] = [
  { weight: 6, value: 'available' },
  { weight: 2, value: 'pending' },
  { weight: 2, value: 'sold' },
];
/** Categories the seeded pets fall in (the API has no category operations; ids are plausible). */
export const SEED_CATEGORIES = 8;
/** How many of the default seed's pets are drawn when generating. */
export const DRAWN_COUNT = 1000;

export function seedPets(seed: number, count: number): NewPet[] {
  if (seed === DRAWN_SEED && count <= DRAWN.length)
    return DRAWN.slice(0, count).map(([name, categoryId, status]) => ({ name, categoryId, status }));
  // A Faker of our own, so seeding it touches no shared instance.
  const FakerClass = base.constructor as typeof Faker;
  return petsFrom(
    new FakerClass({ locale: [{ animal: { pet_name: [...PET_NAMES] } }, base.rawDefinitions] }),
    seed,
    count,
  );
}

/** The seeding's draws from a Faker of any locale that has pet names (the test compares two). */
export function petsFrom(faker: Faker, seed: number, count: number): NewPet[] {
  faker.seed(seed);
  return Array.from({ length: count }, () => ({
    name: faker.animal.petName(),
    categoryId: faker.number.int({ min: 1, max: SEED_CATEGORIES }),
    status: faker.helpers.weightedArrayElement(STATUSES),
  }));
}

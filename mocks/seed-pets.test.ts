// The seeded pets are faker's: the same, seed for seed, as a Faker over faker's whole English locale,
// although the mock loads only faker's base locale and the English pet names (generated), and for
// the default seed's first pets no faker at all (drawn when generating).

import { readFileSync } from 'node:fs';
import { Faker } from '@faker-js/faker';
import { faker as english } from '@faker-js/faker/locale/en';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SEED } from './options.js';
import { PET_NAMES } from './pet-names.gen.js';
import { drawnPetsModule, petNamesModule } from './pet-names.js';
import { DRAWN, DRAWN_SEED } from './seed-pets.gen.js';
import { DRAWN_COUNT, petsFrom, seedPets } from './seed-pets.js';

/** What the seeding gives over faker's whole English locale. */
const overEnglish = (seed: number, count: number) =>
  petsFrom(new Faker({ locale: english.rawDefinitions }), seed, count);

describe('seeded pets', () => {
  it('are, seed for seed, what faker over its whole English locale gives', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.constant(DEFAULT_SEED)),
        fc.integer({ min: 0, max: 1200 }),
        (seed, count) => {
          expect(seedPets(seed, count)).toEqual(overEnglish(seed, count));
        },
      ),
      { numRuns: 50, seed: 5 },
    );
  });

  it('the default seed’s first pets are drawn when generating, each seeding its own objects', () => {
    expect(DRAWN_SEED).toBe(DEFAULT_SEED);
    expect(DRAWN).toHaveLength(DRAWN_COUNT);
    const drawn = seedPets(DEFAULT_SEED, DRAWN_COUNT);
    expect(drawn).toEqual(overEnglish(DEFAULT_SEED, DRAWN_COUNT));
    Object.assign(drawn[0] ?? {}, { name: 'Changed' });
    expect(seedPets(DEFAULT_SEED, 1)).toEqual(overEnglish(DEFAULT_SEED, 1));
    expect(seedPets(DEFAULT_SEED, DRAWN_COUNT + 1)).toEqual(overEnglish(DEFAULT_SEED, DRAWN_COUNT + 1));
  });

  it('mocks/seed-pets.gen.ts holds the default seed’s pets as faker now draws them (run `npm run generate`)', async () => {
    expect(readFileSync(new URL('seed-pets.gen.ts', import.meta.url), 'utf8')).toBe(await drawnPetsModule());
  });

  it('mocks/pet-names.gen.ts holds faker’s English pet names as installed (run `npm run generate`)', async () => {
    expect(PET_NAMES).toEqual(english.definitions.animal.pet_name);
    expect(readFileSync(new URL('pet-names.gen.ts', import.meta.url), 'utf8')).toBe(await petNamesModule());
  });
});

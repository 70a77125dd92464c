// The seeded pets are faker's: the same, seed for seed, as a Faker over faker's whole English locale,
// although the mock loads only faker's base locale and the English pet names (generated).

import { readFileSync } from 'node:fs';
import { Faker } from '@faker-js/faker';
import { faker as english } from '@faker-js/faker/locale/en';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PET_NAMES } from './pet-names.gen.js';
import { petNamesModule } from './pet-names.js';
import { petsFrom, seedPets } from './seed-pets.js';

/** What the seeding gives over faker's whole English locale. */
const overEnglish = (seed: number, count: number) =>
  petsFrom(new Faker({ locale: english.rawDefinitions }), seed, count);

describe('seeded pets', () => {
  it('are, seed for seed, what faker over its whole English locale gives', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.integer({ min: 0, max: 300 }),
        (seed, count) => {
          expect(seedPets(seed, count)).toEqual(overEnglish(seed, count));
        },
      ),
      { numRuns: 50, seed: 5 },
    );
  });

  it('mocks/pet-names.gen.ts holds faker’s English pet names as installed (run `npm run generate`)', async () => {
    expect(PET_NAMES).toEqual(english.definitions.animal.pet_name);
    expect(readFileSync(new URL('pet-names.gen.ts', import.meta.url), 'utf8')).toBe(await petNamesModule());
  });
});

// The sources of the modules generated from faker by `npm run generate`: mocks/pet-names.gen.ts
// (faker's English pet names) and mocks/seed-pets.gen.ts (the default seed's first pets, as faker
// draws them). Faker's main entry is imported only here, when generating (and by the test that holds
// the generated modules to it), never by the mock.
import { DEFAULT_SEED } from './options.js';
import { DRAWN_COUNT, petsFrom } from './seed-pets.js';

/** The generated module's text: faker's `en.animal.pet_name`, as it is now installed. */
export async function petNamesModule(): Promise<string> {
  const { en } = await import('@faker-js/faker');
  const names = en.animal?.pet_name;
  if (names === undefined) throw new Error("faker's English locale has no animal.pet_name.");
  return (
    '// Generated from @faker-js/faker (en.animal.pet_name) by `npm run generate`. Do not edit.\n\n' +
    `export const PET_NAMES: readonly string[] = ${JSON.stringify(names, null, 2)};\n`
  );
}

/** The generated module's text: the default seed's first DRAWN_COUNT pets, drawn by faker over its English locale. */
export async function drawnPetsModule(): Promise<string> {
  const { Faker, en } = await import('@faker-js/faker');
  const pets = petsFrom(new Faker({ locale: en }), DEFAULT_SEED, DRAWN_COUNT);
  const lines = pets.map(
    ({ name, categoryId, status }) => `  ${JSON.stringify([name, categoryId, status])},`,
  );
  return (
    '// Generated from @faker-js/faker by `npm run generate`: the first pets of the default seed, as\n' +
    '// [name, categoryId, status], so that a mock seeded with it loads no faker. Do not edit.\n' +
    "import type { PetStatus } from '../openapi/index.js';\n\n" +
    `export const DRAWN_SEED = ${DEFAULT_SEED};\n\n` +
    `export const DRAWN: readonly (readonly [string, number, PetStatus])[] = [\n${lines.join('\n')}\n];\n`
  );
}

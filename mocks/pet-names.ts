// The source of mocks/pet-names.gen.ts: faker's English pet names, written as a module by
// `npm run generate`. Faker's main entry is imported only here, when generating (and by the test
// that holds the generated list to it), never by the mock.

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

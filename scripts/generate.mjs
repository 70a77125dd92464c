#!/usr/bin/env node
// Writes the files generated from openapi.yaml and the keys schema (`npm run generate`, which builds first: the
// validators are made by the compiled openapi/standalone.ts):
//   openapi/api-types.gen.ts   the API's TypeScript types, by openapi-typescript
//   openapi/document.gen.ts    the parsed document as a module, so the spec loads without fs or a YAML
//                           parser (in the browser too, for the MSW worker)
//   openapi/validators.gen.ts  every validator the spec uses, precompiled by ajv (standalone code)
//   mocks/keys-schema.gen.ts   the keys file's validator, precompiled the same way from mocks/keys-schema.ts
//   mocks/pet-names.gen.ts     faker's English pet names, the one English list the seeding uses (so the
//                           mock loads faker's base locale, not its whole English one)
//   mocks/seed-pets.gen.ts     the default seed's first pets as faker draws them (a mock seeded with it
//                           loads no faker)
// openapi/generated.test.ts, mocks/keys-schema.test.ts and mocks/seed-pets.test.ts fail when any of them is stale.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = fileURLToPath(new URL('..', import.meta.url));
const document = parse(readFileSync(`${root}openapi.yaml`, 'utf8'));
writeFileSync(
  `${root}openapi/document.gen.ts`,
  `// Generated from openapi.yaml by \`npm run generate\`. Do not edit.\n` +
    `import type { OpenApiDocument } from './openapi-types.js';\n\n` +
    `export const document: OpenApiDocument = ${JSON.stringify(document, null, 2)};\n`,
);
const { schemaModule, validatorModule } = await import(`${root}dist/openapi/standalone.js`);
writeFileSync(`${root}openapi/validators.gen.ts`, validatorModule(document));
const { KEYS_SCHEMA_MODULE } = await import(`${root}dist/mocks/keys-schema.js`);
writeFileSync(`${root}mocks/keys-schema.gen.ts`, schemaModule(KEYS_SCHEMA_MODULE));
const { drawnPetsModule, petNamesModule } = await import(`${root}dist/mocks/pet-names.js`);
writeFileSync(`${root}mocks/pet-names.gen.ts`, await petNamesModule());
writeFileSync(`${root}mocks/seed-pets.gen.ts`, await drawnPetsModule());
execFileSync(
  process.execPath,
  [
    `${root}node_modules/openapi-typescript/bin/cli.js`,
    `${root}openapi.yaml`,
    '-o',
    `${root}openapi/api-types.gen.ts`,
  ],
  { stdio: 'inherit' },
);

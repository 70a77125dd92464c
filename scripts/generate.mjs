#!/usr/bin/env node
// Writes the three files generated from openapi.yaml (`npm run generate`, which builds first: the
// validators are made by the compiled spec/standalone.ts):
//   spec/api-types.gen.ts   the API's TypeScript types, by openapi-typescript
//   spec/document.gen.ts    the parsed document as a module, so the spec loads without fs or a YAML
//                           parser (in the browser too, for the MSW worker)
//   spec/validators.gen.ts  every validator the spec uses, precompiled by ajv (standalone code)
// spec/generated.test.ts fails when any of them is stale.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = fileURLToPath(new URL('..', import.meta.url));
const document = parse(readFileSync(`${root}openapi.yaml`, 'utf8'));
writeFileSync(
  `${root}spec/document.gen.ts`,
  `// Generated from openapi.yaml by \`npm run generate\`. Do not edit.\n` +
    `import type { OpenApiDocument } from './openapi-types.js';\n\n` +
    `export const document: OpenApiDocument = ${JSON.stringify(document, null, 2)};\n`,
);
const { validatorModule } = await import(`${root}dist/spec/standalone.js`);
writeFileSync(`${root}spec/validators.gen.ts`, validatorModule(document));
execFileSync(
  process.execPath,
  [
    `${root}node_modules/openapi-typescript/bin/cli.js`,
    `${root}openapi.yaml`,
    '-o',
    `${root}spec/api-types.gen.ts`,
  ],
  { stdio: 'inherit' },
);

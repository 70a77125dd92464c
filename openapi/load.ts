import { buildSpec } from './build.js';
import { document } from './document.gen.js';
import type { Spec } from './spec-types.js';
import { validators } from './validators.gen.js';

let cached: Spec | undefined;

/**
 * petkit's contract, read from openapi.yaml through its generated modules (the document, and its
 * validators precompiled by ajv), so it loads without fs, YAML or schema compilation, in the browser
 * too. Built on first use and shared for the rest of the process. The Spec is immutable, so sharing
 * it keeps two mocks independent.
 */
export function loadSpec(): Spec {
  cached ??= buildSpec(document, {
    get(pointer) {
      const validate = validators[pointer];
      if (validate === undefined) {
        throw new Error(`No precompiled validator for ${pointer}: run \`npm run generate\`.`);
      }
      return validate;
    },
  });
  return cached;
}

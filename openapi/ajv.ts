// ajv, set up for an OpenAPI 3.1 document. Used to compile validators at run time for any document
// (`ajvSource`), and by `npm run generate` to precompile openapi.yaml's (see standalone.ts). The mock
// and the suite load the precompiled ones and never import this module for openapi.yaml.
import { Ajv2020, type CodeOptions } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { FORMATS } from './formats.js';
import type { OpenApiDocument } from './openapi-types.js';
import type { ValidatorSource } from './spec-types.js';

// ajv-formats is CommonJS; under NodeNext its default export arrives as the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** Keywords OpenAPI 3.1 allows inside a schema that JSON Schema 2020-12 does not define. */
const OPENAPI_SCHEMA_KEYWORDS = ['example', 'discriminator', 'xml', 'externalDocs', 'x-petkit-decision'];

/**
 * The document's own top-level fields. The whole document is registered as one schema so that every
 * `$ref` in it resolves; ajv compiles that root once, and must take these as annotations.
 */
const OPENAPI_ROOT_FIELDS = [
  'openapi',
  'info',
  'jsonSchemaDialect',
  'servers',
  'paths',
  'webhooks',
  'components',
  'security',
  'tags',
];

/** The id the whole document is registered under: every validator is a `$ref` into it. */
export const DOCUMENT_ID = 'petkit-openapi';

/**
 * ajv gathers a referenced schema's errors with `vErrors = vErrors.concat(validateN.errors)`, a copy of
 * every error so far for each failing item: a list of 20,000 pets each wrong took the suite and the
 * proxy 6 s to check (60,000 errors copied 20,000 times), 10,000 more items four times that. Each is
 * appended where it is instead, the errors the same and in the same order; the first list is copied,
 * not kept, so no validator's own `errors` grows after it returned. Applied to the code ajv compiles
 * (`code.process`) and to the precompiled validators' (standalone.ts).
 */
export function linearErrors(code: string): string {
  return code.replace(
    /vErrors = vErrors === null \? (validate\w+)\.errors : vErrors\.concat\(\1\.errors\);/g,
    (_match, validator: string) =>
      `if (vErrors === null) vErrors = ${validator}.errors.slice(); else for (const e of ${validator}.errors) vErrors.push(e);`,
  );
}

/**
 * One ajv for one document: JSON Schema 2020-12, every error collected (in one pass: linearErrors),
 * formats on and strict.
 */
export function createAjv(code?: CodeOptions): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    strictTypes: false,
    validateFormats: true,
    code: { process: linearErrors, ...code },
  });
  addFormats(ajv);
  for (const [name, format] of Object.entries(FORMATS)) ajv.addFormat(name, format);
  ajv.addVocabulary([...OPENAPI_SCHEMA_KEYWORDS, ...OPENAPI_ROOT_FIELDS]);
  return ajv;
}

/** Registers the document, so that `${DOCUMENT_ID}#<pointer>` resolves. */
export function addDocument(ajv: Ajv2020, document: OpenApiDocument): void {
  // The document is linted (Redocly, Spectral) and its examples tested; meta-validating it here
  // again would only cost start-up time.
  ajv.addSchema(document as object, DOCUMENT_ID, undefined, false);
}

/**
 * Validators compiled by ajv from the document as they are first used (each once per process): for
 * a document other than openapi.yaml, whose validators are precompiled.
 */
export function ajvSource(document: OpenApiDocument): ValidatorSource {
  const ajv = createAjv();
  addDocument(ajv, document);
  return { get: (pointer) => ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` }) };
}

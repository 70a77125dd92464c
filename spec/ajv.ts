import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; under NodeNext its default export arrives as the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const INT64_BOUND = 2 ** 63;
const INT32_BOUND = 2 ** 31;

/** An int64 as JSON can carry it: an integer in [-2^63, 2^63). ajv-formats' own int64 checks no range. */
export function isInt64(value: number): boolean {
  return Number.isInteger(value) && value >= -INT64_BOUND && value < INT64_BOUND;
}

export function isInt32(value: number): boolean {
  return Number.isInteger(value) && value >= -INT32_BOUND && value < INT32_BOUND;
}

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

/** One ajv for one document: JSON Schema 2020-12, every error collected, formats on and strict. */
export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, validateFormats: true });
  addFormats(ajv);
  ajv.addFormat('int64', { type: 'number', validate: isInt64 });
  ajv.addFormat('int32', { type: 'number', validate: isInt32 });
  ajv.addVocabulary([...OPENAPI_SCHEMA_KEYWORDS, ...OPENAPI_ROOT_FIELDS]);
  return ajv;
}

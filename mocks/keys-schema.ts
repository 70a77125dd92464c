// The keys file's format as a JSON Schema, precompiled by ajv into keys-schema.gen.ts (`npm run
// generate`, like openapi.yaml's validators: no ajv at run time; KEYS_SCHEMA_MODULE says how). Each
// rule says what is wrong in words a user can act on: `x-message`, a sentence (or one per keyword)
// that messageOf reads back.
import { pointerOf, pointerOfRef, tokensOf, valueAt } from '../openapi/index.js';

export const PLANS = ['free', 'pro', 'business', 'enterprise'] as const;
/** Longer tokens are rejected unread, so comparing keys costs a bounded time. */
export const MAX_KEY_LENGTH = 512;

/** A positive integer JavaScript holds exactly. */
const LIMIT = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;

export const KEYS_FILE_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  required: ['keys'],
  properties: {
    keys: {
      type: 'array',
      items: {
        type: 'object',
        required: ['key', 'plan'],
        properties: {
          key: {
            type: 'string',
            // Length in UTF-16 units, as the bearer token is measured (see KEYS_SCHEMA_MODULE).
            pattern: `^\\S{1,${MAX_KEY_LENGTH}}$`,
            'x-message': `must be a non-empty string without spaces, at most ${MAX_KEY_LENGTH} characters`,
          },
          plan: { enum: PLANS, 'x-message': `must be one of ${PLANS.join(', ')}` },
          perMinute: { ...LIMIT, 'x-message': 'must be a positive integer' },
          perDay: { ...LIMIT, 'x-message': 'must be a positive integer' },
        },
        additionalProperties: false,
        if: { type: 'object', required: ['plan'], properties: { plan: { const: 'enterprise' } } },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, never awaited
        then: {
          type: 'object',
          required: ['perMinute', 'perDay'],
          'x-message': { required: 'is required for the enterprise plan' },
        },
        'x-message': {
          type: 'must be an object',
          additionalProperties: 'has an unknown property "{property}"',
        },
      },
    },
    anonymous: {
      type: 'object',
      required: ['perMinute', 'perDay'],
      properties: { perMinute: LIMIT, perDay: LIMIT },
      additionalProperties: false,
      'x-message': {
        default: 'must be an object with positive integers perMinute and perDay',
        additionalProperties: 'has an unknown property "{property}"',
      },
    },
  },
  additionalProperties: false,
  'x-message': {
    default: 'must be an object with a "keys" array, e.g. {"keys":[{"key":"k","plan":"free"}]}',
    additionalProperties: 'has an unknown property "{property}" (known: "keys", "anonymous")',
  },
} as const;

/** How keys-schema.gen.ts is made from the schema (scripts/generate.mjs, and its staleness test). */
export const KEYS_SCHEMA_MODULE = {
  schema: KEYS_FILE_SCHEMA,
  name: 'validateKeysFile',
  from: 'mocks/keys-schema.ts',
  annotations: ['x-message'],
  // A key's length in UTF-16 units, as `pattern` counts without the u flag (the token is measured so).
  // (And `then` requires properties that the entry, not `then`, defines.)
  ajv: { unicodeRegExp: false, strictRequired: false },
} as const;

/** What ajv says of a value that fails the schema (the fields messageOf reads). */
export interface SchemaError {
  readonly instancePath: string;
  readonly schemaPath: string;
  readonly keyword: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** The words of a rule: one sentence, or one per keyword (and `default`). */
type Words = string | Readonly<Record<string, string>>;

interface Rule {
  readonly 'x-message'?: Words;
  readonly properties?: Readonly<Record<string, Rule>>;
}

/** `/keys/0/plan` as a reader writes it: `keys[0].plan`; the whole file is said of itself. */
function said(at: readonly string[], words: string): string {
  const where = at.map((token, i) => (/^\d+$/.test(token) ? `[${token}]` : i === 0 ? token : `.${token}`));
  return at.length === 0 ? words : `${where.join('')} ${words}`;
}

/**
 * An error in words: the nearest `x-message` at or above the rule that failed, said of the value
 * that rule is about. A missing property is said of the property, when the property has words of
 * its own (or the rule has words for `required`).
 */
export function messageOf(error: SchemaError): string {
  const missing = error.keyword === 'required' ? String(error.params.missingProperty) : undefined;
  let rule = tokensOf(pointerOfRef(error.schemaPath)).slice(0, -1);
  let value = tokensOf(error.instancePath);
  for (;;) {
    const schema = valueAt(KEYS_FILE_SCHEMA, pointerOf(rule)) as Rule;
    const words = schema['x-message'];
    if (missing !== undefined) {
      const own = typeof words === 'object' ? words.required : undefined;
      const property = own ?? schema.properties?.[missing]?.['x-message'];
      if (typeof property === 'string') return said([...value, missing], property);
    }
    if (words !== undefined) {
      const sentence = typeof words === 'string' ? words : (words[error.keyword] ?? words.default ?? '');
      return said(value, sentence.replace('{property}', String(error.params.additionalProperty)));
    }
    if (rule.length === 0) return 'is not valid';
    // Up one rule: out of a property or an item is up one level of the value too.
    const last = rule.at(-1);
    const outOfProperty = rule.at(-2) === 'properties';
    rule = rule.slice(0, outOfProperty ? -2 : -1);
    if (outOfProperty || last === 'items') value = value.slice(0, -1);
  }
}

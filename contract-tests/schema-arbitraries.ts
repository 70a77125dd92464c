// Cases derived from the schemas in openapi.yaml with fast-check: valid values, their boundaries,
// and invalid ones. The contract module's validators are the oracle: a "valid" case passes its schema, an
// "invalid" one fails it, whatever the derivation below guessed.
import fc from 'fast-check';
import {
  type JsonSchema,
  type OpenApiDocument,
  type ParameterSpec,
  pointerOfRef,
  type Validator,
  valueAt,
} from '../openapi/index.js';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const INT64_MAX = 2n ** 63n - 1n;

/** Follows `$ref`s (local only) until a schema with content. */
export function deref(document: OpenApiDocument, schema: JsonSchema): JsonSchema {
  let current = schema;
  for (let hops = 0; hops < 32 && typeof current.$ref === 'string'; hops += 1) {
    current = valueAt(document, pointerOfRef(current.$ref)) as JsonSchema;
  }
  return current;
}

const codePoints = (min: number, max: number) =>
  fc.integer({ min, max }).map((codePoint) => String.fromCodePoint(codePoint));

/**
 * One code point of a name: mostly ASCII, and Latin, CJK, emoji (two UTF-16 units) and the characters
 * JSON must escape. (fast-check's 'binary' unit would do, but mapping a hand-picked example back onto it
 * builds a table of every code point, which costs seconds per property.)
 */
const CHARACTER = fc.oneof(
  { weight: 6, arbitrary: codePoints(0x20, 0x7e) },
  { weight: 1, arbitrary: codePoints(0xa0, 0x24f) },
  { weight: 1, arbitrary: codePoints(0x4e00, 0x9fff) },
  { weight: 1, arbitrary: codePoints(0x1f300, 0x1faff) },
  { weight: 1, arbitrary: fc.constantFrom('"', '\\', '\n', '\t', '\u0000', '\u2028') },
);

const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

interface IntegerBounds {
  min: number;
  max: number;
}

function integerBounds(schema: JsonSchema): IntegerBounds {
  return { min: num(schema.minimum) ?? -MAX_SAFE, max: num(schema.maximum) ?? MAX_SAFE };
}

function properties(document: OpenApiDocument, schema: JsonSchema): [string, JsonSchema][] {
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  return Object.entries(props).map(([name, sub]) => [name, deref(document, sub)]);
}

function requiredOf(schema: JsonSchema): string[] {
  return Array.isArray(schema.required) ? (schema.required as string[]) : [];
}

/** Any value its schema accepts (for the subset of JSON Schema that openapi.yaml uses). */
export function validArbitrary(document: OpenApiDocument, raw: JsonSchema): fc.Arbitrary<unknown> {
  const schema = deref(document, raw);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  switch (schema.type) {
    case 'string': {
      const minLength = num(schema.minLength) ?? 0;
      const maxLength = num(schema.maxLength) ?? 40;
      return fc.string({ unit: CHARACTER, minLength, maxLength });
    }
    case 'integer': {
      const { min, max } = integerBounds(schema);
      const small = fc.integer({ min: Math.max(min, -1000), max: Math.min(max, 1000) });
      const any = fc.bigInt({ min: BigInt(min), max: BigInt(max) }).map(Number);
      return fc.oneof({ arbitrary: small, weight: 3 }, { arbitrary: any, weight: 1 });
    }
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(validArbitrary(document, (schema.items ?? {}) as JsonSchema), { maxLength: 5 });
    case 'object': {
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, sub] of properties(document, schema)) record[name] = validArbitrary(document, sub);
      return fc.record(record, { requiredKeys: requiredOf(schema) });
    }
    default:
      return fc.jsonValue();
  }
}

/** The values at the edges of a schema: each enum value, length and range bounds, unicode. */
export function boundaryValues(document: OpenApiDocument, raw: JsonSchema): unknown[] {
  const schema = deref(document, raw);
  if (Array.isArray(schema.enum)) return [...(schema.enum as unknown[])];
  if ('const' in schema) return [schema.const];
  switch (schema.type) {
    case 'string': {
      const minLength = Math.max(num(schema.minLength) ?? 0, 0);
      const maxLength = num(schema.maxLength) ?? 40;
      const sized = (unit: string, length: number) => unit.repeat(length);
      return [
        sized('a', Math.max(minLength, 1)),
        sized('z', maxLength),
        // One code point each, two UTF-16 units: a schema's length counts code points.
        sized('🐾', maxLength),
        sized('猫', Math.min(maxLength, 12)),
        ' Zoë "Ü" \\ 🐾 ',
      ].filter((value) => [...value].length >= minLength && [...value].length <= maxLength);
    }
    case 'integer': {
      const { min, max } = integerBounds(schema);
      return [min, max];
    }
    case 'boolean':
      return [true, false];
    case 'object': {
      const props = properties(document, schema);
      const required = requiredOf(schema);
      const base: Record<string, unknown> = {};
      for (const [name, sub] of props) {
        if (required.includes(name)) base[name] = boundaryValues(document, sub)[0];
      }
      const cases: unknown[] = [base];
      for (const [name, sub] of props) {
        for (const value of boundaryValues(document, sub)) cases.push({ ...base, [name]: value });
      }
      return cases;
    }
    default:
      return [];
  }
}

const SAMPLES_BY_TYPE: Record<string, unknown> = {
  string: 'text',
  integer: 7,
  number: 1.5,
  boolean: true,
  null: null,
  array: [],
  object: {},
};

/** An invalid case with what is wrong in it, as data: `kind` groups the cases one bug would fail. */
export interface InvalidCase {
  readonly value: unknown;
  /** The mutation's kind (`missing name`, `numeric string for categoryId`): one finding per kind. */
  readonly kind: string;
  /** What is invalid, in words: `name has 101 characters > maxLength 100`. */
  readonly what: string;
}

/** A value that has the schema's type written as a string: what a type-coercing server accepts. */
function typeAsString(schema: JsonSchema): string | undefined {
  if (schema.type === 'integer') {
    const { min, max } = integerBounds(schema);
    return String(Math.min(Math.max(3, min), max));
  }
  if (schema.type === 'number') return '1.5';
  if (schema.type === 'boolean') return 'true';
  return undefined;
}

function wrongTypeValues(schema: JsonSchema): unknown[] {
  const asString = typeAsString(schema);
  return [
    ...Object.entries(SAMPLES_BY_TYPE)
      .filter(([type]) => type !== schema.type && !(schema.type === 'number' && type === 'integer'))
      .map(([, value]) => value),
    ...(asString === undefined ? [] : [asString]),
  ];
}

/** Values just outside a schema's range, length or enum (the wrong types apart). */
function outOfRangeValues(schema: JsonSchema): unknown[] {
  if (Array.isArray(schema.enum)) {
    const first = String(schema.enum[0]);
    return [`${first}-not-in-enum`, first.toUpperCase()];
  }
  if (schema.type === 'string') {
    const values: unknown[] = [];
    const minLength = num(schema.minLength);
    const maxLength = num(schema.maxLength);
    if (minLength !== undefined && minLength > 0) values.push('a'.repeat(minLength - 1));
    if (maxLength !== undefined) values.push('a'.repeat(maxLength + 1));
    return values;
  }
  if (schema.type === 'integer') {
    const values: unknown[] = [1.5];
    if (typeof schema.minimum === 'number') values.push(schema.minimum - 1);
    if (typeof schema.maximum === 'number') values.push(schema.maximum + 1);
    return values;
  }
  return [];
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

const show = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
};

/** Says what is wrong with a property's value, judged against its schema. */
export function describeInvalidProperty(name: string, schema: JsonSchema, value: unknown): InvalidCase {
  const made = (kind: string, what: string): InvalidCase => ({ value, kind, what });
  const type = jsonType(value);
  const typeOk =
    schema.type === undefined || type === schema.type || (schema.type === 'number' && type === 'integer');
  if (!typeOk) {
    if (typeof value === 'string' && typeAsString(schema) !== undefined && value.trim() !== '') {
      const looksRight =
        schema.type === 'boolean' ? /^(true|false)$/.test(value) : !Number.isNaN(Number(value));
      if (looksRight) {
        return made(
          `${schema.type} as a string for ${name}`,
          `${name} is the string ${show(value)}, not an ${schema.type}`,
        );
      }
    }
    return made(`wrong type of ${name}`, `${name} is ${show(value)} (${type}), not ${schema.type}`);
  }
  if (Array.isArray(schema.enum) && !(schema.enum as unknown[]).includes(value)) {
    return made(
      `${name} not in its enum`,
      `${name} ${show(value)} is not one of ${(schema.enum as unknown[]).map(String).join(', ')}`,
    );
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    const maxLength = num(schema.maxLength);
    const minLength = num(schema.minLength);
    if (maxLength !== undefined && length > maxLength) {
      return made(`${name} over maxLength`, `${name} has ${length} characters > maxLength ${maxLength}`);
    }
    if (minLength !== undefined && length < minLength) {
      return made(`${name} under minLength`, `${name} has ${length} characters < minLength ${minLength}`);
    }
  }
  if (typeof value === 'number') {
    if (schema.type === 'integer' && !Number.isInteger(value)) {
      return made(`${name} not an integer`, `${name} is ${value}, not an integer`);
    }
    const minimum = num(schema.minimum);
    const maximum = num(schema.maximum);
    if (minimum !== undefined && value < minimum) {
      return made(`${name} under minimum`, `${name} is ${value} < minimum ${minimum}`);
    }
    if (maximum !== undefined && value > maximum) {
      return made(`${name} over maximum`, `${name} is ${value} > maximum ${maximum}`);
    }
  }
  return made(`invalid ${name}`, `${name} is ${show(value)}`);
}

function invalidPropertyArbitrary(schema: JsonSchema): fc.Arbitrary<unknown> {
  const options: fc.Arbitrary<unknown>[] = [fc.constantFrom(...wrongTypeValues(schema))];
  const asString = typeAsString(schema);
  if (schema.type === 'integer') {
    const { min, max } = integerBounds(schema);
    options.push(fc.integer({ min: Math.max(min, -1000), max: Math.min(max, 1000) }).map(String));
  } else if (asString !== undefined) {
    options.push(fc.constant(asString));
  }
  if (Array.isArray(schema.enum)) {
    options.push(
      fc
        .string({ minLength: 1, maxLength: 12 })
        .filter((value) => !(schema.enum as unknown[]).includes(value)),
    );
  } else if (schema.type === 'string' && typeof schema.maxLength === 'number') {
    options.push(fc.string({ minLength: schema.maxLength + 1, maxLength: schema.maxLength + 20 }));
  } else if (schema.type === 'integer') {
    const { min, max } = integerBounds(schema);
    if (min > -MAX_SAFE) options.push(fc.integer({ min: min - 1000, max: min - 1 }));
    if (max < MAX_SAFE) options.push(fc.integer({ min: max + 1, max: max + 1000 }));
    options.push(
      fc.double({ noNaN: true, noDefaultInfinity: true }).filter((value) => !Number.isInteger(value)),
    );
  }
  return fc.oneof(...options);
}

function omit(value: unknown, key: string): unknown {
  const copy = { ...(value as Record<string, unknown>) };
  delete copy[key];
  return copy;
}

const missing = (value: unknown, name: string): InvalidCase => ({
  value: omit(value, name),
  kind: `missing ${name}`,
  what: `required property ${name} is missing`,
});

const unknownProperty = (value: unknown, name: string, extra: unknown): InvalidCase => ({
  value: { ...(value as object), [name]: extra },
  kind: 'unknown property',
  what: `unknown property ${name}`,
});

const notAnObject = (value: unknown): InvalidCase => ({
  value,
  kind: 'not an object',
  what: `the body is ${show(value)}, not an object`,
});

/**
 * Hand-derivable invalid values of an object schema: each required property missing, each property
 * of each wrong type (its type written as a string among them) and just out of range, unknown
 * properties, and not an object at all.
 */
export function invalidExamples(
  document: OpenApiDocument,
  raw: JsonSchema,
  validate: Validator,
): InvalidCase[] {
  const schema = deref(document, raw);
  const [base] = boundaryValues(document, schema);
  const cases: InvalidCase[] = [];
  for (const name of requiredOf(schema)) cases.push(missing(base, name));
  for (const [name, sub] of properties(document, schema)) {
    for (const value of [...wrongTypeValues(sub), ...outOfRangeValues(sub)]) {
      const described = describeInvalidProperty(name, sub, value);
      cases.push({ ...described, value: { ...(base as object), [name]: value } });
    }
  }
  if (schema.additionalProperties === false) {
    cases.push(unknownProperty(base, 'id', 1), unknownProperty(base, 'unknownProperty', 'x'));
  }
  cases.push(...[[], null, 'text', 42].map(notAnObject));
  return cases.filter((value) => validate(value.value).length > 0);
}

/** Generated invalid values of an object schema, each one change away from a valid value. */
export function invalidArbitrary(
  document: OpenApiDocument,
  raw: JsonSchema,
  validate: Validator,
): fc.Arbitrary<InvalidCase> {
  const schema = deref(document, raw);
  const valid = validArbitrary(document, schema) as fc.Arbitrary<Record<string, unknown>>;
  const props = properties(document, schema);
  const required = requiredOf(schema);
  const mutations: fc.Arbitrary<InvalidCase>[] = [];
  if (required.length > 0) {
    mutations.push(fc.tuple(valid, fc.constantFrom(...required)).map(([value, key]) => missing(value, key)));
  }
  for (const [name, sub] of props) {
    mutations.push(
      fc.tuple(valid, invalidPropertyArbitrary(sub)).map(([value, bad]) => ({
        ...describeInvalidProperty(name, sub, bad),
        value: { ...value, [name]: bad },
      })),
    );
  }
  if (schema.additionalProperties === false) {
    const known = new Set(props.map(([name]) => name));
    const key = fc
      .string({ minLength: 1, maxLength: 10 })
      .filter((name) => !known.has(name) && name !== '__proto__');
    mutations.push(
      fc
        .tuple(valid, key, fc.jsonValue({ maxDepth: 1 }))
        .map(([value, k, v]) => unknownProperty(value, k, v)),
    );
  }
  return fc.oneof(...mutations).filter((value) => validate(value.value).length > 0);
}

const looksLikeNumber = /^-?\d/;

/** Raw strings a parameter must reject, judged by the contract module's own parser. */
export function invalidParameterExamples(parameter: ParameterSpec): string[] {
  const schema = parameter.schema;
  const raws: string[] = ['abc', '1.5', '-1', '0', '1e400'];
  if (typeof schema.minimum === 'number') raws.push(String(schema.minimum - 1));
  if (typeof schema.maximum === 'number') raws.push(String(schema.maximum + 1));
  if (schema.format === 'int64') raws.push(String(INT64_MAX + 1n), '99999999999999999999');
  if (Array.isArray(schema.enum)) {
    const first = String(schema.enum[0]);
    raws.push(`${first}-not-in-enum`, first.toUpperCase(), 'adopted');
  }
  return [...new Set(raws)].filter((raw) => parameter.parse(raw).faults.length > 0);
}

export function invalidParameterArbitrary(parameter: ParameterSpec): fc.Arbitrary<string> {
  const schema = parameter.schema;
  const options: fc.Arbitrary<string>[] = [fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,11}$/)];
  if (schema.type === 'integer') {
    const { min, max } = integerBounds(schema);
    if (min > -MAX_SAFE)
      options.push(fc.bigInt({ min: BigInt(min) - 10n ** 12n, max: BigInt(min) - 1n }).map(String));
    if (max < MAX_SAFE)
      options.push(fc.bigInt({ min: BigInt(max) + 1n, max: BigInt(max) + 10n ** 12n }).map(String));
    options.push(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }).map(String));
    if (schema.format === 'int64')
      options.push(fc.bigInt({ min: INT64_MAX + 1n, max: 2n ** 80n }).map(String));
  }
  return fc
    .oneof(...options)
    .filter(
      (raw) => parameter.parse(raw).faults.length > 0 && (looksLikeNumber.test(raw) || /^[A-Za-z]/.test(raw)),
    );
}

/** Raw strings a parameter must accept: its bounds, every enum value, and generated ones. */
export function validParameterExamples(document: OpenApiDocument, parameter: ParameterSpec): string[] {
  return boundaryValues(document, parameter.schema)
    .map(String)
    .filter((raw) => parameter.parse(raw).faults.length === 0);
}

export function validParameterArbitrary(
  document: OpenApiDocument,
  parameter: ParameterSpec,
): fc.Arbitrary<string> {
  return validArbitrary(document, parameter.schema)
    .map(String)
    .filter((raw) => parameter.parse(raw).faults.length === 0);
}

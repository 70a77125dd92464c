// Spellings of one value in the grammar of the place it travels in, each with what openapi.yaml's
// decisions make of it: a query string (percent-decoded, `+` a space, then a JSON integer or the enum
// value exactly), a path segment (percent-decoded, `+` itself), a JSON number (any whole-valued
// number is the integer it equals). Derived from the parameter's schema, never kept as a list of cases.
import type { ParameterSpec } from '../../openapi/index.js';

export interface Spelling {
  /** As it travels: a query's or path's raw text (percent-encoded where it says so), a JSON number's text. */
  readonly raw: string;
  /** What this spelling is, in a few words: `percent-encoded digits`. */
  readonly grammar: string;
  /** 0: sent in a default run; 1: only when more is asked for. */
  readonly tier: 0 | 1;
  /** The value a server that keeps the decisions reads, or `refused` (the documented 400). */
  readonly means: { readonly value: unknown } | 'refused';
}

const percentEncodeAll = (text: string) =>
  [...new TextEncoder().encode(text)]
    .map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`)
    .join('');

/**
 * An integer parameter's value `v` in every spelling the URL allows: the canonical digits and their
 * percent-encoding mean `v`; a sign, a leading zero, a fraction, an exponent, a space or nothing at all
 * is refused (openapi.yaml: written as a JSON integer after percent-decoding). `+` is a space in a query
 * and itself in a path, so each place gets its own spelling of a plus sign.
 */
export function integerSpellings(parameter: Pick<ParameterSpec, 'in'>, v: number): Spelling[] {
  const digits = String(Math.abs(v));
  const sign = v < 0 ? '-' : '';
  const canonical = `${sign}${digits}`;
  const spellings: Spelling[] = [
    { raw: canonical, grammar: 'the canonical digits', tier: 0, means: { value: v } },
    { raw: percentEncodeAll(canonical), grammar: 'percent-encoded digits', tier: 0, means: { value: v } },
    { raw: `${canonical}.0`, grammar: 'a fraction of zero', tier: 0, means: 'refused' },
    { raw: `${sign}0${digits}`, grammar: 'a leading zero', tier: 1, means: 'refused' },
    { raw: `${canonical}e0`, grammar: 'an exponent', tier: 1, means: 'refused' },
    { raw: `%20${canonical}`, grammar: 'a leading space', tier: 1, means: 'refused' },
    // Sent in a default run for every query parameter at once (emptyQuery); in a path, another route.
    { raw: '', grammar: 'an empty value', tier: 1, means: 'refused' },
  ];
  if (v >= 0) {
    spellings.push({ raw: `%2B${digits}`, grammar: 'a plus sign', tier: 0, means: 'refused' });
    // In a query a bare + is a space (a leading space, refused); in a path it is a plus sign.
    spellings.push({
      raw: `+${digits}`,
      grammar: parameter.in === 'query' ? 'a + (a space)' : 'a bare plus sign',
      tier: 1,
      means: 'refused',
    });
  }
  return spellings;
}

/**
 * An enum parameter's value: its percent-encoding means it; a change of case, a trailing `+` (a space)
 * or, in a query, an empty value (`status=`, which a server that tests the value for truth reads as no
 * filter) is refused.
 */
export function enumSpellings(value: string, place: ParameterSpec['in'] = 'query'): Spelling[] {
  const cased =
    value === value.toUpperCase() ? value.toLowerCase() : `${value[0]?.toUpperCase() ?? ''}${value.slice(1)}`;
  const spellings: Spelling[] = [
    { raw: value, grammar: 'the value', tier: 0, means: { value } },
    {
      raw: `${percentEncodeAll(value.slice(0, 1))}${value.slice(1)}`,
      grammar: 'a percent-encoded letter',
      tier: 1,
      means: { value },
    },
    { raw: `${value}+`, grammar: 'a trailing + (a space)', tier: 1, means: 'refused' },
  ];
  if (place === 'query') spellings.push({ raw: '', grammar: 'an empty value', tier: 1, means: 'refused' });
  if (cased !== value)
    spellings.splice(1, 0, { raw: cased, grammar: 'another case', tier: 0, means: 'refused' });
  return spellings;
}

/**
 * Every query parameter given with an empty value (`limit=&status=`): refused, each outside its schema
 * (openapi.yaml: an empty limit is a 400, not the default; a status outside PetStatus is a 400). What a
 * server that tests a value for truth (`if (query.status)`) reads as nothing given: the default page,
 * unfiltered. One request for all, a default run's economy: such a server reads them all alike.
 */
export function emptyQuery(parameters: readonly Pick<ParameterSpec, 'name' | 'in'>[]): Spelling | undefined {
  const names = parameters.filter((parameter) => parameter.in === 'query').map((p) => p.name);
  if (names.length === 0) return undefined;
  const raw = names.map((name) => `${encodeURIComponent(name)}=`).join('&');
  return { raw, grammar: names.length > 1 ? 'empty values' : 'an empty value', tier: 0, means: 'refused' };
}

/** A parameter given twice with the same raw value: refused (openapi.yaml: given twice, even equal, is a 400). */
export function repeatedParameter(parameter: Pick<ParameterSpec, 'name'>, raw: string): Spelling {
  const pair = `${encodeURIComponent(parameter.name)}=${raw}`;
  return { raw: `${pair}&${pair}`, grammar: 'given twice', tier: 0, means: 'refused' };
}

/** Every spelling of a query or path parameter's value, by its schema: an integer's or an enum's. */
export function parameterSpellings(parameter: ParameterSpec, value: unknown): Spelling[] {
  const schema = parameter.schema as { type?: unknown; enum?: unknown };
  if (schema.type === 'integer' && typeof value === 'number') return integerSpellings(parameter, value);
  if (Array.isArray(schema.enum) && typeof value === 'string') return enumSpellings(value, parameter.in);
  return [];
}

/**
 * A whole number `v` as JSON numbers (RFC 8259 §6): each means `v` (openapi.yaml: a whole-valued JSON
 * number is that integer however written, as JSON Schema's `integer` says).
 */
export function jsonIntegerSpellings(v: number): Spelling[] {
  const sign = v < 0 ? '-' : '';
  const digits = String(Math.abs(v));
  const means = { value: v };
  return [
    { raw: String(v), grammar: 'the canonical digits', tier: 0, means },
    { raw: `${sign}${digits}.0`, grammar: 'a fraction of zero', tier: 0, means },
    { raw: `${sign}${digits}e0`, grammar: 'an exponent of zero', tier: 1, means },
    { raw: `${sign}${digits}0E-1`, grammar: 'a negative exponent', tier: 1, means },
    { raw: `${sign}0.${digits}e${digits.length}`, grammar: 'a fraction and an exponent', tier: 1, means },
    { raw: `${sign}${digits}E+0`, grammar: 'an exponent with a sign', tier: 1, means },
  ];
}

/** A JSON body's text with one top-level number member written as `raw` (JSON.stringify cannot write 1.0). */
export function withRawNumber(body: Readonly<Record<string, unknown>>, member: string, raw: string): string {
  // A marker the suite's bodies never hold elsewhere, replaced by the number's text.
  const marker = 'petkit-raw-number-6d1f';
  return JSON.stringify({ ...body, [member]: marker }).replace(`"${marker}"`, raw);
}

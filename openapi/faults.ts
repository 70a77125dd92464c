import type { ErrorObject } from 'ajv';
import { escapeToken, valueAt } from './json-pointer.js';

/**
 * One way a value departs from its schema: ajv's ErrorObject, with `instancePath` a JSON Pointer
 * into the value (for a parameter, `/` and its name).
 */
export type Fault = Pick<ErrorObject, 'instancePath' | 'schemaPath' | 'keyword' | 'params' | 'message'>;

/** A fault as a person reads it: where (a JSON Pointer) and what is wrong. */
export interface FaultDetail {
  path: string;
  message: string;
}

/** The most characters a quoted value takes in a message. */
const QUOTE_LENGTH = 60;

/** A text quoted as it is (not as JSON), cut as quoteValue cuts. */
function quoteText(text: string): string {
  return text.length > QUOTE_LENGTH ? `${text.slice(0, QUOTE_LENGTH - 3)}...` : text;
}

/**
 * A received value as a message quotes it: JSON (but -0 as -0), cut short past 60
 * characters. Only what is quoted is read (jsonStart), so a value of any depth or width costs the same
 * few dozen steps: a body nested 8,000 deep overflowed the stack in JSON.stringify, and a wide one was
 * written whole to keep 60 characters of it.
 */
export function quoteValue(value: unknown): string {
  const text = jsonStart(value, QUOTE_LENGTH + 1) ?? String(value).slice(0, QUOTE_LENGTH + 1);
  return text.length > QUOTE_LENGTH ? `${text.slice(0, QUOTE_LENGTH - 3)}...` : text;
}

/** An array or object being written: its members still to come (a key for an object's), its close. */
interface Open {
  readonly members: Iterator<readonly [key: string | undefined, value: unknown]>;
  readonly close: string;
  written: number;
}

/**
 * The start of JSON.stringify(value): its first `limit` characters or more (all of it when shorter),
 * or undefined where JSON.stringify gives undefined. It walks with a stack of its own, not recursion,
 * and every step writes at least a character, so it takes O(limit) steps and memory whatever the
 * value's depth or width. (An object's members whose values JSON leaves out, such as functions, are
 * skipped unwritten; a value JSON.parse made has none.)
 */
function jsonStart(value: unknown, limit: number): string | undefined {
  let next = jsonValueOf(value, '');
  if (!isWritten(next)) return undefined;
  let pending = true;
  let text = '';
  const open: Open[] = [];
  while (text.length < limit) {
    if (pending) {
      pending = false;
      if (Array.isArray(next)) {
        text += '[';
        open.push({ members: elementsOf(next), close: ']', written: 0 });
      } else if (typeof next === 'object' && next !== null) {
        text += '{';
        open.push({ members: membersOf(next), close: '}', written: 0 });
      } else {
        text += scalarText(next, limit - text.length);
      }
      continue;
    }
    const parent = open.at(-1);
    if (parent === undefined) break;
    const member = parent.members.next();
    if (member.done === true) {
      text += parent.close;
      open.pop();
      continue;
    }
    const [key, memberValue] = member.value;
    if (parent.written > 0) text += ',';
    parent.written += 1;
    if (key !== undefined) text += `${stringText(key, limit - text.length)}:`;
    next = memberValue;
    pending = true;
  }
  return text;
}

/** A member's value as JSON.stringify sees it: what its toJSON gives, when it has one. */
function jsonValueOf(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const { toJSON } = value as { toJSON?: unknown };
  return typeof toJSON === 'function' ? (toJSON as (key: string) => unknown).call(value, key) : value;
}

/** Whether JSON.stringify writes a value (in an array, one it does not write is `null`). */
function isWritten(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}

function* elementsOf(array: readonly unknown[]): Generator<readonly [undefined, unknown]> {
  for (let i = 0; i < array.length; i += 1) {
    const element = jsonValueOf(array[i], String(i));
    yield [undefined, isWritten(element) ? element : null];
  }
}

function* membersOf(object: object): Generator<readonly [string, unknown]> {
  // Values are read one at a time, only as far as the quote goes (the engine lists the keys once, in
  // native code); own keys only, as JSON writes them.
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue;
    const member = jsonValueOf((object as Record<string, unknown>)[key], key);
    if (isWritten(member)) yield [key, member];
  }
}

/** A string, number, boolean or null as JSON writes it, a string only as far as `room` needs. */
function scalarText(value: unknown, room: number): string {
  if (typeof value === 'string') return stringText(value, room);
  // -0 as -0: JSON.parse keeps it, and a client that sent it was told `got 0`, a value it never sent.
  if (typeof value === 'number')
    return Number.isFinite(value) ? (Object.is(value, -0) ? '-0' : String(value)) : 'null';
  // JSON.stringify refuses a bigint; a quote can show its digits.
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return 'null';
}

/**
 * A string as JSON writes it, only its first `room` characters: each takes at least one character of
 * JSON, so the text is right as far as `room` and a long string costs no more than a short one.
 */
function stringText(value: string, room: number): string {
  return JSON.stringify(value.length > room ? value.slice(0, Math.max(room, 1)) : value);
}

/**
 * A member name as a JSON Pointer token names it, cut as quoteValue cuts (`...`) past QUOTE_LENGTH:
 * a client's unknown property of 16,000 characters is named by its start, not sent back whole.
 */
function nameText(name: string): string {
  const token = escapeToken(name.length > QUOTE_LENGTH ? name.slice(0, QUOTE_LENGTH) : name);
  return name.length > QUOTE_LENGTH || token.length > QUOTE_LENGTH
    ? `${token.slice(0, QUOTE_LENGTH - 3)}...`
    : token;
}

/**
 * Points `required` and `additionalProperties` faults at the property concerned, not its parent; an
 * `enum` fault lists the allowed values.
 */
export function describeFault(fault: Fault): FaultDetail {
  return describe(fault, undefined);
}

/** describeFault for faults of `value`: each message also quotes what was received at its path. */
export function describeFaultIn(
  value: unknown,
  /** A value's text as sent, by its pointer: a number too large to read exactly is quoted as its digits. */
  sent?: (pointer: string) => string | undefined,
): (fault: Fault) => FaultDetail {
  return (fault) => describe(fault, { value, sent });
}

function describe(
  fault: Fault,
  data:
    | { readonly value: unknown; readonly sent?: ((pointer: string) => string | undefined) | undefined }
    | undefined,
): FaultDetail {
  const params = fault.params as Record<string, unknown>;
  if (fault.keyword === 'required' && typeof params.missingProperty === 'string') {
    return { path: `${fault.instancePath}/${escapeToken(params.missingProperty)}`, message: 'is required' };
  }
  if (fault.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    return {
      path: `${fault.instancePath}/${nameText(params.additionalProperty)}`,
      message: 'is not an allowed property',
    };
  }
  const received = data === undefined ? undefined : valueAt(data.value, fault.instancePath);
  // A number a double cannot hold exactly (past 2^53, or past a double's range: Infinity) is quoted
  // as the digits sent, not as the number JSON.parse or Number made of them.
  const digits =
    typeof received === 'number' &&
    !Number.isSafeInteger(received) &&
    !(Number.isFinite(received) && received % 1 !== 0)
      ? data?.sent?.(fault.instancePath)
      : undefined;
  const got =
    received === undefined ? '' : `; got ${digits === undefined ? quoteValue(received) : quoteText(digits)}`;
  if (fault.keyword === 'enum' && Array.isArray(params.allowedValues)) {
    const allowed = params.allowedValues.map((v) => quoteValue(v)).join(', ');
    return { path: fault.instancePath, message: `must be one of ${allowed}${got}` };
  }
  return { path: fault.instancePath, message: `${fault.message ?? `fails ${fault.keyword}`}${got}` };
}

/** Prefixes every fault's path, as when a parameter's value faults are reported under `/name`. */
export function underPath(prefix: string, faults: readonly Fault[]): Fault[] {
  return faults.map((fault) => ({ ...fault, instancePath: `${prefix}${fault.instancePath}` }));
}

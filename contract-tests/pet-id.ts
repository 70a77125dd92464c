// Pet ids as the target wrote them. The document's ids are int64: past 2^53 a double cannot hold them,
// and JSON.parse rounds 9007199254740993 to …992, so the suite would ask for another pet and blame the
// target. Node 20's JSON.parse gives no access to a number's source text, so a body whose text holds an
// integer past 2^53 is read again: each `id` member's integer keeps its exact value, as a bigint. An id
// is a number when it is a safe integer and a bigint only beyond (one form per id, so === and Map keys
// hold), and is written back (paths, messages) in its exact digits.
import type { Pet as DocumentPet } from '../openapi/index.js';

/** A pet id: a safe integer as a number, an integer past 2^53 as a bigint. */
export type PetId = number | bigint;

/** A pet as the suite reads one: its id exact. */
export type Pet = Omit<DocumentPet, 'id'> & { readonly id: PetId };

export function isPetId(value: unknown): value is PetId {
  return (typeof value === 'number' && Number.isInteger(value)) || typeof value === 'bigint';
}

/** The one form of an integer: a number when safe, else a bigint. */
export function petId(value: bigint): PetId {
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(value)
    : value;
}

/**
 * A path parameter's id as sent, in its one form: from its digits when it is spelled in digits (so
 * exact past 2^53), else from what the parameter's reading gave; anything but an integer as it is.
 */
export function petIdOf(raw: string | undefined, parsed: unknown): unknown {
  if (typeof parsed !== 'number' || !Number.isInteger(parsed)) return parsed;
  // Digits, signed or not, with leading zeros or a zero fraction (the spellings a reading may admit).
  const digits = raw === undefined ? null : /^([+-]?\d{1,40})(?:\.0*)?$/.exec(raw);
  return petId(digits === null ? BigInt(parsed) : BigInt(digits[1] ?? '0'));
}

/** `a - b` for ids of either form. */
export function idDistance(a: PetId, b: PetId): bigint {
  return BigInt(a) - BigInt(b);
}

/** JSON.stringify, with a bigint written as its digits (JSON.stringify throws on one). */
export function jsonText(value: unknown): string {
  if (!containsBigint(value)) return JSON.stringify(value);
  const marks: string[] = [];
  const text = JSON.stringify(value, (_name, item: unknown) => {
    if (typeof item !== 'bigint') return item;
    marks.push(item.toString());
    return `\u0000bigint${marks.length - 1}\u0000`;
  });
  return text.replace(/"\\u0000bigint(\d+)\\u0000"/g, (_, at: string) => marks[Number(at)] ?? '');
}

function containsBigint(value: unknown): boolean {
  if (typeof value === 'bigint') return true;
  if (typeof value !== 'object' || value === null) return false;
  return Object.values(value).some(containsBigint);
}

/** What an integer past 2^53 takes in a JSON text: a run of 16 digits or more, or an exponent. */
const LONG_INTEGER = /\d{16}|\d[eE]/;

/**
 * `value` (JSON.parse of `text`) with each `id` member's integer past 2^53 exact, as a bigint; the
 * same value when the text holds none. Other members keep JSON.parse's numbers: the schema and every
 * other comparison read those.
 */
export function withExactIds(text: string, value: unknown): unknown {
  if (!LONG_INTEGER.test(text)) return value;
  const literals = integerLiterals(text);
  if (literals.length === 0) return value;
  // Each long literal in turn becomes a string, a mark naming its index, so the reviver knows its
  // digits: a mark no string of the body holds, so no string is taken for one.
  const strings = stringsOf(value);
  let tag = 0;
  while (strings.some((string) => string.includes(`\u0000petkit${tag}:`))) tag += 1;
  const mark = `\u0000petkit${tag}:`;
  let at = 0;
  let marked = '';
  literals.forEach(({ start, end }, index) => {
    marked += `${text.slice(at, start)}"\\u0000petkit${tag}:${index}"`;
    at = end;
  });
  marked += text.slice(at);
  try {
    return JSON.parse(marked, function revive(this: unknown, name: string, item: unknown) {
      if (typeof item !== 'string' || !item.startsWith(mark)) return item;
      const literal = literals[Number(item.slice(mark.length))];
      if (literal === undefined) return item;
      const exact = BigInt(literal.digits);
      return name === 'id' && !Array.isArray(this) ? petId(exact) : Number(literal.digits);
    });
  } catch {
    return value;
  }
}

/** Every string in a JSON value, member names included. */
function stringsOf(value: unknown): string[] {
  const found: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') found.push(item);
    else if (typeof item === 'object' && item !== null)
      for (const [name, member] of Object.entries(item)) {
        found.push(name);
        stack.push(member);
      }
  }
  return found;
}

/**
 * The digits of the integer a JSON number spells (`9007199254740993.0`, `9.007199254740993e15` are
 * 9007199254740993), or undefined when it spells none, or one of more than 40 digits (no int64).
 */
function integerDigits(token: string): string | undefined {
  const parts = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(token);
  if (parts === null) return undefined;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = parts;
  const shift = Number(exponent) - fraction.length;
  let digits = `${whole}${fraction}`.replace(/^0+(?=\d)/, '');
  if (shift >= 0) {
    if (digits.length + shift > 40) return undefined;
    digits = digits === '0' ? '0' : `${digits}${'0'.repeat(shift)}`;
  } else {
    const cut = digits.slice(shift);
    if (!/^0*$/.test(cut)) return undefined;
    digits = digits.slice(0, shift) || '0';
  }
  if (digits.length > 40) return undefined;
  return digits === '0' ? '0' : `${sign}${digits}`;
}

/**
 * The integer literals of a JSON text (valid: JSON.parse took it) whose value is past 2^53: where each
 * is, and its digits, however it is spelled (a zero fraction, an exponent).
 */
function integerLiterals(text: string): { start: number; end: number; digits: string }[] {
  const found: { start: number; end: number; digits: string }[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: to its closing quote, past escapes.
      i += 1;
      while (i < n && text.charCodeAt(i) !== 0x22) i += text.charCodeAt(i) === 0x5c ? 2 : 1;
      i += 1;
      continue;
    }
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      const start = i;
      i += 1;
      while (i < n && /[0-9.eE+-]/.test(text.charAt(i))) i += 1;
      const digits = integerDigits(text.slice(start, i));
      if (digits !== undefined && !Number.isSafeInteger(Number(digits)))
        found.push({ start, end: i, digits });
      continue;
    }
    i += 1;
  }
  return found;
}

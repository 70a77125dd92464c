// Where a text stops being JSON (RFC 8259, as JSON.parse reads it), for a finding to say so: JSON.parse's
// own words give no position for most faults. One pass, no recursion (a body of a million `[` is no
// deeper a stack), and only run on a body JSON.parse refused. The response checker says it of a body
// that is not JSON (response-checks.ts), for the suite and the proxy alike; nothing here is of node:*.

/** The first place the text departs from the JSON grammar. */
export interface JsonBreak {
  /** Characters (UTF-16 code units) before it. */
  readonly index: number;
  /** 1-based, as an editor counts them (LF ends a line; CR LF is one end). */
  readonly line: number;
  readonly column: number;
  /** UTF-8 bytes before it: where it is on the wire (the body decoded as UTF-8). */
  readonly byte: number;
  /** What the grammar wanted there: `a JSON value`, `, or ]`. */
  readonly expected: string;
  /** The text ended there, inside the JSON. */
  readonly ended: boolean;
}

const WHITE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const DIGIT = /[0-9]/;
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);

/** Where `text` stops being one JSON text, or undefined when it is one. */
export function jsonBreak(text: string): JsonBreak | undefined {
  const n = text.length;
  let i = 0;
  const stack: ('[' | '{')[] = [];
  const white = () => {
    while (i < n && WHITE.has(text.charCodeAt(i))) i += 1;
  };
  const fail = (expected: string): JsonBreak => at(text, i, expected);
  /** A string from its opening quote; false at its fault (i there). */
  const string = (): boolean => {
    i += 1;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i += 1;
        return true;
      }
      if (c < 0x20) return false;
      if (c === 0x5c) {
        const next = text.charAt(i + 1);
        if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
            i = Math.min(n, i + 2);
            return false;
          }
          i += 6;
          continue;
        }
        if (!ESCAPES.has(next)) {
          i = Math.min(n, i + 1);
          return false;
        }
        i += 2;
        continue;
      }
      i += 1;
    }
    return false;
  };
  /** A number; false at its fault (i there). */
  const number = (): boolean => {
    if (text.charAt(i) === '-') i += 1;
    if (text.charAt(i) === '0') i += 1;
    else if (/[1-9]/.test(text.charAt(i))) while (DIGIT.test(text.charAt(i))) i += 1;
    else return false;
    if (text.charAt(i) === '.') {
      i += 1;
      if (!DIGIT.test(text.charAt(i))) return false;
      while (DIGIT.test(text.charAt(i))) i += 1;
    }
    if (/[eE]/.test(text.charAt(i))) {
      i += 1;
      if (/[+-]/.test(text.charAt(i))) i += 1;
      if (!DIGIT.test(text.charAt(i))) return false;
      while (DIGIT.test(text.charAt(i))) i += 1;
    }
    return true;
  };
  /** After `{` or `,` in an object: a member's name and its colon. */
  const memberName = (): JsonBreak | undefined => {
    white();
    if (text.charAt(i) !== '"') return fail('a member name (a string)');
    if (!string()) return fail('the rest of a string');
    white();
    if (text.charAt(i) !== ':') return fail(':');
    i += 1;
    return undefined;
  };
  for (;;) {
    // A value.
    white();
    const c = text.charAt(i);
    let done = true;
    if (c === '{') {
      i += 1;
      white();
      if (text.charAt(i) === '}') i += 1;
      else {
        stack.push('{');
        const fault = memberName();
        if (fault !== undefined) return fault;
        done = false;
      }
    } else if (c === '[') {
      i += 1;
      white();
      if (text.charAt(i) === ']') i += 1;
      else {
        stack.push('[');
        done = false;
      }
    } else if (c === '"') {
      if (!string()) return fail('the rest of a string');
    } else if (c === '-' || DIGIT.test(c)) {
      if (!number()) return fail('the rest of a number');
    } else {
      const word = ['true', 'false', 'null'].find((literal) => literal.startsWith(c) && c !== '');
      if (word === undefined) return fail('a JSON value');
      for (const letter of word) {
        if (text.charAt(i) !== letter) return fail(`the rest of ${word}`);
        i += 1;
      }
    }
    if (!done) continue;
    // After a value: close what it ends, or a comma for the next.
    for (;;) {
      white();
      const top = stack.at(-1);
      if (top === undefined) return i === n ? undefined : fail('nothing more after the JSON value');
      const close = top === '[' ? ']' : '}';
      const next = text.charAt(i);
      if (next === close) {
        stack.pop();
        i += 1;
        continue;
      }
      if (next !== ',') return fail(`, or ${close}`);
      i += 1;
      if (top === '{') {
        const fault = memberName();
        if (fault !== undefined) return fault;
      }
      break;
    }
  }
}

function at(text: string, index: number, expected: string): JsonBreak {
  const before = text.slice(0, index);
  const lines = before.split(/\r\n|\n|\r/);
  const last = lines.at(-1) ?? '';
  return {
    index,
    line: lines.length,
    column: [...last].length + 1,
    byte: utf8Length(before),
    expected,
    ended: index >= text.length,
  };
}

/** At most `width` characters each side of `index`, with `…` where cut; never half of a surrogate pair. */
export function around(text: string, index: number, width = 24): string {
  let start = Math.max(0, index - width);
  let end = Math.min(text.length, index + width);
  if (/[\udc00-\udfff]/.test(text.charAt(start))) start += 1;
  if (/[\ud800-\udbff]/.test(text.charAt(end - 1))) end -= 1;
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}

/** UTF-8 bytes of a text, as encoding it would give (a lone surrogate is U+FFFD, 3 bytes). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && /[\udc00-\udfff]/.test(text.charAt(i + 1))) {
      bytes += 4;
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Where a response's body stops being JSON, as a finding says it: the place in the body as it came,
 * the decoded body's size in bytes, and a few characters around the place of the body as it may be
 * shown (the key hidden).
 */
export interface BodyBreak {
  readonly line: number;
  readonly column: number;
  readonly byte: number;
  readonly expected: string;
  readonly ended: boolean;
  readonly bodyBytes: number;
  readonly excerpt: string;
}

/**
 * Where `body` stops being JSON, or undefined when it is JSON (or empty). The place is read in `body`
 * as it came; the excerpt is taken from `shown`, the same body with any key hidden in it whole, around
 * where that breaks, so no part of a key is cut into view at its edge. `bodyBytes`: its size as
 * received, decoded (default: `body` in UTF-8).
 */
export function bodyBreak(body: string, shown = body, bodyBytes = utf8Length(body)): BodyBreak | undefined {
  if (body === '') return undefined;
  const broken = jsonBreak(body);
  if (broken === undefined) return undefined;
  const there = shown === body ? broken : jsonBreak(shown);
  return {
    line: broken.line,
    column: broken.column,
    byte: broken.byte,
    expected: broken.expected,
    ended: broken.ended,
    bodyBytes,
    excerpt: there === undefined ? '' : around(shown, there.index),
  };
}

/**
 * Where a body that is not JSON breaks, in words after "the body is not JSON (…)": at a byte, line and
 * column, what was due there, and the body around it; a body that ends inside the JSON where its
 * Content-Length ends it is said to be cut there. `headers`: the response's, lower-case names.
 */
export function whereItBreaks(broken: BodyBreak, headers: Readonly<Record<string, string>>): string {
  const place = `byte ${broken.byte} (line ${broken.line}, column ${broken.column})`;
  const shown = broken.excerpt === '' ? '' : `: ${JSON.stringify(broken.excerpt)}`;
  if (!broken.ended) return `it breaks at ${place}, where ${broken.expected} was due${shown}`;
  const length = headers['content-length'];
  // Content-Length counts the bytes as sent: with a content coding, not those of the decoded body.
  const framed =
    length !== undefined &&
    headers['content-encoding'] === undefined &&
    length.trim() === String(broken.bodyBytes) &&
    broken.byte === broken.bodyBytes;
  if (framed)
    return `it ends inside the JSON, where its Content-Length: ${length.trim()} ends it (${broken.expected} was due), cut there, as by a Content-Length shorter than the body sent; its end${shown}`;
  return `it ends inside the JSON, at ${place} (${broken.expected} was due); its end${shown}`;
}

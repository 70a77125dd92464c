// Reads a JSON file's text (a keys file, a fixtures file) and, when it is not valid JSON, says where
// and what, by line and column: never V8's message, which quotes the file's contents (a keys file's
// contents are secrets). JSON.parse reads the value (it reads any depth without recursing); only when
// it refuses does jsonc-parser's scanner find the fault, token by token with a stack of our own:
// jsonc-parser's own parse recurses per level, and a file nested 20,000 deep overflowed the stack.
import { createRequire } from 'node:module';
import type { JSONScanner } from 'jsonc-parser';
import { lineAndColumn, repeatedNameFault } from './json-names.js';

/**
 * jsonc-parser, loaded only when a file is not valid JSON: loading it took a tenth of the mock's
 * start-up, for a scanner that only a broken file needs.
 */
const scannerOf = (text: string): JSONScanner =>
  (createRequire(import.meta.url)('jsonc-parser') as typeof import('jsonc-parser')).createScanner(
    text,
    false,
  );

export type JsonRead = { readonly value: unknown } | { readonly fault: string };

// jsonc-parser's SyntaxKind and ScanError are const enums, which isolatedModules cannot read: their values.
const OPEN_BRACE = 1;
const CLOSE_BRACE = 2;
const OPEN_BRACKET = 3;
const CLOSE_BRACKET = 4;
const COMMA = 5;
const COLON = 6;
/** null, true and false are 7 to 9, then a string (10) and a number (11): the scalars. */
const FIRST_SCALAR = 7;
const STRING = 10;
const NUMBER = 11;
const LINE_COMMENT = 12;
const BLOCK_COMMENT = 13;
const LINE_BREAK = 14;
const TRIVIA = 15;
const UNKNOWN = 16;
const EOF = 17;

/** Each of the scanner's errors (ScanError), in words. */
const SCAN_ERRORS: Readonly<Record<number, string>> = {
  1: 'a comment, which JSON does not allow',
  2: 'a string that is not closed',
  3: 'a number cut short',
  4: 'a malformed \\u escape',
  5: 'a malformed escape',
  6: 'a control character in a string',
};

/** What the text may have next, where it is. */
type Expecting = 'value' | 'value or ]' | 'name' | 'name or }' | 'colon' | ', or ]' | ', or }' | 'end';

interface ParseFault {
  readonly offset: number;
  readonly what: string;
}

/** The next token that is not whitespace, or the fault of a token JSON does not allow. */
function nextToken(scanner: JSONScanner): number | ParseFault {
  for (;;) {
    const token = scanner.scan();
    const offset = scanner.getTokenOffset();
    const error = SCAN_ERRORS[scanner.getTokenError()];
    if (error !== undefined) return { offset, what: error };
    if (token === LINE_COMMENT || token === BLOCK_COMMENT) {
      return { offset, what: 'a comment, which JSON does not allow' };
    }
    if (token === UNKNOWN) return { offset, what: 'an unexpected character' };
    if (token === NUMBER && Number.isNaN(Number(scanner.getTokenValue()))) {
      return { offset, what: 'a malformed number' };
    }
    if (token !== LINE_BREAK && token !== TRIVIA) return token;
  }
}

/** What is wrong at a token that does not fit what was expected (the end, or the other closer, closes too soon). */
function misfit(expecting: Expecting, token: number): string {
  switch (expecting) {
    case 'value':
      return 'a value was expected';
    case 'value or ]':
      return token === EOF || token === CLOSE_BRACE ? 'a closing ] was expected' : 'a value was expected';
    case 'name':
    case 'name or }':
      return token === EOF || token === CLOSE_BRACKET
        ? 'a closing } was expected'
        : 'a property name in double quotes was expected';
    case 'colon':
      return 'a colon was expected';
    case ', or ]':
      return token === EOF || token === CLOSE_BRACE ? 'a closing ] was expected' : 'a comma was expected';
    case ', or }':
      return token === EOF || token === CLOSE_BRACKET ? 'a closing } was expected' : 'a comma was expected';
    case 'end':
      return 'the end of the file was expected';
  }
}

/**
 * The first place `text` departs from JSON, read token by token; undefined if it does not. The
 * containers open at each point are a stack of our own, so any depth costs memory, not the call stack.
 */
function firstFault(text: string): ParseFault | undefined {
  const scanner = scannerOf(text);
  /** The containers open, innermost last: `}` or `]`, what closes each. */
  const open: string[] = [];
  let expecting: Expecting = 'value';
  /** After a value: what the innermost container (or the end) takes next. */
  const afterValue = (): Expecting => {
    const closing = open.at(-1);
    return closing === undefined ? 'end' : closing === ']' ? ', or ]' : ', or }';
  };
  for (;;) {
    const token = nextToken(scanner);
    if (typeof token !== 'number') return token;
    const offset = scanner.getTokenOffset();
    const isValue = expecting === 'value' || expecting === 'value or ]';
    if (isValue && token === OPEN_BRACKET) {
      open.push(']');
      expecting = 'value or ]';
    } else if (isValue && token === OPEN_BRACE) {
      open.push('}');
      expecting = 'name or }';
    } else if (isValue && token >= FIRST_SCALAR && token <= NUMBER) {
      expecting = afterValue();
    } else if (
      (expecting === 'value or ]' && token === CLOSE_BRACKET) ||
      (expecting === 'name or }' && token === CLOSE_BRACE) ||
      (expecting === ', or ]' && token === CLOSE_BRACKET) ||
      (expecting === ', or }' && token === CLOSE_BRACE)
    ) {
      open.pop();
      expecting = afterValue();
    } else if (expecting === ', or ]' && token === COMMA) {
      expecting = 'value';
    } else if (expecting === ', or }' && token === COMMA) {
      expecting = 'name';
    } else if ((expecting === 'name' || expecting === 'name or }') && token === STRING) {
      expecting = 'colon';
    } else if (expecting === 'colon' && token === COLON) {
      expecting = 'value';
    } else if (expecting === 'end' && token === EOF) {
      return undefined;
    } else {
      return { offset, what: misfit(expecting, token) };
    }
  }
}

function describe(text: string, fault: ParseFault): string {
  const at = lineAndColumn(text, fault.offset);
  const closing = text[fault.offset];
  const previous = text.slice(0, fault.offset).trimEnd().at(-1);
  if (previous === ',' && (closing === '}' || closing === ']')) {
    return `is not valid JSON at ${at}: a trailing comma before ${closing}`;
  }
  if (closing === "'") return `is not valid JSON at ${at}: a single quote (JSON takes double quotes)`;
  return `is not valid JSON at ${at}: ${fault.what}`;
}

/**
 * The value of a JSON text, or a one-line fault (`is not valid JSON at line 3, column 5: …`). A
 * leading byte-order mark (an editor's UTF-8 "with BOM") is skipped, as a request body's is.
 */
export function readJsonText(given: string): JsonRead {
  const text = given.charCodeAt(0) === 0xfeff ? given.slice(1) : given;
  if (text.trim() === '') return { fault: 'is empty' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // V8's message quotes the text: find the fault ourselves.
    const fault = firstFault(text);
    return { fault: fault === undefined ? 'is not valid JSON' : describe(text, fault) };
  }
  // JSON.parse keeps the last of two members of one name: a keys file's second "keys" array (two
  // files pasted together) served the second alone, without a word.
  const twice = repeatedNameFault(text);
  return twice === undefined ? { value } : { fault: twice };
}

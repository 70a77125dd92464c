// Reads a JSON file's text (a keys file, a fixtures file) and, when it is not valid JSON, says where
// and what, by line and column: never V8's message, which quotes the file's contents (a keys file's
// contents are secrets). jsonc-parser finds the fault; JSON.parse then reads the value strictly.
import { type ParseError, parse, printParseErrorCode } from 'jsonc-parser';

export type JsonRead = { readonly value: unknown } | { readonly fault: string };

/** Each of jsonc-parser's error codes, by name, in words. */
const EXPECTED: Readonly<Record<string, string>> = {
  InvalidSymbol: 'an unexpected character',
  InvalidNumberFormat: 'a malformed number',
  PropertyNameExpected: 'a property name in double quotes was expected',
  ValueExpected: 'a value was expected',
  ColonExpected: 'a colon was expected',
  CommaExpected: 'a comma was expected',
  CloseBraceExpected: 'a closing } was expected',
  CloseBracketExpected: 'a closing ] was expected',
  EndOfFileExpected: 'the end of the file was expected',
  InvalidCommentToken: 'a comment, which JSON does not allow',
  UnexpectedEndOfComment: 'a comment, which JSON does not allow',
  UnexpectedEndOfString: 'a string that is not closed',
  UnexpectedEndOfNumber: 'a number cut short',
  InvalidUnicode: 'a malformed \\u escape',
  InvalidEscapeCharacter: 'a malformed escape',
  InvalidCharacter: 'a control character in a string',
};

/** 1-based line and column of an offset. */
function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - (before.lastIndexOf('\n') + 1) + 1;
  return `line ${line}, column ${column}`;
}

function describe(text: string, error: ParseError): string {
  const at = lineAndColumn(text, error.offset);
  const closing = text[error.offset];
  const previous = text.slice(0, error.offset).trimEnd().at(-1);
  if (previous === ',' && (closing === '}' || closing === ']')) {
    return `is not valid JSON at ${at}: a trailing comma before ${closing}`;
  }
  if (closing === "'") return `is not valid JSON at ${at}: a single quote (JSON takes double quotes)`;
  return `is not valid JSON at ${at}: ${EXPECTED[printParseErrorCode(error.error)] ?? 'an unexpected character'}`;
}

/** The value of a JSON text, or a one-line fault (`is not valid JSON at line 3, column 5: …`). */
export function readJsonText(text: string): JsonRead {
  if (text.trim() === '') return { fault: 'is empty' };
  const errors: ParseError[] = [];
  parse(text, errors, { allowTrailingComma: false, disallowComments: true, allowEmptyContent: false });
  const [first] = errors;
  if (first !== undefined) return { fault: describe(text, first) };
  try {
    return { value: JSON.parse(text) };
  } catch {
    return { fault: 'is not valid JSON' };
  }
}

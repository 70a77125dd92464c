// Whether the API key can travel as it was given, in `Authorization: Bearer <key>`. A header field
// carries no CR, LF, NUL or other control character (RFC 9110 §5.5), fetch drops white space around a
// value and a bearer token holds none (RFC 6750 §2.1), and a header field is bytes while a bearer token
// is ASCII: a key holding any of these would not reach the server as given, so the run refuses it at
// start. Other visible ASCII (`|`, `:`, quotes) travels as it is, though RFC 6750's b64token has none
// of it: keys such as Laravel Sanctum's `1|…` are sent as bearer tokens all the same.

/** The longest key the suite sends: servers commonly refuse a header section past 8 KiB. */
export const MAX_API_KEY_LENGTH = 8192;

/** Characters a reader cannot see, named by code point (naming them gives no part of a key away). */
const INVISIBLE = /^[\p{Cc}\p{Cf}\p{Z}]$/u;

/** What the character is, in words that do not show it unless it is invisible anyway. */
function describe(char: string): { what: string; why: string } {
  const code = char.codePointAt(0) ?? 0;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  const header = 'a header field cannot carry it (RFC 9110 §5.5)';
  if (char === '\n') return { what: 'a line break (LF)', why: header };
  if (char === '\r') return { what: 'a carriage return (CR)', why: header };
  if (char === '\0') return { what: `a NUL (${hex})`, why: header };
  const space =
    'a bearer token holds no white space (RFC 6750 §2.1): around it a server drops it, inside it reads another token (RFC 9110 §5.5)';
  if (char === '\t') return { what: 'a tab', why: space };
  if (char === ' ') return { what: 'a space', why: space };
  if (code < 0x20 || code === 0x7f) return { what: `a control character (${hex})`, why: header };
  const bytes =
    'a header field is sent as bytes, not text (RFC 9110 §5.5), and a bearer token is ASCII (RFC 6750 §2.1)';
  if (INVISIBLE.test(char)) return { what: `an invisible character (${hex})`, why: bytes };
  return { what: 'a non-ASCII character', why: bytes };
}

/**
 * Why the key cannot be sent as it is, in words that never show it (which character, where); undefined
 * when it can.
 */
export function apiKeyFault(key: string): string | undefined {
  const chars = [...key];
  if (key.length > MAX_API_KEY_LENGTH) {
    return (
      `The API key is ${chars.length} characters long: the suite sends at most ${MAX_API_KEY_LENGTH} ` +
      '(servers commonly refuse a header section past 8 KiB). The key is not shown: is it the key?'
    );
  }
  const at = chars.findIndex((char) => {
    const code = char.codePointAt(0) ?? 0;
    return code <= 0x20 || code >= 0x7f;
  });
  if (at === -1) return undefined;
  const { what, why } = describe(chars[at] ?? '');
  const last = at === chars.length - 1 && chars.length > 1;
  const hint =
    last && (chars[at] === '\r' || chars[at] === '\n')
      ? ' (read from a file with Windows line endings, or with its line break?)'
      : '';
  return (
    `The API key holds ${what} at position ${at + 1}${last ? ', its last character' : ''}${hint}: ${why}. ` +
    'The key is not shown; check how it was pasted or quoted.'
  );
}

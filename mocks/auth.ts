// Reads the bearer key and finds it among the configured keys in time that depends only on the
// token's own length and the number of keys: no early exit, no length leak, no node:crypto (the core
// also runs in the browser, under MSW's setupWorker).
import { MAX_KEY_LENGTH, type ResolvedKey } from './keys.js';

export type Authentication =
  | { readonly kind: 'ok'; readonly key: ResolvedKey }
  | {
      readonly kind: 'missing';
      /**
       * What came in place of `Bearer <key>`, for the 401's message (never the credentials): an
       * Authorization header with no scheme, another scheme, or Bearer with nothing after it.
       */
      readonly sent?: string;
    }
  | { readonly kind: 'invalid' }
  /**
   * More than one credential: Authorization sent on two lines (a runtime joins them, `a, b`, as a
   * Web Request does), or two in one value. Which was meant is unknown (RFC 6750 §3.1: a request
   * that uses more than one method for including an access token is `invalid_request`, 400).
   */
  | { readonly kind: 'repeated'; readonly count: number };

const MISSING: Authentication = { kind: 'missing' };
/** An auth-scheme as RFC 9110 spells one (a token), short enough to quote. */
const SCHEME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,20}$/;
const INVALID: Authentication = { kind: 'invalid' };

/**
 * Compares a candidate with a secret. The loop runs over the candidate (the caller's input, whose
 * length the caller knows anyway) and folds the length difference into the result.
 */
export function safeEqual(candidate: string, secret: string): boolean {
  let diff = candidate.length ^ secret.length;
  const n = secret.length;
  for (let i = 0; i < candidate.length; i += 1) {
    diff |= candidate.charCodeAt(i) ^ secret.charCodeAt(i % n);
  }
  return diff === 0;
}

/** The key of an `Authorization: Bearer <key>` header (scheme case-insensitive), checked against all keys. */
export function authenticate(header: string | null, keys: readonly ResolvedKey[]): Authentication {
  if (header === null) return MISSING;
  const read = authenticateOne(header, keys);
  // A comma is in no key and no scheme (a token68 has none): two credentials were read as one, and
  // refused as a wrong key (`Bearer demo-free, Bearer demo-pro`) or as what came first. Rare: the
  // comma is looked for only once the header failed.
  if (read.kind === 'ok' || !header.includes(',')) return read;
  const count = credentialsIn(header);
  return count > 1 ? { kind: 'repeated', count } : read;
}

/**
 * How many credentials a header value holds, its parts between commas read as RFC 9110 §11.4 has
 * them: each that begins with a scheme, or a bare value, is one; a scheme's parameter
 * (`realm="x"`, a name then `=`) and an empty part are not.
 */
function credentialsIn(header: string): number {
  let count = 0;
  for (const part of header.split(',')) {
    const value = part.trim();
    if (value !== '' && !AUTH_PARAM.test(value)) count += 1;
  }
  return count;
}

/** An auth-param (RFC 9110 §11.2): a token, `=`, then a value. */
const AUTH_PARAM = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+[ \t]*=/;

function authenticateOne(header: string, keys: readonly ResolvedKey[]): Authentication {
  const space = header.indexOf(' ');
  if (space !== 6 || (!header.startsWith('Bearer') && header.slice(0, 6).toLowerCase() !== 'bearer'))
    return { kind: 'missing', sent: sentInstead(header, keys) };
  // RFC 9110 §11.4: 1*SP, then the token whole; a tab is neither (runtimes trim the field's own OWS).
  const token = header.charCodeAt(7) === 32 ? header.slice(7).replace(/^ +/, '') : header.slice(7);
  if (token.length === 0) return { kind: 'missing', sent: 'the Bearer scheme with no key after it' };
  if (token.length > MAX_KEY_LENGTH) return INVALID;
  let found: ResolvedKey | undefined;
  for (const key of keys) {
    if (safeEqual(token, key.key)) found = key;
  }
  return found === undefined ? INVALID : { kind: 'ok', key: found };
}

/** What an Authorization header that is not `Bearer <key>` holds, in words that quote no credentials. */
function sentInstead(header: string, keys: readonly ResolvedKey[]): string {
  const value = header.trim();
  if (value === '') return 'an empty Authorization header';
  if (value.toLowerCase() === 'bearer') return 'the Bearer scheme with no key after it';
  const space = value.search(/\s/);
  if (space < 0) return 'an Authorization header with no scheme (a bare value)';
  const scheme = value.slice(0, space);
  // Bearer itself, then white space that is not a space (1*SP: RFC 9110 §11.4): "the Bearer scheme" alone said nothing.
  if (scheme.toLowerCase() === 'bearer')
    return `the ${scheme} scheme followed by ${value[space] === '\t' ? 'a tab' : 'white space other than a space'}, where a space goes`;
  if (!SCHEME.test(scheme)) return 'an Authorization header with no scheme';
  // A key in the scheme's place (`<key> Bearer`) is a credential all the same: said, never quoted.
  return keys.some((key) => safeEqual(scheme, key.key))
    ? 'an API key where the scheme goes'
    : `the ${scheme} scheme`;
}

// Reads the bearer key and finds it among the configured keys in time that depends only on the
// token's own length and the number of keys: no early exit, no length leak, no node:crypto (the core
// also runs in the browser, under MSW's setupWorker).
import { MAX_KEY_LENGTH, type ResolvedKey } from './keys.js';

export type Authentication =
  | { readonly kind: 'ok'; readonly key: ResolvedKey }
  | { readonly kind: 'missing' }
  | { readonly kind: 'invalid' };

const MISSING: Authentication = { kind: 'missing' };
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
  const space = header.indexOf(' ');
  if (space !== 6 || header.slice(0, 6).toLowerCase() !== 'bearer') return MISSING;
  const token = header.slice(7).trim();
  if (token.length === 0) return MISSING;
  if (token.length > MAX_KEY_LENGTH) return INVALID;
  let found: ResolvedKey | undefined;
  for (const key of keys) {
    if (safeEqual(token, key.key)) found = key;
  }
  return found === undefined ? INVALID : { kind: 'ok', key: found };
}

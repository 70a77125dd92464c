// A curl line that replays a request against the upstream, in POSIX sh. The credential is the word
// credential.ts writes (the user's key as `$API_KEY`, never printed); the only other headers kept are
// those that change the answer (Content-Type, Accept but for curl's own `*/*`, Prefer).
import { type KeyBook, type ReplayWord, shellWord } from './credential.js';

const KEPT = ['content-type', 'accept', 'prefer'];
/** Longest body written into the line; a longer one is cut, and the line says so. */
const MAX_BODY = 2000;

export function curlLine(
  method: string,
  url: string,
  headers: Readonly<Record<string, string | string[] | undefined>>,
  body: string,
  authorization: ReplayWord | undefined,
  keys: KeyBook,
): string {
  // Every word but the credential's may hold a key too (a query's `?token=`, a body): made from $API_KEY.
  const quote = (text: string) => shellWord(text, keys);
  const parts = ['curl -i'];
  const notes: string[] = [];
  if (method !== 'GET') parts.push(`-X ${method}`);
  if (authorization !== undefined) {
    parts.push(`${authorization.flag ?? '-H'} ${authorization.word}`);
    if (authorization.note !== undefined) notes.push(authorization.note);
  }
  for (const name of KEPT) {
    const value = headers[name];
    if (name === 'accept' && value === '*/*') continue; // curl's own default
    if (value !== undefined)
      parts.push(`-H ${quote(`${name}: ${Array.isArray(value) ? value.join(', ') : value}`)}`);
  }
  if (body !== '') {
    parts.push(`--data-binary ${quote(body.length > MAX_BODY ? body.slice(0, MAX_BODY) : body)}`);
    if (body.length > MAX_BODY) notes.push(`body cut at ${MAX_BODY} characters`);
  }
  parts.push(quote(url));
  const line = parts.join(' ');
  return notes.length === 0 ? line : `${line}  # ${notes.join('; ')}`;
}

// The Authorization of a replayed request, as a POSIX sh word that reproduces what was sent without
// printing the user's key. The proxy knows a key when it is told it (`apiKey`, PETKIT_API_KEY) or when
// the upstream accepts it (a 2xx answer). Each run of four or more characters of a known key in the
// credential, its case changed or not, is written from `$API_KEY` (cut with `${API_KEY%?}` and
// `${API_KEY#?}`, case changed with `tr`); what is left is shown as sent, and holds no such run. A
// credential with no known key in it is shown as sent only when the upstream refused it (401, 403) and the
// proxy was told the key (so it could tell it is not derived from it); refused and not told, a
// stand-in the upstream refuses the same way is written in its place; otherwise `$API_KEY`.
// Every other text of an exchange (its target, a finding's expected and received, an excerpt of a
// body, what is said of an upstream that failed) goes through exchangeHider: there no credential the
// app sent is shown, whatever the upstream did with it (echoed it encoded, escaped, in base64) and
// whether or not the proxy was told the key. Where a key stands in a text is the contract module's
// answer (openapi/key-search.ts), the one the suite's redaction gives.

import { base64Cores, keyRuns } from '../openapi/key-search.js';

/** The fewest characters of a key, in a row, that are written from `$API_KEY` rather than shown. */
export const MIN_KEY_RUN = 4;
/**
 * The fewest characters in a row of a credential sent that the proxy knows as no key (refused, or not
 * yet accepted) that are hidden: such a credential may be anything the app has (`wrong-pets-key`), and
 * with runs of four the `pets` of `/v1/pets` went too, in the exchange's line and in the curl line
 * meant to replay it. Eight still hides an echo cut short or case-changed; a shorter credential is
 * hidden where it stands whole.
 */
export const MIN_SENT_RUN = 8;
/** The most keys learnt from the upstream's 2xx answers; past it no more are learnt. */
export const MAX_LEARNT_KEYS = 64;
/** What a refused credential becomes when the proxy cannot tell whether it is derived from a key. */
export const STAND_IN = 'not-the-key-sent';

export interface KeyBook {
  /** Whether the user told the proxy their key. */
  readonly told: boolean;
  /** The keys known: the one told, then those the upstream accepted. Never printed. */
  readonly keys: () => readonly string[];
  /** The upstream answered `status` to a request with this Authorization: a 2xx teaches its token. */
  learn(authorization: string, status: number): void;
}

export function createKeyBook(told: string | undefined): KeyBook {
  const keys = told === undefined || told === '' ? [] : [told];
  const limit = keys.length + MAX_LEARNT_KEYS;
  return {
    told: keys.length > 0,
    keys: () => keys,
    learn(authorization, status) {
      const { token } = partsOf(authorization);
      if (status < 200 || status > 299 || token === '' || keys.includes(token)) return;
      if (keys.length < limit) keys.push(token);
    },
  };
}

/** The header as a shell word, and a note for the line when it is a stand-in. */
export interface ReplayWord {
  readonly word: string;
  readonly note?: string;
  /** curl's flag for the word: `-H` (a header), or `-u` (a Basic credential's `user:password`). */
  readonly flag?: '-H' | '-u';
}

/** A Basic credential's `user:password`, decoded, or undefined for any other. */
function basicPair(value: string): string | undefined {
  const { scheme, token } = partsOf(value);
  if (!/^basic$/i.test(scheme) || token === '') return undefined;
  const pair = Buffer.from(token, 'base64').toString('utf8');
  return pair.includes(':') ? pair : undefined;
}

/** `Bearer abc` → scheme `Bearer`, token `abc`; a value of one word is all token. */
function partsOf(value: string): { scheme: string; token: string } {
  const split = /^(\S+)\s+(.*)$/s.exec(value.trim());
  return split === null
    ? { scheme: '', token: value.trim() }
    : { scheme: split[1] ?? '', token: (split[2] ?? '').trim() };
}

export function replayAuthorization(value: string, status: number, book: KeyBook): ReplayWord {
  return replayed(value, status, book).word;
}

/** How the replay line writes a credential: made from known keys, as sent, a stand-in, or `$API_KEY` whole. */
type Written = 'derived' | 'as-sent' | 'stand-in' | 'key';

function replayed(value: string, status: number, book: KeyBook): { word: ReplayWord; written: Written } {
  const basic = basicPair(value);
  if (basic !== undefined && book.keys().length > 0) {
    // A known key as a Basic password: its base64 shown as sent is the key, to anyone who decodes it.
    // curl makes that base64 itself from `-u user:password`, so the line gives `-u` the pair.
    const pair = piecesOf(basic, book.keys());
    if (pair.some((piece) => typeof piece !== 'string'))
      return { word: { word: doubleQuoted(pair), flag: '-u' }, written: 'derived' };
  }
  const pieces = piecesOf(value, book.keys());
  if (pieces.some((piece) => typeof piece !== 'string'))
    return { word: { word: doubleQuoted(['Authorization: ', ...pieces]) }, written: 'derived' };
  const { scheme, token } = partsOf(value);
  if (status === 401 || status === 403) {
    if (book.told || token === '' || (scheme === '' && /^(bearer|basic)$/i.test(token))) {
      return { word: { word: singleQuoted(`Authorization: ${value}`) }, written: 'as-sent' };
    }
    return {
      word: {
        word: singleQuoted(`Authorization: ${scheme === '' ? STAND_IN : `${scheme} ${STAND_IN}`}`),
        note: 'the refused credential is not shown: give petkit proxy your key (PETKIT_API_KEY) to see it as sent',
      },
      written: 'stand-in',
    };
  }
  const prefix = scheme === '' ? '' : `${scheme} `;
  return {
    word: { word: doubleQuoted(['Authorization: ', prefix, { key: '', from: 0, to: 0, mode: 'whole' }]) },
    written: 'key',
  };
}

/** A replay line's credential, and what its other words (the URL, a body) write of it. */
export interface Replay {
  readonly authorization: ReplayWord | undefined;
  /** The keys its words are made from `$API_KEY` with (curl.ts's shellWord). */
  readonly keys: KeyBook;
  /** A URL or body with the credential sent written as the Authorization word writes it, before quoting. */
  readonly text: (text: string) => string;
}

/**
 * The replay of a request with this Authorization (or none): the credential sent stands the same way
 * wherever the line has it. Written `$API_KEY`, a run of it in the URL or a body is made from
 * `$API_KEY` too; written as a stand-in, each run of it there is the stand-in (the upstream refuses
 * that as well); shown as sent, it is shown there as sent. A token shorter than MIN_KEY_RUN is left.
 */
export function replayOf(value: string | undefined, status: number, book: KeyBook): Replay {
  const same = (text: string) => text;
  if (value === undefined) return { authorization: undefined, keys: book, text: same };
  const { word, written } = replayed(value, status, book);
  const { token } = partsOf(value);
  if (token.length < MIN_KEY_RUN || written === 'derived' || written === 'as-sent')
    return { authorization: word, keys: book, text: same };
  if (written === 'key') {
    const keys = [...book.keys(), token];
    return { authorization: word, keys: { ...book, keys: () => keys }, text: same };
  }
  const standIn = (text: string) => {
    let shown = '';
    let previous: Piece | undefined;
    for (const piece of piecesOf(text, [token], sentRun, true)) {
      if (typeof piece === 'string') shown += piece;
      else if (typeof previous === 'string' || previous === undefined) shown += STAND_IN;
      previous = piece;
    }
    return shown;
  };
  return { authorization: word, keys: book, text: standIn };
}

type Mode = 'exact' | 'upper' | 'lower' | 'whole';
/** A slice of a known key (`from` to `to`), its case changed as `mode` says; `whole` is the key itself. */
interface KeyPiece {
  readonly key: string;
  readonly from: number;
  readonly to: number;
  readonly mode: Mode;
}
type Piece = string | KeyPiece;

const upper = (c: string) => (c >= 'a' && c <= 'z' ? c.toUpperCase() : c);
const lower = (c: string) => (c >= 'A' && c <= 'Z' ? c.toLowerCase() : c);

/**
 * The credential cut into text shown as sent and runs of known keys, leftmost-longest first, as the
 * contract module finds them (openapi/key-search.ts, the suite's own reading): linear in the text, so a
 * body of a megabyte is cut in milliseconds (it took 6 to 18 s, a run sought at every character, while
 * the proxy answered nobody). With `decode`, a run sent percent-encoded, JSON- or HTML-escaped or with
 * NULs between its characters (UTF-16, UTF-32) is one too, as its decoded characters.
 */
function piecesOf(
  value: string,
  keys: readonly string[],
  leastOf: (key: string) => number = (key) => Math.min(MIN_KEY_RUN, key.length),
  decode = false,
): Piece[] {
  const pieces: Piece[] = [];
  let shown = 0; // where the text not yet in a piece starts
  const sought = keys.map((key) => ({ key, least: leastOf(key) }));
  for (const run of keyRuns(value, sought, { decode })) {
    if (run.start > shown) pieces.push(value.slice(shown, run.start));
    pieces.push(...keyPieces(run.seen, keys[run.index] as string, run.from));
    shown = run.end;
  }
  if (shown < value.length) pieces.push(value.slice(shown));
  return pieces;
}

/** A run of `key` from `from` as sent: split where its case changes from exact to upper or lower. */
function keyPieces(sent: string, key: string, from: number): KeyPiece[] {
  const slice = key.slice(from, from + sent.length);
  // One transform for the whole run reads best: `tr A-Z a-z` over the key rather than three pieces.
  for (const [mode, change] of [
    ['exact', (text: string) => text],
    ['upper', (text: string) => [...text].map(upper).join('')],
    ['lower', (text: string) => [...text].map(lower).join('')],
  ] as const) {
    if (change(slice) === sent) return [{ key, from, to: from + sent.length, mode }];
  }
  const pieces: KeyPiece[] = [];
  let start = 0;
  let mode: Mode | undefined;
  const close = (end: number) => {
    if (mode !== undefined) pieces.push({ key, from: from + start, to: from + end, mode });
  };
  for (let c = 0; c < sent.length; c += 1) {
    const s = sent[c] as string;
    const k = key[from + c] as string;
    const fits = (m: Mode) => (m === 'exact' ? s === k : m === 'upper' ? s === upper(k) : s === lower(k));
    if (mode !== undefined && fits(mode)) continue;
    close(c);
    start = c;
    mode = fits('exact') ? 'exact' : fits('upper') ? 'upper' : 'lower';
  }
  close(sent.length);
  return pieces;
}

/** The shell expression of a slice of `$API_KEY`, character by character (`?`), never by byte. */
function sliceOf({ key, from, to, mode }: KeyPiece): { text: string; name: boolean } {
  if (mode === 'whole') return { text: '$API_KEY', name: true };
  const head = '?'.repeat(from);
  const tail = '?'.repeat(key.length - to);
  let expression: string;
  if (head === '' && tail === '') expression = '$API_KEY';
  else if (head === '') expression = `\${API_KEY%${tail}}`;
  else if (tail === '') expression = `\${API_KEY#${head}}`;
  else expression = `$(k=\${API_KEY#${head}}; printf %s "\${k%${tail}}")`;
  if (mode === 'exact') return { text: expression, name: expression === '$API_KEY' };
  const tr = mode === 'upper' ? 'tr a-z A-Z' : 'tr A-Z a-z';
  return { text: `$(printf %s "${expression}" | ${tr})`, name: false };
}

/**
 * Pieces in one double-quoted word. Text is escaped for double quotes (`\`, `"`, `$`, backquote), and
 * `!` is written in single quotes (an interactive bash expands it within double quotes).
 */
function doubleQuoted(pieces: readonly Piece[]): string {
  let word = '';
  pieces.forEach((piece, index) => {
    if (typeof piece === 'string') {
      word += piece.replace(/[\\"$`]/g, '\\$&').replaceAll('!', `"'!'"`);
      return;
    }
    const { text, name } = sliceOf(piece);
    const following = pieces[index + 1];
    // `$API_KEY` then a name character would read as a longer variable's name.
    const braced = name && typeof following === 'string' && /^[A-Za-z0-9_]/.test(following);
    word += braced ? `\${API_KEY}` : text;
  });
  return `"${word}"`;
}

/** Single quotes for a POSIX shell: each inner one closed, escaped and reopened. */
export const singleQuoted = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

/** What a run of a credential the app sent, and the proxy knows as no key, is written as in a text. */
export const CREDENTIAL_HIDDEN = '<credential sent>';
/** What the base64 of a key the proxy knows is written as in a text. */
export const BASE64_KEY = '[API_KEY, base64]';
/** The request headers whose values are credentials: never shown, whatever the upstream said of them. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization']);

/**
 * The credentials the app sent in one request: the token of each Authorization line (every line of
 * `rawHeaders`, not only the one Node keeps), and a Basic one's `user:password` and password as
 * decoded, since an upstream may echo either. The empty ones and a bare scheme name are not secrets.
 */
export function sentCredentials(rawHeaders: readonly string[]): string[] {
  const sent = new Set<string>();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (!CREDENTIAL_HEADERS.has((rawHeaders[i] as string).toLowerCase())) continue;
    const { scheme, token } = partsOf(rawHeaders[i + 1] as string);
    if (token === '' || (scheme === '' && /^(bearer|basic)$/i.test(token))) continue;
    sent.add(token);
    if (/^basic$/i.test(scheme)) {
      const pair = Buffer.from(token, 'base64').toString('utf8');
      const password = pair.slice(pair.indexOf(':') + 1);
      if (pair.includes(':') && password !== '') sent.add(pair).add(password);
    }
  }
  return [...sent];
}

/** How many characters in a row of a credential sent, known as no key, are hidden: MIN_SENT_RUN, or all of a shorter one. */
const sentRun = (token: string): number => Math.min(MIN_SENT_RUN, token.length);

/**
 * Characters a token is made of (RFC 6750's b64token: `=` only at its end, so `?k=x1` has x1 whole): a
 * short credential is hidden only where none stands before it or after it.
 */
const TOKEN_BEFORE = '[A-Za-z0-9._~+/\\-]';
const TOKEN_AFTER = '[A-Za-z0-9._~+/=\\-]';

/**
 * What the proxy may print or keep of one exchange, as `text` with every credential the app sent in it
 * hidden (`sent`, from sentCredentials), whether or not the upstream accepted it and whether or not
 * the proxy was told the key: each run of MIN_KEY_RUN or more of a known key's characters is written
 * as the shell expression that makes it from `$API_KEY`, each run of MIN_SENT_RUN (or all) of a credential sent that is no key it knows as
 * CREDENTIAL_HIDDEN (it may be a key of another environment, or one the proxy has not seen), in any
 * case, in UTF-16 or UTF-32 too (read with its NULs left out). A credential shorter than MIN_KEY_RUN is hidden where it stands whole, so `Bearer 1` does not
 * hide the 1 of `/v1`. The keys are read at each call, so a key the upstream accepts since is written
 * `$API_KEY`. Made once for each exchange (proxy.ts): every text of it goes through it.
 */
export function exchangeHider(book: KeyBook, sent: readonly string[]): (text: string) => string {
  const short = sent.filter((token) => token.length < MIN_KEY_RUN);
  const long = sent.filter((token) => token.length >= MIN_KEY_RUN);
  const shortPattern =
    short.length === 0
      ? undefined
      : new RegExp(
          `(?<!${TOKEN_BEFORE})(?:${short.map((token) => token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?!${TOKEN_AFTER})`,
          'gi',
        );
  const hideIn = (text: string): string => {
    const known = book.keys();
    const secrets = [...known, ...long.filter((token) => !known.includes(token))];
    let shown = text;
    if (secrets.length > 0 && shown !== '') {
      const least = (key: string) => (known.includes(key) ? Math.min(MIN_KEY_RUN, key.length) : sentRun(key));
      const pass = (from: string, decode: boolean) => {
        // A run whose case changes comes in several pieces: one CREDENTIAL_HIDDEN stands for them all.
        let previous: Piece | undefined;
        let out = '';
        for (const piece of piecesOf(from, secrets, least, decode)) {
          if (typeof piece === 'string') out += piece;
          else if (known.includes(piece.key)) out += sliceOf(piece).text;
          else if (typeof previous === 'string' || previous === undefined || known.includes(previous.key))
            out += CREDENTIAL_HIDDEN;
          previous = piece;
        }
        return out;
      };
      // Read decoded, as the suite reads it: an upstream that echoes the credential in a query it built
      // (sk%5Flive…), in JSON (\u0073k_live…) or in HTML (&#115;k_live…) echoes it all the same. A
      // text with no escape is read as it is. Then as it is, for a key that itself holds a % or a \.
      shown = pass(text, true);
      if (secrets.some((secret) => /[%\\&]/.test(secret))) shown = pass(shown, false);
      // And in base64, wherever it starts in a stream: a Basic credential echoed, a token wrapping it.
      for (const secret of secrets) {
        const marker = known.includes(secret) ? BASE64_KEY : CREDENTIAL_HIDDEN;
        for (const core of base64Cores(secret)) shown = shown.replaceAll(core, marker);
      }
    }
    return shortPattern === undefined ? shown : shown.replace(shortPattern, CREDENTIAL_HIDDEN);
  };
  return (text) => {
    // A body in UTF-16 or UTF-32, read as UTF-8, has a NUL beside each ASCII character of an echoed
    // key (s\u0000k\u0000_…, which a reader reads as sk_…): a key holds none, so it is looked for
    // with them left out, and where it is found the text is shown without them.
    if (text.includes('\u0000')) {
      const bare = text.replaceAll('\u0000', '');
      const hidden = hideIn(bare);
      if (hidden !== bare) return hidden;
    }
    return hideIn(text);
  };
}

/** `text` as one POSIX sh word: single-quoted, or double-quoted with known keys made from `$API_KEY`. */
export function shellWord(text: string, book: KeyBook): string {
  const keys = book.keys();
  const pieces = keys.length === 0 ? [text] : piecesOf(text, keys, undefined, true);
  return pieces.every((piece) => typeof piece === 'string') ? singleQuoted(text) : doubleQuoted(pieces);
}

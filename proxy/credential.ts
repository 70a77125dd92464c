// The Authorization of a replayed request, as a POSIX sh word that reproduces what was sent without
// printing the user's key. The proxy knows a key when it is told it (`apiKey`, PETKIT_API_KEY) or when
// the upstream accepts it (a 2xx answer). Each run of four or more characters of a known key in the
// credential, its case changed or not, is written from `$API_KEY` (cut with `${API_KEY%?}` and
// `${API_KEY#?}`, case changed with `tr`); what is left is shown as sent, and holds no such run. A
// credential with no known key in it is shown as sent only when the upstream refused it (401, 403) and the
// proxy was told the key (so it could tell it is not derived from it); refused and not told, a
// stand-in the upstream refuses the same way is written in its place; otherwise `$API_KEY`.

/** The fewest characters of a key, in a row, that are written from `$API_KEY` rather than shown. */
export const MIN_KEY_RUN = 4;
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
}

/** `Bearer abc` → scheme `Bearer`, token `abc`; a value of one word is all token. */
function partsOf(value: string): { scheme: string; token: string } {
  const split = /^(\S+)\s+(.*)$/s.exec(value.trim());
  return split === null
    ? { scheme: '', token: value.trim() }
    : { scheme: split[1] ?? '', token: (split[2] ?? '').trim() };
}

export function replayAuthorization(value: string, status: number, book: KeyBook): ReplayWord {
  const pieces = piecesOf(value, book.keys());
  if (pieces.some((piece) => typeof piece !== 'string'))
    return { word: doubleQuoted(['Authorization: ', ...pieces]) };
  const { scheme, token } = partsOf(value);
  if (status === 401 || status === 403) {
    if (book.told || token === '' || (scheme === '' && /^(bearer|basic)$/i.test(token))) {
      return { word: singleQuoted(`Authorization: ${value}`) };
    }
    return {
      word: singleQuoted(`Authorization: ${scheme === '' ? STAND_IN : `${scheme} ${STAND_IN}`}`),
      note: 'the refused credential is not shown: give petkit proxy your key (PETKIT_API_KEY) to see it as sent',
    };
  }
  const prefix = scheme === '' ? '' : `${scheme} `;
  return { word: doubleQuoted(['Authorization: ', prefix, { key: '', from: 0, to: 0, mode: 'whole' }]) };
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
/** Whether `sent` is `key`'s character as one of the shell's transforms (`tr` maps ASCII only) leaves it. */
const same = (sent: string, key: string) => sent === key || sent === upper(key) || sent === lower(key);

/** The credential cut into text shown as sent and runs of known keys, leftmost-longest first. */
function piecesOf(value: string, keys: readonly string[]): Piece[] {
  // best[p]: the longest run of a key starting at value[p], and where in which key it starts.
  const best = Array.from({ length: value.length }, () => ({ length: 0, key: '', from: 0 }));
  for (const key of keys) {
    let next = new Array<number>(key.length + 1).fill(0);
    for (let p = value.length - 1; p >= 0; p -= 1) {
      const row = new Array<number>(key.length + 1).fill(0);
      for (let i = key.length - 1; i >= 0; i -= 1) {
        if (!same(value[p] as string, key[i] as string)) continue;
        const length = 1 + (next[i + 1] ?? 0);
        row[i] = length;
        const here = best[p];
        if (here !== undefined && length > here.length) Object.assign(here, { length, key, from: i });
      }
      next = row;
    }
  }
  const pieces: Piece[] = [];
  let text = '';
  for (let p = 0; p < value.length; ) {
    const run = best[p];
    if (run === undefined || run.length < Math.min(MIN_KEY_RUN, run.key.length) || run.length === 0) {
      text += value[p];
      p += 1;
      continue;
    }
    if (text !== '') pieces.push(text);
    text = '';
    pieces.push(...keyPieces(value.slice(p, p + run.length), run.key, run.from));
    p += run.length;
  }
  if (text !== '') pieces.push(text);
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

/**
 * Text for a line or the journal with every run of a known key in it (any case, MIN_KEY_RUN or more
 * characters) written as the shell expression that makes it from `$API_KEY`: a request target with
 * `?token=…`, or a checker's message quoting what an upstream echoed.
 */
export function hideKeys(text: string, book: KeyBook): string {
  const keys = book.keys();
  if (keys.length === 0 || text === '') return text;
  const pieces = piecesOf(text, keys);
  return pieces.map((piece) => (typeof piece === 'string' ? piece : sliceOf(piece).text)).join('');
}

/** `text` as one POSIX sh word: single-quoted, or double-quoted with known keys made from `$API_KEY`. */
export function shellWord(text: string, book: KeyBook): string {
  const keys = book.keys();
  const pieces = keys.length === 0 ? [text] : piecesOf(text, keys);
  return pieces.every((piece) => typeof piece === 'string') ? singleQuoted(text) : doubleQuoted(pieces);
}

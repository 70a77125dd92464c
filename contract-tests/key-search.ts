// Where a key appears in a text, for redaction.ts: the text decoded one level (percent-escapes, JSON
// and HTML escapes; NULs left out), then read once along a suffix automaton of the key, case aside, for every stretch
// of it at least so long. Linear in the text, whatever the key: a 4 MiB body is read in milliseconds.
// A text that holds none of a few short pieces of the key, which every such stretch contains, is not read
// along the automaton at all (stretchFinder): so a large body without the key costs a few indexOf.

const lowerCode = (code: number) => (code >= 65 && code <= 90 ? code + 32 : code);

/**
 * The text with percent-escapes, JSON escapes (`\uXXXX`, `\/`, `\"`, `\\`) and HTML character
 * references decoded, one level, NULs left out, and where in the text each decoded character came from.
 */
export interface View {
  readonly text: string;
  /** The source offset of each character (null: the view is the text itself). */
  readonly from: readonly number[] | null;
  readonly to: readonly number[] | null;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeAt(text: string, i: number): [string, number] | undefined {
  const c = text[i];
  if (c === '%') {
    const hex = text.slice(i + 1, i + 3);
    return /^[0-9a-fA-F]{2}$/.test(hex) ? [String.fromCharCode(Number.parseInt(hex, 16)), 3] : undefined;
  }
  if (c === '\\') {
    const next = text[i + 1];
    if (next === '/' || next === '"' || next === '\\') return [next, 2];
    const hex = next === 'u' ? text.slice(i + 2, i + 6) : '';
    return /^[0-9a-fA-F]{4}$/.test(hex) ? [String.fromCharCode(Number.parseInt(hex, 16)), 6] : undefined;
  }
  if (c === '&') {
    const match = /^&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|(amp|lt|gt|quot|apos));/.exec(
      text.slice(i, i + 12),
    );
    if (match === null) return undefined;
    const code =
      match[1] !== undefined ? Number(match[1]) : match[2] !== undefined ? Number.parseInt(match[2], 16) : -1;
    const char =
      code >= 0
        ? code <= 0x10ffff
          ? String.fromCodePoint(code)
          : '\uFFFD'
        : (ENTITIES[match[3] ?? ''] ?? '');
    return [char.length === 1 ? char : '\uFFFD', match[0].length];
  }
  return undefined;
}

export function decodedView(text: string): View {
  // Four indexOf, not /[%\\&\0]/: a character class is tried at each character, several times slower.
  if (
    text.indexOf('%') === -1 &&
    text.indexOf('\\') === -1 &&
    text.indexOf('&') === -1 &&
    text.indexOf('\0') === -1
  )
    return { text, from: null, to: null };
  const chars: string[] = [];
  const from: number[] = [];
  const to: number[] = [];
  for (let i = 0; i < text.length; ) {
    const [char, length] = decodeAt(text, i) ?? [text[i] ?? '', 1];
    // A NUL (raw, or decoded from an escape) is left out of the view: a key holds none (api-key.ts),
    // and a body in UTF-16 or UTF-32, read as UTF-8, has one beside each ASCII character of the key.
    // The stretch around such NULs is the key `encoded`, its NULs hidden with it.
    if (char !== '\0') {
      chars.push(char);
      from.push(i);
      to.push(i + length);
    }
    i += length;
  }
  return { text: chars.join(''), from, to };
}

/**
 * A suffix automaton of the key, lower-cased: read along a text, it gives at each position the longest
 * stretch ending there that is somewhere in the key, in time linear in the text.
 */
export interface Automaton {
  readonly next: Map<number, number>[];
  readonly link: number[];
  readonly length: number[];
}

export function automatonOf(pattern: string): Automaton {
  const next: Map<number, number>[] = [new Map()];
  const link = [-1];
  const length = [0];
  let last = 0;
  for (let i = 0; i < pattern.length; i += 1) {
    const c = pattern.charCodeAt(i);
    const cur = next.length;
    next.push(new Map());
    length.push((length[last] ?? 0) + 1);
    link.push(0);
    let p = last;
    while (p !== -1 && !next[p]?.has(c)) {
      next[p]?.set(c, cur);
      p = link[p] ?? -1;
    }
    if (p !== -1) {
      const q = next[p]?.get(c) ?? 0;
      if ((length[p] ?? 0) + 1 === length[q]) link[cur] = q;
      else {
        const clone = next.length;
        next.push(new Map(next[q]));
        length.push((length[p] ?? 0) + 1);
        link.push(link[q] ?? 0);
        while (p !== -1 && next[p]?.get(c) === q) {
          next[p]?.set(c, clone);
          p = link[p] ?? -1;
        }
        link[q] = clone;
        link[cur] = clone;
      }
    }
    last = cur;
  }
  return { next, link, length };
}

/** The stretches of a text, at least `shortest` long, found in the key (case aside), overlapping ones joined. */
export function stretches(text: string, automaton: Automaton, shortest: number): [number, number][] {
  const { next, link, length } = automaton;
  const found: [number, number][] = [];
  const emit = (start: number, end: number) => {
    const previous = found[found.length - 1];
    if (previous !== undefined && start < previous[1]) previous[1] = Math.max(previous[1], end);
    else found.push([start, end]);
  };
  let state = 0;
  /** The longest stretch of the key ending just before i. */
  let run = 0;
  for (let i = 0; i <= text.length; i += 1) {
    let now = 0;
    if (i < text.length) {
      const c = lowerCode(text.charCodeAt(i));
      let matched = run;
      while (state !== 0 && !next[state]?.has(c)) {
        state = link[state] ?? 0;
        matched = length[state] ?? 0;
      }
      const to = next[state]?.get(c);
      state = to ?? 0;
      now = to === undefined ? 0 : matched + 1;
    }
    // The stretch that ended at i - 1 goes no further: it is one of the key's, if long enough.
    if (run >= shortest && now !== run + 1) emit(i - run, i);
    run = now;
  }
  return found;
}

/**
 * Pieces of the key (lower-cased) such that every stretch of it at least `shortest` long holds one
 * whole: pieces of ⌈shortest / 2⌉ characters, starting every shortest − ⌈shortest / 2⌉ + 1 characters,
 * and the key's last piece. A stretch from a to a + shortest holds the first piece starting at a or
 * after, which ends by a + shortest; the last piece serves the stretches at the key's end.
 */
export function anchorsOf(pattern: string, shortest: number): string[] {
  const size = Math.ceil(shortest / 2);
  const step = shortest - size + 1;
  const anchors = new Set<string>();
  for (let at = 0; at < pattern.length - size; at += step) anchors.add(pattern.slice(at, at + size));
  anchors.add(pattern.slice(Math.max(0, pattern.length - size)));
  return [...anchors];
}

/** A key of visible ASCII, as the run requires (api-key.ts): its pieces are found in a lower-cased text. */
const VISIBLE_ASCII = /^[\x21-\x7e]*$/;

/**
 * The stretches of a text, at least `shortest` long, found in `pattern` (lower-cased) case aside, as
 * `stretches` finds them. A text whose lower-cased form holds none of the pattern's anchors holds no such
 * stretch, and is not read further: a stretch's characters are ASCII (the pattern is), which
 * toLowerCase lowers as the automaton does, and keep their places side by side whatever else in the text
 * toLowerCase lengthens. A pattern that is not visible ASCII is always read along the automaton.
 */
export function stretchFinder(pattern: string, shortest: number): (text: string) => [number, number][] {
  const automaton = automatonOf(pattern);
  const anchors = VISIBLE_ASCII.test(pattern) ? anchorsOf(pattern, shortest) : null;
  return (text) => {
    if (anchors !== null) {
      const lower = text.toLowerCase();
      if (!anchors.some((anchor) => lower.includes(anchor))) return [];
    }
    return stretches(text, automaton, shortest);
  };
}

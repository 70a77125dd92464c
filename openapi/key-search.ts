// Where a key appears in a text: the one answer the contract suite (contract-tests/redaction.ts) and
// petkit proxy (proxy/credential.ts) both give, so that a form of the key one of them hides the other
// does not print. The text decoded one level (percent-escapes, JSON and HTML escapes; NULs left out),
// then read once along a suffix automaton of the key, case aside, for every stretch of it at least so
// long. Linear in the text, whatever the key: a 4 MiB body is read in milliseconds. A text that holds
// none of a few short pieces of the key, which every such stretch contains, is not read along the
// automaton at all (stretchFinder): so a large body without the key costs a few indexOf. keyRuns cuts
// those stretches into runs of several keys at once, leftmost-longest, each with its place in its key
// (what the proxy writes as a slice of $API_KEY); base64Cores gives the key's base64 wherever it starts
// in a stream (an echo of a Basic credential, a token that wraps the key).

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
export function stretchFinder(
  pattern: string,
  shortest: number,
): (text: string, lowered?: string) => [number, number][] {
  const automaton = automatonOf(pattern);
  const anchors = VISIBLE_ASCII.test(pattern) ? anchorsOf(pattern, shortest) : null;
  // `lowered`: the text's toLowerCase(), when the caller seeks several keys in one text.
  return (text, lowered) => {
    if (anchors !== null) {
      const lower = lowered ?? text.toLowerCase();
      if (!anchors.some((anchor) => lower.includes(anchor))) return [];
    }
    return stretches(text, automaton, shortest);
  };
}

/** A key sought by keyRuns: runs of it at least `least` characters long are found. */
export interface KeySought {
  readonly key: string;
  readonly least: number;
}

/** A run of one key in a text, as keyRuns finds it. */
export interface KeyRun {
  /** Where it stands in the text (an escape or a NUL within it included). */
  readonly start: number;
  readonly end: number;
  /** Which key of those sought. */
  readonly index: number;
  /** Where in that key it starts. */
  readonly from: number;
  /** The run as read, decoded: a slice of the key, case aside. */
  readonly seen: string;
  /** Whether the text holds it encoded (an escape, NULs), not as `seen`. */
  readonly encoded: boolean;
}

const foldAscii = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

interface Sought {
  readonly folded: string;
  readonly find: (text: string, lowered?: string) => [number, number][];
  /** Where each character stands in the folded key: a run is sought only from those places. */
  readonly starts: Map<string, number[]>;
}

/** The automata of the keys sought lately: a proxy asks for the same few keys at every text. */
const soughtCache = new Map<string, Sought>();
const SOUGHT_CACHE_SIZE = 256;
const SOUGHT_CACHED_LENGTH = 512;

function soughtOf(key: string, least: number): Sought {
  const id = `${least}:${key}`;
  const cached = soughtCache.get(id);
  if (cached !== undefined) return cached;
  const folded = foldAscii(key);
  const starts = new Map<string, number[]>();
  for (let i = 0; i < folded.length; i += 1) {
    const at = folded[i] as string;
    const places = starts.get(at);
    if (places === undefined) starts.set(at, [i]);
    else places.push(i);
  }
  const sought = { folded, find: stretchFinder(folded, least), starts };
  // A long credential (an app may send 16 KB of one) is not kept: 256 of them would hold megabytes.
  if (key.length > SOUGHT_CACHED_LENGTH) return sought;
  if (soughtCache.size >= SOUGHT_CACHE_SIZE) soughtCache.clear();
  soughtCache.set(id, sought);
  return sought;
}

/**
 * The runs of several keys in a text, case aside (ASCII letters: what `tr` changes), each at least its
 * key's `least` long, leftmost-longest and not overlapping: of one key, the longest run from a place,
 * the last place in the key on a tie; of keys, the first's on a tie. With `decode`, the text is read
 * as decodedView reads it (an escape, a NUL within a run is part of it). Only the stretches the
 * automata find are cut into runs: a text with no stretch of any key costs what stretchFinder costs.
 */
export function keyRuns(
  text: string,
  keys: readonly KeySought[],
  options: { readonly decode?: boolean } = {},
): KeyRun[] {
  const view: View = options.decode === true ? decodedView(text) : { text, from: null, to: null };
  const read = view.text;
  // Once for every key's anchors, not once a key: a proxy may know 65 keys, a body be a megabyte.
  let lowered: string | undefined;
  const live: { index: number; least: number; sought: Sought }[] = [];
  const regions: [number, number][] = [];
  keys.forEach(({ key, least }, index) => {
    if (key === '' || least < 1) return;
    const sought = soughtOf(key, least);
    lowered ??= read.toLowerCase();
    const found = sought.find(read, lowered);
    if (found.length === 0) return;
    live.push({ index, least, sought });
    regions.push(...found);
  });
  if (live.length === 0) return [];
  const lower = foldAscii(read);
  regions.sort((a, b) => a[0] - b[0]);
  const runs: KeyRun[] = [];
  let p = 0;
  for (const [regionStart, regionEnd] of regions) {
    for (p = Math.max(p, regionStart); p < regionEnd; ) {
      let length = 0;
      let index = -1;
      let from = 0;
      for (const candidate of live) {
        const { folded, starts } = candidate.sought;
        let mine = 0;
        let mineFrom = 0;
        for (const at of starts.get(lower[p] as string) ?? []) {
          let run = 1;
          while (at + run < folded.length && lower[p + run] === folded[at + run]) run += 1;
          if (run >= candidate.least && run >= mine) {
            mine = run;
            mineFrom = at;
          }
        }
        if (mine > length) {
          length = mine;
          index = candidate.index;
          from = mineFrom;
        }
      }
      if (length === 0) {
        p += 1;
        continue;
      }
      const start = view.from?.[p] ?? p;
      const end = view.to?.[p + length - 1] ?? p + length;
      runs.push({
        start,
        end,
        index,
        from,
        seen: read.slice(p, p + length),
        encoded: end - start !== length,
      });
      p += length;
    }
  }
  return runs;
}

/**
 * The base64 of a key wherever it starts in a base64 stream (a Basic credential, a token wrapping
 * it): for each of the three offsets, the characters that encode only the key's bytes, and the same in
 * base64url; those of 8 characters or more. A key beyond Latin-1 has none here.
 */
export function base64Cores(key: string): string[] {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a byte range, not a control to type
  if (!/^[\x00-\xff]*$/.test(key)) return [];
  const cores = new Set<string>();
  for (const offset of [0, 1, 2]) {
    const encoded = btoa('\u0000'.repeat(offset) + key);
    const core = encoded.slice(offset === 0 ? 0 : offset + 1, Math.floor(((offset + key.length) * 8) / 6));
    if (core.length >= 8) {
      cores.add(core);
      cores.add(core.replaceAll('+', '-').replaceAll('/', '_'));
    }
  }
  return [...cores];
}

// Keeps the API key out of everything the suite records or prints, in every form a user could pass or
// a server could echo: whole or a long part of it (at least half, and at least 8 characters of a longer
// key), in any case, percent-encoded, JSON- or HTML-escaped; whole in base64, or in hex (its bytes as
// lower- or upper-case hex digits, the key in any of its four cases). A key shorter than 8 characters
// is hidden whole, where it stands alone (not inside a longer word).
//
// Not the key spelled out with separators between its characters (`s-e-c-r-e-t…`): such spellings
// have no end (any separator, after every character or every few), each one found would be another
// pass over every body, and a text without separators would then match where it should not.
// Every form is found in time linear in the text: one pass of an automaton (key-search.ts), and
// indexOf for each of a few fixed strings (the base64 and hex of the whole key).
//
// Two renderings. What the suite sent is replayed as curl, so there each form of the user's key is a
// POSIX sh expansion of $API_KEY that gives back exactly what was sent (`$API_KEY`, its case changed
// with `tr`, a part with `cut`); what came back (and any message) only has to be read, so there each
// form is a marker: `$API_KEY` for the key as it is, `[API_KEY, upper-cased]`, `[part of API_KEY]`…
// Markers hold no quote or backslash, so a JSON body stays JSON.
import { MAX_API_KEY_LENGTH } from './api-key.js';
import { base64Cores, decodedView, stretchFinder } from './key-search.js';

export interface Redactor {
  /** For a request the suite sent: each form of the key as a sh expansion of $API_KEY (toCurl expands them). */
  request(text: string): string;
  /** For a response, an error, a message: each form of the key as a marker. */
  response(text: string): string;
}

type Case = 'exact' | 'lower' | 'upper' | 'swapped' | 'mixed';

/** `${API_KEY}`, the shell's spelling where a name character follows (written so to be no template). */
export const BRACED_KEY = ['$', '{API_KEY}'].join('');

/** One stretch of a text that is a form of the key. */
interface Found {
  readonly start: number;
  readonly end: number;
  readonly form:
    | { readonly kind: 'whole'; readonly case: Case; readonly encoded: boolean }
    /** `at`: where in the key (-1 when the stretch joins pieces of it). */
    | {
        readonly kind: 'part';
        readonly case: Case;
        readonly encoded: boolean;
        readonly at: number;
        readonly length: number;
      }
    | { readonly kind: 'base64' }
    | { readonly kind: 'hex' };
}

const TR: Record<Exclude<Case, 'exact' | 'mixed'>, string> = {
  swapped: 'LC_ALL=C tr a-zA-Z A-Za-z',
  lower: 'LC_ALL=C tr A-Z a-z',
  upper: 'LC_ALL=C tr a-z A-Z',
};
const CASE_WORDS: Record<Exclude<Case, 'exact'>, string> = {
  swapped: 'case swapped',
  lower: 'lower-cased',
  upper: 'upper-cased',
  mixed: 'case changed',
};

const lowerAscii = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());
const upperAscii = (text: string) => text.replace(/[a-z]/g, (c) => c.toUpperCase());
/** The key with the case of every ASCII letter changed: what auth_enforced sends to see the key compared exactly. */
export const swapCase = (text: string) =>
  text.replace(/[a-zA-Z]/g, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));

function caseOf(found: string, original: string): Case {
  if (found === original) return 'exact';
  if (found === lowerAscii(original)) return 'lower';
  if (found === upperAscii(original)) return 'upper';
  if (found === swapCase(original)) return 'swapped';
  return 'mixed';
}

/** A character a bearer token may hold (RFC 6750 b64token): what a short key must not touch to be hidden. */
const TOKEN_CHAR = /^[A-Za-z0-9\-._~+/]$/;

/** The shortest part of the key that is redacted: half of it, and at least 8 characters (the whole of a shorter key). */
export function shortestPart(length: number): number {
  return Math.max(Math.min(length, 8), Math.ceil(length / 2));
}

/**
 * The hex of the key, its bytes in lower- and in upper-case digits, for the key as it is and in the
 * other cases a server could have made of it (a key of 4 characters or more: 8 digits at least).
 */
function hexForms(key: string): string[] {
  if (key.length < 4) return [];
  const forms = new Set<string>();
  for (const form of [key, lowerAscii(key), upperAscii(key), swapCase(key)]) {
    const hex = Buffer.from(form, 'latin1').toString('hex');
    forms.add(hex);
    forms.add(hex.toUpperCase());
  }
  return [...forms];
}

export function createRedactor(key: string): Redactor {
  if (key === '') return { request: (text) => text, response: (text) => text };
  // A key the suite refuses anyway (options.ts) is only hidden where it is whole, at no cost.
  if (key.length > MAX_API_KEY_LENGTH) {
    const hide = (text: string) => text.split(key).join('$API_KEY');
    return { request: hide, response: hide };
  }
  const lowerKey = lowerAscii(key);
  const shortest = shortestPart(key.length);
  const stretches = stretchFinder(lowerKey, shortest);
  const cores = base64Cores(key);
  const hexes = hexForms(key);

  const find = (text: string): Found[] => {
    const view = decodedView(text);
    const found: Found[] = [];
    for (const [start, end] of stretches(view.text)) {
      // A short key is hidden where it stands alone: inside a longer word (`k` in `petkit`) it says nothing.
      if (
        key.length < 8 &&
        (TOKEN_CHAR.test(view.text[start - 1] ?? '') || TOKEN_CHAR.test(view.text[end] ?? ''))
      )
        continue;
      const source = [view.from?.[start] ?? start, view.to?.[end - 1] ?? end] as const;
      const seen = view.text.slice(start, end);
      const encoded = source[1] - source[0] !== end - start;
      if (seen.length === key.length && lowerAscii(seen) === lowerKey) {
        found.push({
          start: source[0],
          end: source[1],
          form: { kind: 'whole', case: caseOf(seen, key), encoded },
        });
      } else {
        const at = lowerKey.indexOf(lowerAscii(seen));
        const kase = at === -1 ? 'mixed' : caseOf(seen, key.slice(at, at + seen.length));
        found.push({
          start: source[0],
          end: source[1],
          form: { kind: 'part', case: kase, encoded, at, length: seen.length },
        });
      }
    }
    for (const core of cores) {
      for (let at = text.indexOf(core); at !== -1; at = text.indexOf(core, at + 1)) {
        found.push({ start: at, end: at + core.length, form: { kind: 'base64' } });
      }
    }
    for (const hex of hexes) {
      for (let at = text.indexOf(hex); at !== -1; at = text.indexOf(hex, at + 1)) {
        found.push({ start: at, end: at + hex.length, form: { kind: 'hex' } });
      }
    }
    found.sort((a, b) => a.start - b.start);
    // Stretches that overlap (a base64 core across a part of the key) are hidden as one part.
    const joined: Found[] = [];
    for (const item of found) {
      const previous = joined[joined.length - 1];
      if (previous !== undefined && item.start < previous.end) {
        joined[joined.length - 1] = {
          start: previous.start,
          end: Math.max(previous.end, item.end),
          form: { kind: 'part', case: 'mixed', encoded: true, at: -1, length: 0 },
        };
      } else joined.push(item);
    }
    return joined;
  };

  const marker = (form: Found['form']): string => {
    if (form.kind === 'base64') return '[API_KEY, base64]';
    if (form.kind === 'hex') return '[API_KEY, hex]';
    if (form.kind === 'part') return '[part of API_KEY]';
    if (form.encoded) return '[API_KEY, encoded]';
    return form.case === 'exact' ? '$API_KEY' : `[API_KEY, ${CASE_WORDS[form.case]}]`;
  };
  const expansion = (form: Found['form']): string => {
    if (form.kind === 'base64' || form.kind === 'hex' || form.encoded || form.case === 'mixed')
      return marker(form);
    const steps: string[] = [];
    if (form.kind === 'part') {
      if (form.at === -1) return marker(form);
      steps.push(`cut -c ${form.at + 1}-${form.at + form.length}`);
    }
    if (form.case !== 'exact') steps.push(TR[form.case]);
    return steps.length === 0 ? '$API_KEY' : `$(printf %s "$API_KEY" | ${steps.join(' | ')})`;
  };

  const rewrite = (text: string, render: (form: Found['form']) => string): string => {
    if (text.length < Math.min(shortest, 8)) return text;
    const found = find(text);
    if (found.length === 0) return text;
    const pieces: string[] = [];
    let at = 0;
    for (const item of found) {
      pieces.push(text.slice(at, item.start), render(item.form));
      at = item.end;
    }
    pieces.push(text.slice(at));
    // `$API_KEYx` would be the variable API_KEYx: braces where a name character follows. The
    // rendered pieces are the odd ones.
    for (let i = pieces.length - 2; i >= 1; i -= 2) {
      const after = `${pieces[i + 1] ?? ''}${pieces[i + 2] ?? ''}`;
      if (pieces[i] === '$API_KEY' && /^[A-Za-z0-9_]/.test(after)) pieces[i] = BRACED_KEY;
    }
    return pieces.join('');
  };

  return {
    request: (text) => rewrite(text, expansion),
    response: (text) => rewrite(text, marker),
  };
}

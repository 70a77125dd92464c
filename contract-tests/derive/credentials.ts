// Credentials derived from the user's key by class, not kept as a list: the spellings of a valid
// `Authorization: Bearer <key>` that RFC 9110 §11.4 and RFC 6750 §2.1 allow (the scheme in any case,
// one or more SP before the key), and near-misses of the key (a prefix, an extension, a change of case,
// a one-character edit at the first, middle and last position, white space where none belongs), each a
// 401 under openapi.yaml's bearerAuth decision. A near-miss is never printed: `shell` writes it from
// $API_KEY, as text that POSIX sh expands inside double quotes (`Bearer ${API_KEY}x`).

export type CredentialKind = 'scheme' | 'prefix' | 'extension' | 'case' | 'edit' | 'whitespace';

export interface DerivedCredential {
  /** The Authorization header's value made of the key. */
  readonly header: (key: string) => string;
  /** Whether a server that keeps the contract accepts it as the key. */
  readonly valid: boolean;
  readonly kind: CredentialKind;
  /** In a few words that show no part of the key: `the key with its last character removed`. */
  readonly what: string;
  /** The header value as text POSIX sh expands inside double quotes, from $API_KEY only. */
  readonly shell: string;
  /** 0: one of its class runs in a default run; 1: only when more is asked for. */
  readonly tier: 0 | 1;
}

/** `${API_KEY}`, the shell's spelling where a name character may follow (written so to be no template). */
const KEY = ['$', '{API_KEY}'].join('');
/** Characters 1-based `from` to `to` of the key (to the end when `to` is omitted). */
const cut = (from: number, to?: number) =>
  `$(printf %s "$API_KEY" | cut -c ${from}-${to === undefined ? '' : to})`;
/** Everything before 1-based position `p`, as shell text (nothing for p = 1). */
const before = (p: number) => (p > 1 ? cut(1, p - 1) : '');
const TAB = "$(printf '\\t')";
/** `${API_KEY%?}`: the key without its last character. */
const WITHOUT_LAST = ['$', '{API_KEY%?}'].join('');

const flip = (c: string) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase());
const isLetter = (c: string) => /^[A-Za-z]$/.test(c);
/** A character that is not `c` and that a bearer token may hold, to substitute or insert. */
const other = (c: string | undefined) => (c === 'x' ? 'y' : 'x');

const valid = (what: string, scheme: string, spaces: number, tier: 0 | 1): DerivedCredential => ({
  header: (key) => `${scheme}${' '.repeat(spaces)}${key}`,
  valid: true,
  kind: 'scheme',
  what,
  shell: `${scheme}${' '.repeat(spaces)}${KEY}`,
  tier,
});

const near = (
  kind: CredentialKind,
  what: string,
  make: (key: string) => string,
  shell: string,
  tier: 0 | 1,
): DerivedCredential => ({
  header: (key) => `Bearer ${make(key)}`,
  valid: false,
  kind,
  what,
  shell: `Bearer ${shell}`,
  tier,
});

/** One-character edits at 1-based position p: delete, substitute, transpose with the next, insert. */
function editsAt(key: string, p: number, where: string, tier: 0 | 1): DerivedCredential[] {
  const n = key.length;
  const c = key[p - 1];
  const sub = other(c);
  const rest = (from: number) => (from <= n ? cut(from) : '');
  const edits: DerivedCredential[] = [
    near(
      'edit',
      `the key with its ${where} character removed`,
      (k) => k.slice(0, p - 1) + k.slice(p),
      p === n ? WITHOUT_LAST : `${before(p)}${rest(p + 1)}`,
      tier,
    ),
    near(
      'edit',
      `the key with its ${where} character replaced`,
      (k) => `${k.slice(0, p - 1)}${other(k[p - 1])}${k.slice(p)}`,
      `${before(p)}${sub}${rest(p + 1)}`,
      1,
    ),
    near(
      'edit',
      `the key with a character inserted before its ${where}`,
      (k) => `${k.slice(0, p - 1)}${other(k[p - 1])}${k.slice(p - 1)}`,
      `${before(p)}${sub}${rest(p)}`,
      1,
    ),
  ];
  if (p < n && key[p - 1] !== key[p]) {
    edits.push(
      near(
        'edit',
        `the key with its ${where} character swapped with the next`,
        (k) => `${k.slice(0, p - 1)}${k[p]}${k[p - 1]}${k.slice(p + 1)}`,
        `${before(p)}${cut(p + 1, p + 1)}${cut(p, p)}${rest(p + 2)}`,
        1,
      ),
    );
  }
  return edits;
}

/** Changes of case, each only where it changes the key (RFC 6750: the key is compared exactly). */
function caseFlips(key: string): DerivedCredential[] {
  const flips: DerivedCredential[] = [];
  const upper = key.replace(/[a-z]/g, (c) => c.toUpperCase());
  const lower = key.replace(/[A-Z]/g, (c) => c.toLowerCase());
  const swapped = key.replace(/[a-zA-Z]/g, flip);
  const tr = (from: string, to: string) => `$(printf %s "$API_KEY" | LC_ALL=C tr ${from} ${to})`;
  if (swapped !== key) {
    flips.push(
      near(
        'case',
        'the key with the case of its letters swapped',
        (k) => k.replace(/[a-zA-Z]/g, flip),
        tr('a-zA-Z', 'A-Za-z'),
        0,
      ),
    );
  }
  if (upper !== key && upper !== swapped) {
    flips.push(
      near(
        'case',
        'the key upper-cased',
        (k) => k.replace(/[a-z]/g, (c) => c.toUpperCase()),
        tr('a-z', 'A-Z'),
        1,
      ),
    );
  }
  if (lower !== key && lower !== swapped) {
    flips.push(
      near(
        'case',
        'the key lower-cased',
        (k) => k.replace(/[A-Z]/g, (c) => c.toLowerCase()),
        tr('A-Z', 'a-z'),
        1,
      ),
    );
  }
  const first = [...key].findIndex(isLetter);
  if (first >= 0 && key.replace(/[a-zA-Z]/g, '').length + 1 < key.length) {
    // Only one letter changed, where the key has more than one (else it is the swap above).
    const p = first + 1;
    flips.push(
      near(
        'case',
        'the key with the case of its first letter changed',
        (k) => `${k.slice(0, p - 1)}${flip(k[p - 1] ?? '')}${k.slice(p)}`,
        `${before(p)}$(printf %s "$API_KEY" | cut -c ${p}-${p} | LC_ALL=C tr a-zA-Z A-Za-z)${cut(p + 1)}`,
        1,
      ),
    );
  }
  return flips;
}

/**
 * Every derived credential for `key`, valid spellings first. Near-misses that would equal the key, or
 * each other, are dropped: each one sent is a distinct wrong key.
 */
export function credentialSpellings(key: string): DerivedCredential[] {
  const n = key.length;
  const middle = Math.ceil(n / 2);
  const half = Math.floor(n / 2);
  const all: DerivedCredential[] = [
    valid('the key under a lower-case scheme (bearer)', 'bearer', 1, 0),
    valid('the key under an upper-case scheme (BEARER)', 'BEARER', 1, 1),
    valid('the key under a mixed-case scheme (bEaReR)', 'bEaReR', 1, 1),
    valid('the key after two spaces', 'Bearer', 2, 0),
    valid('the key after three spaces', 'Bearer', 3, 1),
    near('prefix', 'the key with its last character removed', (k) => k.slice(0, -1), WITHOUT_LAST, 0),
    ...(half >= 1
      ? [
          near(
            'prefix',
            'the first half of the key',
            (k) => k.slice(0, Math.floor(k.length / 2)),
            cut(1, half),
            1,
          ),
        ]
      : []),
    // The extension sent by default: what a server that compares a prefix (startsWith) takes for the
    // key, as `x` appended is, and what one that reads the key up to the next space does too
    // (`split(' ')[1]`, a pattern not anchored at its end). The key is compared whole.
    near('extension', 'the key with a space and another word after it', (k) => `${k} x`, `${KEY} x`, 0),
    near('extension', 'the key with an x appended', (k) => `${k}x`, `${KEY}x`, 1),
    near('extension', 'the key with a 0 appended', (k) => `${k}0`, `${KEY}0`, 1),
    near('extension', 'the key with = appended', (k) => `${k}=`, `${KEY}=`, 1),
    near('extension', 'the key twice', (k) => k + k, `${KEY}${KEY}`, 1),
    near('extension', 'the key and a comma', (k) => `${k},`, `${KEY},`, 1),
    ...caseFlips(key),
    ...editsAt(key, 1, 'first', 1),
    ...(n >= 3 ? editsAt(key, middle, 'middle', 0) : []),
    ...(n >= 2 ? editsAt(key, n, 'last', 1) : []),
    ...(n >= 2
      ? [
          near(
            'whitespace',
            'the key with a space inside',
            (k) => `${k.slice(0, middle)} ${k.slice(middle)}`,
            `${cut(1, middle)} ${cut(middle + 1)}`,
            1,
          ),
        ]
      : []),
    {
      header: (k: string) => `Bearer\t${k}`,
      valid: false,
      kind: 'whitespace',
      what: 'the key after a tab instead of a space',
      shell: `Bearer${TAB}${KEY}`,
      tier: 0,
    },
    {
      header: (k: string) => `Bearer \t${k}`,
      valid: false,
      kind: 'whitespace',
      what: 'the key after a space and a tab',
      shell: `Bearer ${TAB}${KEY}`,
      tier: 1,
    },
    {
      header: (k: string) => `Bearer${k}`,
      valid: false,
      kind: 'whitespace',
      what: 'the key with no space after Bearer',
      shell: `Bearer${KEY}`,
      tier: 1,
    },
  ];
  const seen = new Set<string>();
  return all.filter((credential) => {
    const value = credential.header(key);
    if (!credential.valid && value.slice(value.indexOf(' ') + 1) === key && value.startsWith('Bearer '))
      return false;
    if (seen.has(value)) return false;
    seen.add(value);
    return true;
  });
}

/** The tier-0 near-misses, one per class: what a default run sends, spread over the operations. */
export function tierZeroNearMisses(credentials: readonly DerivedCredential[]): DerivedCredential[] {
  const chosen = new Map<CredentialKind, DerivedCredential>();
  for (const credential of credentials) {
    if (!credential.valid && credential.tier === 0 && !chosen.has(credential.kind))
      chosen.set(credential.kind, credential);
  }
  return [...chosen.values()];
}

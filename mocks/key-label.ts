// How a key is shown where it could be read by someone else (the start banner, the journal, the log):
// the demo keys, public anyway, in full; any other key masked to its first characters, so a private
// keys file never leaks through the mock.
import demoKeys from '../fixtures/api-keys.json' with { type: 'json' };

const DEMO_KEYS: ReadonlySet<string> = new Set(demoKeys.keys.map((entry) => entry.key));

export const isDemoKey = (key: string): boolean => DEMO_KEYS.has(key);

/**
 * `demo-free` as is; `sk_live_4f9a…` for a private key: at most 8 characters, and never more than a
 * quarter of it, then `…`.
 */
export function keyLabel(key: string): string {
  if (isDemoKey(key)) return key;
  const shown = Math.min(8, Math.floor(key.length / 4));
  return `${key.slice(0, shown)}…`;
}

/**
 * Hides the private keys of a keys file wherever a text holds one (a key sent in a query, a path, a
 * body, another header): each becomes its keyLabel, as the journal's `key` shows it. Undefined when
 * there are none to hide (the demo keys are public), so a mock of the demo keys pays nothing.
 */
export function keyMasker(keys: readonly string[]): ((text: string) => string) | undefined {
  // Longest first: a key that holds another is hidden whole. A key shorter than 4 characters is not
  // looked for: it would be found in every other word (and is no secret worth the name).
  const hidden = [...new Set(keys.filter((key) => !isDemoKey(key) && key.length >= 4))].sort(
    (a, b) => b.length - a.length,
  );
  if (hidden.length === 0) return undefined;
  const encoded = hidden.map((key) => ({
    pattern: new RegExp(encodedForms(key), 'g'),
    label: keyLabel(key),
  }));
  return (text) => {
    let shown = text;
    for (const key of hidden) if (shown.includes(key)) shown = shown.replaceAll(key, keyLabel(key));
    // A key written with escapes (sk%5Flive… in a query, "sk_live…\u007a" in a JSON body) is the
    // same key to whoever reads it: looked for only in a text that holds one.
    if (shown.includes('%') || shown.includes('\\'))
      for (const { pattern, label } of encoded) shown = shown.replace(pattern, label);
    return shown;
  };
}

/**
 * A pattern for `key` with any of its characters written as it is, percent-encoded (its UTF-8 bytes,
 * hex digits of either case) or as a JSON escape (`\u007a`, `\/`).
 */
function encodedForms(key: string): string {
  let pattern = '';
  for (const char of key) {
    const forms = [char.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&')];
    forms.push(
      [...UTF8.encode(char)].map((byte) => `%${anyCase(byte.toString(16).padStart(2, '0'))}`).join(''),
    );
    let json = '';
    for (let i = 0; i < char.length; i += 1)
      json += `\\\\u${anyCase(char.charCodeAt(i).toString(16).padStart(4, '0'))}`;
    forms.push(json);
    if (char === '/' || char === '\\' || char === '"') forms.push(`\\\\\\${char}`);
    pattern += `(?:${forms.join('|')})`;
  }
  return pattern;
}

const UTF8 = new TextEncoder();

/** A hex number's digits, each matching either case (`5f`: `5[fF]`). */
const anyCase = (hex: string): string => hex.replace(/[a-f]/g, (digit) => `[${digit}${digit.toUpperCase()}]`);

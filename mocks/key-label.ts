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
  return (text) => {
    let shown = text;
    for (const key of hidden) if (shown.includes(key)) shown = shown.replaceAll(key, keyLabel(key));
    return shown;
  };
}

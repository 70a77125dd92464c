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

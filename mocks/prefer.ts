// The `Prefer` header (RFC 7240), Prism's convention: `code=NNN` and `delay=MS`. Unknown or malformed
// preferences are ignored, as the RFC asks.
export const MAX_DELAY_MS = 10_000;

export interface Preferences {
  readonly code: number | undefined;
  /** Already capped at MAX_DELAY_MS. */
  readonly delay: number | undefined;
}

const NONE: Preferences = { code: undefined, delay: undefined };
const STATUS = /^[1-5]\d\d$/;
/** Any number of digits: a delay past the cap is capped, however long (the header's size bounds it). */
const DIGITS = /^\d+$/;

export function parsePrefer(header: string | null): Preferences {
  if (header === null) return NONE;
  let code: number | undefined;
  let delay: number | undefined;
  for (const preference of header.split(',')) {
    const [token = ''] = preference.split(';', 1);
    const eq = token.indexOf('=');
    if (eq < 0) continue;
    const name = token.slice(0, eq).trim().toLowerCase();
    const value = token
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (name === 'code' && code === undefined && STATUS.test(value)) code = Number(value);
    if (name === 'delay' && delay === undefined && DIGITS.test(value))
      delay = Math.min(Number(value), MAX_DELAY_MS);
  }
  return { code, delay };
}

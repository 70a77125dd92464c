// petkit's limits that openapi.yaml decides in words, where no schema keyword can carry them: one
// place for the mock, the contract suite and the tests (openapi.test.ts holds the document's words to
// each). Limits a schema states (the list's `limit` maximum, a name's maxLength) are read from it.

/** The largest request body petkit accepts: PayloadTooLarge, "larger than 16 KiB", is a 413. */
export const MAX_BODY_BYTES = 16 * 1024;

/** Requests a key may send per minute and per day. */
export interface Limits {
  readonly perMinute: number;
  readonly perDay: number;
}

/** The plans' limits (the description's "Rate limits by plan"); Enterprise's are set per key. */
export const PLAN_LIMITS = {
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1_000, perDay: 100_000 },
} as const satisfies Readonly<Record<string, Limits>>;

/** More than this many requests while limited, within one window, ban the key (TooManyRequests). */
export const BAN_AFTER = 10;
/** For this long: 5 minutes. */
export const BAN_MS = 5 * 60_000;

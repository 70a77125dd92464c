// The rate limiter of mocks/rate-limiter.ts with its buckets in PostgreSQL, so that every replica
// counts into the same windows. Its decisions are those of createRateLimiter() for the same requests
// (a property test holds the two equal): fixed minute and UTC-day windows of the caller's clock, both
// counted, the headers of the window with fewer requests remaining (the day on a tie), and a ban of
// BAN_MS after more than BAN_AFTER requests while limited within one window (a key's bucket only: an
// address's, for requests without a valid key, is never banned).
//
// One request is one statement, INSERT … ON CONFLICT DO UPDATE … RETURNING: PostgreSQL locks the
// bucket's row, computes the new counts from the row as it stands (never from a stale read), and
// answers them, so N replicas under any concurrency let exactly the remainder through. The clock is
// the caller's (`now`), never the database's.
//
// One departure, for clocks that disagree: a window never goes back. A replica whose clock is a
// little behind another's counts into the newer window the bucket has already entered, rather than
// resetting the count to its own (older) window. With one clock that only moves forward, as the
// in-memory limiter assumes, this changes nothing.
//
// The mock's clock can be moved (shared-control.ts): `now` is the mock's time by the view the caller
// read, and the caller passes that view's version. Both statements below do nothing when the stored
// version differs, so a replica whose cached view is behind a change counts nothing and sweeps
// nothing by a clock that is no longer the mock's: take() throws StaleControlError, and the caller
// reads the view again and takes again. No version given: no such check (the limiter alone).
//
// Buckets whose windows have all passed count nothing, exactly like absent ones; each replica
// deletes them once when its clock enters a new UTC day, as the in-memory limiter sweeps its map.
// (The in-memory anonymous limiter's cap of MAX_ANONYMOUS_BUCKETS is not reproduced: rows are cheap.)
import { BAN_AFTER, BAN_MS, type Limits } from '../../openapi/index.js';
import { allowedDecision, DAY_MS, MINUTE_MS, peekedWindows, refusedDecision } from '../rate-limiter.js';
import {
  type BucketRef,
  type RateDecision,
  type RateLimiter,
  StaleControlError,
  type WindowsPeek,
} from '../state.js';
import type { Database } from './database.js';

export interface SharedRateLimiter extends RateLimiter {
  /**
   * Counts one request of a bucket at `now` (ms since the epoch) and says whether it may pass; throws
   * StaleControlError, counting nothing, when `version` is given and the stored one differs.
   */
  take(bucket: BucketRef, limits: Limits, now: number, version?: number): Promise<RateDecision>;
  peek(bucket: BucketRef, limits: Limits, now: number): Promise<WindowsPeek>;
  latestWindow(): Promise<number | undefined>;
  /** Forgets every bucket (of every replica). */
  reset(): Promise<void>;
  /** Buckets held now, live or not yet swept. */
  count(): Promise<number>;
}

/** What the statement did, kept in the row so that RETURNING can say it. */
const ALLOWED = 0;
const LIMITED = 1;
/** Limited once too often in one window: banned by this request. */
const BANNING = 2;
/** Already banned. */
const BANNED = 3;

// The parameters of TAKE_SQL.
const BUCKET = '$1::text';
const NOW = '$2::float8';
const MINUTE = '$3::bigint';
const DAY = '$4::bigint';
const PER_MINUTE = '$5::bigint';
const PER_DAY = '$6::bigint';
/** False for an address's bucket (no valid key sent): a ban is a key's. */
const BANS = '$7::boolean';
/** The version of the caller's view of the control store, or null for no check. */
const VERSION = '$8::bigint';
const CURRENT = `(${VERSION} IS NULL OR (SELECT version FROM petkit_control) = ${VERSION})`;

// The bucket as this request finds it (`b` is the row before the update): each window moves to the
// request's if that one is newer, and its count then starts again from zero.
const minute = `GREATEST(b.minute, ${MINUTE})`;
const minuteCount = `(CASE WHEN b.minute >= ${MINUTE} THEN b.minute_count ELSE 0 END)`;
const day = `GREATEST(b.day, ${DAY})`;
const dayCount = `(CASE WHEN b.day >= ${DAY} THEN b.day_count ELSE 0 END)`;
const banned = `(${NOW} < b.banned_until)`;
const allowed = `(NOT ${banned} AND ${PER_MINUTE} - ${minuteCount} > 0 AND ${PER_DAY} - ${dayCount} > 0)`;
const limited = `(NOT ${banned} AND NOT ${allowed})`;
// When limited: by the day if the day has none left, else by the minute; the window named as the
// in-memory limiter names it (d<day> or m<minute>), its limited count restarting in a new window.
const byDay = `(${PER_DAY} - ${dayCount} <= 0)`;
const window = `(CASE WHEN ${byDay} THEN 'd' || ${day} ELSE 'm' || ${minute} END)`;
const limitedCount = `(CASE WHEN b.limited_window = ${window} THEN b.limited_count + 1 ELSE 1 END)`;
const banning = `(${BANS} AND ${limited} AND ${limitedCount} > ${BAN_AFTER})`;

/**
 * The first request of a bucket is always allowed (limits are at least 1), so a new row starts with
 * both counts at 1. Every later request updates the row from the values above; the SET expressions
 * all read the row as it was before this request. A stale version inserts nothing and updates
 * nothing, and then no row is returned.
 */
const TAKE_SQL = `
INSERT INTO petkit_rate_buckets AS b
  (bucket, minute, minute_count, day, day_count, limited_window, limited_count, banned_until, outcome)
SELECT ${BUCKET}, ${MINUTE}, 1, ${DAY}, 1, '', 0, 0, ${ALLOWED} WHERE ${CURRENT}
ON CONFLICT (bucket) DO UPDATE SET
  minute = ${minute},
  minute_count = ${minuteCount} + CASE WHEN ${allowed} THEN 1 ELSE 0 END,
  day = ${day},
  day_count = ${dayCount} + CASE WHEN ${allowed} THEN 1 ELSE 0 END,
  limited_window = CASE WHEN ${limited} THEN ${window} ELSE b.limited_window END,
  limited_count = CASE WHEN ${banning} THEN 0 WHEN ${limited} THEN ${limitedCount} ELSE b.limited_count END,
  banned_until = CASE WHEN ${banning} THEN ${NOW} + ${BAN_MS} ELSE b.banned_until END,
  outcome = CASE WHEN ${banned} THEN ${BANNED} WHEN ${allowed} THEN ${ALLOWED}
                 WHEN ${banning} THEN ${BANNING} ELSE ${LIMITED} END
WHERE ${CURRENT}
RETURNING minute, minute_count, day, day_count, banned_until, outcome`;

interface TakeRow {
  // bigint columns arrive as strings; every value here is below 2^53.
  readonly minute: string;
  readonly minute_count: string;
  readonly day: string;
  readonly day_count: string;
  readonly banned_until: number;
  readonly outcome: number;
}

/** The decision the row after the statement stands for, worked out as createRateLimiter() does. */
function decide(row: TakeRow, limits: Limits, now: number): RateDecision {
  const minuteCount = Number(row.minute_count);
  const dayCount = Number(row.day_count);
  const minuteEnd = (Number(row.minute) + 1) * MINUTE_MS;
  const dayEnd = (Number(row.day) + 1) * DAY_MS;
  const bannedUntil = row.banned_until;
  switch (row.outcome) {
    case ALLOWED: {
      // What was left before this request was counted.
      const left = { minute: limits.perMinute - (minuteCount - 1), day: limits.perDay - (dayCount - 1) };
      return allowedDecision(limits, left, { minute: minuteEnd, day: dayEnd }, now);
    }
    case BANNED: {
      const tighter = limits.perMinute - minuteCount <= limits.perDay - dayCount;
      return refusedDecision(limits, tighter ? 'minute' : 'day', bannedUntil, true, now);
    }
    default: {
      const byDay = limits.perDay - dayCount <= 0;
      const window = byDay ? 'day' : 'minute';
      if (row.outcome === BANNING) return refusedDecision(limits, window, bannedUntil, true, now);
      return refusedDecision(limits, window, byDay ? dayEnd : minuteEnd, false, now);
    }
  }
}

/** What the statement's columns can hold: positive whole limits, a finite clock. Bugs, not input. */
function checkArguments(limits: Limits, now: number): void {
  for (const value of [limits.perMinute, limits.perDay]) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new RangeError(`Rate limits must be positive integers, got ${JSON.stringify(limits)}.`);
    }
  }
  if (!Number.isFinite(now)) throw new RangeError(`The clock must be a finite number of ms, got ${now}.`);
}

/** A bucket's row text: the kind, then the key or the address. */
const bucketText = (bucket: BucketRef): string => `${bucket.kind} ${bucket.id}`;

interface PeekRow {
  readonly minute: string;
  readonly minute_count: string;
  readonly day: string;
  readonly day_count: string;
  readonly banned_until: number;
}

/** The windows at `now` of a bucket as `row` holds it (undefined: never counted), as the in-memory limiter peeks. */
const peekOf = (row: PeekRow | undefined, limits: Limits, now: number): WindowsPeek =>
  peekedWindows(
    limits,
    now,
    row && {
      minute: Number(row.minute),
      minuteCount: Number(row.minute_count),
      day: Number(row.day),
      dayCount: Number(row.day_count),
      bannedUntil: row.banned_until,
    },
  );

export function createSharedRateLimiter(database: Database): SharedRateLimiter {
  let sweptDay = Number.NaN;
  return {
    async take(bucket, limits, now, version) {
      checkArguments(limits, now);
      const minuteIndex = Math.floor(now / MINUTE_MS);
      const dayIndex = Math.floor(now / DAY_MS);
      const checked = version ?? null;
      if (dayIndex !== sweptDay) {
        // Guarded too: a stale view's clock may be ahead of the mock's, and would sweep live buckets.
        await database.query({
          name: 'petkit_rate_sweep',
          text: `DELETE FROM petkit_rate_buckets WHERE day < $1 AND banned_until <= $2
                 AND ($3::bigint IS NULL OR (SELECT version FROM petkit_control) = $3)`,
          values: [dayIndex, now, checked],
        });
        sweptDay = dayIndex;
      }
      const { rows } = await database.query<TakeRow>({
        name: 'petkit_rate_take',
        text: TAKE_SQL,
        values: [
          bucketText(bucket),
          now,
          minuteIndex,
          dayIndex,
          limits.perMinute,
          limits.perDay,
          bucket.kind === 'key',
          checked,
        ],
      });
      const row = rows[0];
      if (row !== undefined) return decide(row, limits, now);
      if (checked !== null) {
        throw new StaleControlError(
          `The control view of version ${checked} is no longer the shared one; read it again.`,
        );
      }
      throw new Error('petkit state: the rate-limit statement returned no row.');
    },
    async peek(bucket, limits, now) {
      checkArguments(limits, now);
      const { rows } = await database.query<PeekRow>({
        text: `SELECT minute, minute_count, day, day_count, banned_until
               FROM petkit_rate_buckets WHERE bucket = $1`,
        values: [bucketText(bucket)],
      });
      return peekOf(rows[0], limits, now);
    },
    async latestWindow() {
      const { rows } = await database.query<{ minute: string | null }>({
        text: 'SELECT max(minute) AS minute FROM petkit_rate_buckets',
      });
      const minute = rows[0]?.minute;
      return minute === null || minute === undefined ? undefined : Number(minute) * MINUTE_MS;
    },
    async reset() {
      await database.query({ text: 'TRUNCATE petkit_rate_buckets' });
    },
    async count() {
      const { rows } = await database.query<{ count: string }>({
        text: 'SELECT count(*) AS count FROM petkit_rate_buckets',
      });
      return Number(rows[0]?.count ?? 0);
    },
  };
}

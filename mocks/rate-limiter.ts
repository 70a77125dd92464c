// Per-bucket rate limits over fixed windows aligned to the clock: the minute window is
// [k·60 s, (k+1)·60 s) and the day window a UTC day, both in the injected clock's time. Both windows
// count every allowed request. More than BAN_AFTER requests while limited within one window ban the
// bucket for BAN_MS, unless the limiter is made with `bans: false` (the address buckets of requests
// without a valid key: a ban is a key's, so a caller who sent none still meets its 401 once the
// window ends). This in-memory limiter is synchronous on purpose: a decision and its count
// happen in one step, so concurrent requests can never let more than the limit through (a remote
// engine must count and decide in one atomic step too).
//
// Memory stays bounded: a bucket whose windows have all passed (its day is over and it is not
// banned) counts nothing any more, and is dropped by a sweep the first time the clock enters a new
// UTC day. A limiter made with `maxBuckets` (the anonymous one, one bucket per client address) also
// keeps at most that many: at the cap a new bucket pushes out the one used least recently (whose
// counts then start again from zero; a client hammering while limited or banned stays recent).
import { BAN_AFTER, BAN_MS, type Limits } from '../openapi/index.js';
import type { RateDecision, WindowsPeek } from './state.js';

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;
/** The most anonymous buckets (one per client address) a mock keeps; the least recently used go first. */
export const MAX_ANONYMOUS_BUCKETS = 10_000;

interface Bucket {
  minute: number;
  minuteCount: number;
  day: number;
  dayCount: number;
  /** The window the bucket was last limited in (`m<index>` or `d<index>`) and how often. */
  limitedWindow: string;
  limitedCount: number;
  bannedUntil: number;
}

export interface RateLimiterOptions {
  /** The most buckets kept at once; default unbounded (fine where buckets are per configured key). */
  maxBuckets?: number;
  /** Whether a bucket limited more than BAN_AFTER times in a window is banned. Default true. */
  bans?: boolean;
}

/** The in-memory limiter of one kind of bucket, by id: a decision and its count in one synchronous step. */
export interface MemoryRateLimiter {
  take(bucket: string, limits: Limits, now: number): RateDecision;
  /** The bucket's windows at `now`, counting nothing. */
  peek(bucket: string, limits: Limits, now: number): WindowsPeek;
  /** The start (ms) of the latest minute window counted in; undefined: none. */
  latestWindow(): number | undefined;
  reset(): void;
  count(): number;
  readonly size: number;
}

const secondsUntil = (end: number, now: number): number => Math.max(1, Math.ceil((end - now) / 1000));

/**
 * The decision for a request that may pass, given what each window had left before it was counted
 * and where each window ends (ms): the headers describe the window with fewer remaining, on a tie the
 * later one, the one that binds longer. The PostgreSQL limiter decides with it too.
 */
export function allowedDecision(
  limits: Limits,
  left: { readonly minute: number; readonly day: number },
  ends: { readonly minute: number; readonly day: number },
  now: number,
): RateDecision {
  const useMinute = left.minute < left.day;
  const end = useMinute ? ends.minute : ends.day;
  return {
    allowed: true,
    banned: false,
    window: useMinute ? 'minute' : 'day',
    limit: useMinute ? limits.perMinute : limits.perDay,
    remaining: (useMinute ? left.minute : left.day) - 1,
    reset: end / 1000,
    retryAfter: secondsUntil(end, now),
  };
}

/**
 * The decision for a request refused in `window`: limited until the window ends, or banned until the
 * ban does (`until`, ms). The PostgreSQL limiter decides with it too.
 */
export function refusedDecision(
  limits: Limits,
  window: 'minute' | 'day',
  until: number,
  banned: boolean,
  now: number,
): RateDecision {
  return {
    allowed: false,
    banned,
    window,
    limit: window === 'minute' ? limits.perMinute : limits.perDay,
    remaining: 0,
    reset: Math.ceil(until / 1000),
    retryAfter: secondsUntil(until, now),
  };
}

/** A bucket's counts as an engine keeps them: the windows they were counted in, and the ban's end. */
export interface CountedBucket {
  readonly minute: number;
  readonly minuteCount: number;
  readonly day: number;
  readonly dayCount: number;
  readonly bannedUntil: number;
}

/**
 * The windows at `now` of a bucket (undefined: never counted), counting nothing: what the page's
 * windows and `GET /__petkit/limits` show. One for the in-memory and the PostgreSQL limiter.
 */
export function peekedWindows(limits: Limits, now: number, bucket: CountedBucket | undefined): WindowsPeek {
  const minute = Math.floor(now / MINUTE_MS);
  const day = Math.floor(now / DAY_MS);
  const minuteCount = bucket !== undefined && bucket.minute === minute ? bucket.minuteCount : 0;
  const dayCount = bucket !== undefined && bucket.day === day ? bucket.dayCount : 0;
  const bannedUntil = bucket !== undefined && bucket.bannedUntil > now ? bucket.bannedUntil : null;
  return {
    minute: {
      limit: limits.perMinute,
      remaining: Math.max(0, limits.perMinute - minuteCount),
      reset: ((minute + 1) * MINUTE_MS) / 1000,
    },
    day: {
      limit: limits.perDay,
      remaining: Math.max(0, limits.perDay - dayCount),
      reset: ((day + 1) * DAY_MS) / 1000,
    },
    bannedUntil,
  };
}

export function createRateLimiter(options: RateLimiterOptions = {}): MemoryRateLimiter {
  const maxBuckets = options.maxBuckets ?? Number.POSITIVE_INFINITY;
  const bounded = Number.isFinite(maxBuckets);
  const bans = options.bans ?? true;
  const buckets = new Map<string, Bucket>();
  let sweptDay = Number.NaN;
  /** The latest minute index any request was counted in (a window never goes back: the clock's floor). */
  let latestMinute = Number.NaN;

  /** Drops every bucket that is neither in `day` nor banned at `now`. */
  const sweep = (day: number, now: number): void => {
    for (const [id, bucket] of buckets) {
      if (bucket.day !== day && bucket.bannedUntil <= now) buckets.delete(id);
    }
  };

  return {
    take(id, limits, now) {
      const minute = Math.floor(now / MINUTE_MS);
      const day = Math.floor(now / DAY_MS);
      if (day !== sweptDay) {
        sweep(day, now);
        sweptDay = day;
      }
      let bucket = buckets.get(id);
      if (bucket !== undefined && bounded) {
        // Map order is the eviction order: move the bucket to the most recently used end.
        buckets.delete(id);
        buckets.set(id, bucket);
      }
      if (bucket === undefined) {
        // At the cap, drop the least recently used bucket: O(1), no sweep per new address.
        const oldest = buckets.keys().next();
        if (buckets.size >= maxBuckets && oldest.done !== true) buckets.delete(oldest.value);
        bucket = {
          minute,
          minuteCount: 0,
          day,
          dayCount: 0,
          limitedWindow: '',
          limitedCount: 0,
          bannedUntil: 0,
        };
        buckets.set(id, bucket);
      }
      // The bucket is in this window now, counted or limited (PostgreSQL's max(minute) says the same).
      if (!(minute <= latestMinute)) latestMinute = minute;
      if (bucket.minute !== minute) {
        bucket.minute = minute;
        bucket.minuteCount = 0;
      }
      if (bucket.day !== day) {
        bucket.day = day;
        bucket.dayCount = 0;
      }
      const minuteEnd = (minute + 1) * MINUTE_MS;
      const dayEnd = (day + 1) * DAY_MS;
      const tighter = limits.perMinute - bucket.minuteCount <= limits.perDay - bucket.dayCount;

      if (now < bucket.bannedUntil) {
        return refusedDecision(limits, tighter ? 'minute' : 'day', bucket.bannedUntil, true, now);
      }

      const minuteLeft = limits.perMinute - bucket.minuteCount;
      const dayLeft = limits.perDay - bucket.dayCount;
      if (minuteLeft > 0 && dayLeft > 0) {
        bucket.minuteCount += 1;
        bucket.dayCount += 1;
        return allowedDecision(
          limits,
          { minute: minuteLeft, day: dayLeft },
          { minute: minuteEnd, day: dayEnd },
          now,
        );
      }

      const byDay = dayLeft <= 0;
      const window = byDay ? `d${day}` : `m${minute}`;
      if (bucket.limitedWindow !== window) {
        bucket.limitedWindow = window;
        bucket.limitedCount = 0;
      }
      bucket.limitedCount += 1;
      if (bans && bucket.limitedCount > BAN_AFTER) {
        bucket.bannedUntil = now + BAN_MS;
        bucket.limitedCount = 0;
        return refusedDecision(limits, byDay ? 'day' : 'minute', bucket.bannedUntil, true, now);
      }
      return refusedDecision(limits, byDay ? 'day' : 'minute', byDay ? dayEnd : minuteEnd, false, now);
    },
    peek(id, limits, now) {
      const bucket = buckets.get(id);
      return peekedWindows(
        limits,
        now,
        bucket && {
          minute: bucket.minute,
          minuteCount: bucket.minuteCount,
          day: bucket.day,
          dayCount: bucket.dayCount,
          bannedUntil: bucket.bannedUntil,
        },
      );
    },
    latestWindow: () => (Number.isNaN(latestMinute) ? undefined : latestMinute * MINUTE_MS),
    reset() {
      buckets.clear();
      latestMinute = Number.NaN;
    },
    count: () => buckets.size,
    get size() {
      return buckets.size;
    },
  };
}

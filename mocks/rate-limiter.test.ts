import { describe, expect, it } from 'vitest';
import { BAN_AFTER } from '../openapi/index.js';
import { createRateLimiter, DAY_MS, MINUTE_MS } from './rate-limiter.js';

const LIMITS = { perMinute: 3, perDay: 100 };
const NOON = Date.UTC(2030, 0, 1, 12);

describe('createRateLimiter', () => {
  it('keeps at most maxBuckets, pushing out the one used least recently', () => {
    const limiter = createRateLimiter({ maxBuckets: 3 });
    for (const id of ['a', 'b', 'c']) limiter.take(id, LIMITS, NOON);
    limiter.take('a', LIMITS, NOON); // a is now the most recently used, b the least
    limiter.take('d', LIMITS, NOON);
    expect(limiter.size).toBe(3);
    // a kept its count (third request: none left), b was dropped and starts again.
    expect(limiter.take('a', LIMITS, NOON).remaining).toBe(0);
    expect(limiter.take('b', LIMITS, NOON).remaining).toBe(2);
    expect(limiter.size).toBe(3);
  });
  it('holds no more than maxBuckets under a flood of distinct ids', () => {
    const limiter = createRateLimiter({ maxBuckets: 100 });
    for (let i = 0; i < 10_000; i += 1) limiter.take(`10.0.${i >> 8}.${i & 255}`, LIMITS, NOON + i);
    expect(limiter.size).toBe(100);
  });
  it('keeps a bucket through the minute and the day it counts in, and sweeps it the next day', () => {
    const limiter = createRateLimiter();
    limiter.take('a', LIMITS, NOON);
    limiter.take('b', LIMITS, NOON + MINUTE_MS);
    // Later the same day: a's minute is over, but its day count still binds, so it stays.
    expect(limiter.take('a', LIMITS, NOON + 2 * MINUTE_MS).remaining).toBe(2);
    expect(limiter.size).toBe(2);
    limiter.take('c', LIMITS, NOON + DAY_MS);
    expect(limiter.size).toBe(1);
  });
  it('bans a bucket limited more than BAN_AFTER times in a window, and keeps a running ban through the sweep', () => {
    const limiter = createRateLimiter();
    const late = Date.UTC(2030, 0, 1, 23, 58);
    for (let i = 0; i < 3 + BAN_AFTER; i += 1) expect(limiter.take('a', LIMITS, late).banned).toBe(false);
    expect(limiter.take('a', LIMITS, late)).toMatchObject({ allowed: false, banned: true });
    // The next day's first request sweeps; the ban (to 00:03) is kept.
    limiter.take('b', LIMITS, late + 3 * MINUTE_MS);
    expect(limiter.size).toBe(2);
    expect(limiter.take('a', LIMITS, late + 3 * MINUTE_MS).banned).toBe(true);
  });
  it('never bans with bans: false; the bucket is only limited, and passes again in the next window', () => {
    const limiter = createRateLimiter({ bans: false });
    for (let i = 0; i < 3 + 5 * BAN_AFTER; i += 1) expect(limiter.take('a', LIMITS, NOON).banned).toBe(false);
    expect(limiter.take('a', LIMITS, NOON + MINUTE_MS).allowed).toBe(true);
  });
});

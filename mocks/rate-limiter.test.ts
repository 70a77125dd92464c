import { describe, expect, it } from 'vitest';
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
});

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BAN_AFTER, BAN_MS, type Limits } from '../../openapi/index.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/postgres/database.js';
import { createRateLimiter, DAY_MS, MINUTE_MS } from '../rate-limiter.js';
import type { RateDecision } from '../state.js';
import type { SharedState } from './connect.js';
import { type Replicas, replicasIn } from './test-helpers.js';

let database: TestDatabase;
let replicas: Replicas;
let one: SharedState;
let two: SharedState;
beforeAll(async () => {
  database = await createTestDatabase();
  replicas = await replicasIn(database);
  one = await replicas.connect();
  two = await replicas.connect();
});
afterAll(async () => {
  await replicas?.close();
  await database?.drop();
});

/** A minute and a half before midnight UTC, so that sequences cross minute and day boundaries. */
const BEFORE_MIDNIGHT = Date.UTC(2030, 0, 1) - 90_000;

/** Steps of the clock that land on and around window edges, and past a ban. */
const clockStep = fc.oneof(
  // Mostly requests close together, so that windows fill up and bans follow.
  { weight: 20, arbitrary: fc.constantFrom(0, 1, 499, 1_000) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 2 * MINUTE_MS }) },
  { weight: 1, arbitrary: fc.constantFrom(MINUTE_MS - 1, MINUTE_MS, BAN_MS, BAN_MS - 1, DAY_MS) },
  // To the next minute's start exactly, or to 1 ms before it.
  { weight: 1, arbitrary: fc.constantFrom('next-minute' as const, 'before-next-minute' as const) },
);

/** Small limits, so that both windows fill up, and bans follow, within a few dozen requests. */
const limits = fc.record({
  perMinute: fc.integer({ min: 1, max: 4 }),
  perDay: fc.integer({ min: 1, max: 12 }),
});

const request = fc.record({ bucket: fc.integer({ min: 0, max: 2 }), step: clockStep });

function advance(now: number, step: number | 'next-minute' | 'before-next-minute'): number {
  if (step === 'next-minute') return (Math.floor(now / MINUTE_MS) + 1) * MINUTE_MS;
  if (step === 'before-next-minute') return Math.max(now, (Math.floor(now / MINUTE_MS) + 1) * MINUTE_MS - 1);
  return now + step;
}

describe('the shared rate limiter', () => {
  it('decides exactly as the in-memory limiter, request by request, across windows, days and bans', async () => {
    let run = 0;
    let banned = 0;
    let dayLimited = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(limits, limits, limits),
        fc.integer({ min: 0, max: 3 * MINUTE_MS }),
        fc.array(request, { minLength: 40, maxLength: 160 }),
        async (bucketLimits, offset, requests) => {
          run += 1;
          const memory = createRateLimiter();
          let now = BEFORE_MIDNIGHT + offset;
          for (const { bucket, step } of requests) {
            now = advance(now, step);
            const plan = bucketLimits[bucket] as Limits;
            const expected = memory.take(`${bucket}`, plan, now);
            // Each run's buckets are its own; the replicas take turns.
            const via = bucket % 2 === 0 ? one : two;
            const actual = await via.limiter.take({ kind: 'key', id: `run${run}:${bucket}` }, plan, now);
            expect(actual).toEqual(expected);
            if (expected.banned) banned += 1;
            if (!expected.allowed && expected.limit === plan.perDay) dayLimited += 1;
          }
        },
      ),
      { seed: 1313, numRuns: 60 },
    );
    // The sequences did reach the cases that matter.
    expect(banned).toBeGreaterThan(0);
    expect(dayLimited).toBeGreaterThan(0);
  });

  it('lets exactly the remainder through when two replicas hammer one key at once', async () => {
    const key = 'hammered';
    const plan: Limits = { perMinute: 50, perDay: 1_000 };
    const now = Date.UTC(2030, 5, 1, 12, 0, 30);
    // 20 already spent in this minute.
    for (let i = 0; i < 20; i += 1) await one.limiter.take({ kind: 'key', id: key }, plan, now);

    const burst = Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? one : two));
    const decisions = await Promise.all(
      burst.map((replica) => replica.limiter.take({ kind: 'key', id: key }, plan, now)),
    );

    const allowed = decisions.filter((decision) => decision.allowed);
    expect(allowed).toHaveLength(30);
    // Each remaining count was answered once: no two requests saw the same count.
    expect(allowed.map((decision) => decision.remaining).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 30 }, (_, i) => i),
    );
    // Of the 170 refused, the first BAN_AFTER were limited, the next banned the key, the rest found it banned.
    const refused = decisions.filter((decision) => !decision.allowed);
    expect(refused.filter((decision) => !decision.banned)).toHaveLength(BAN_AFTER);
    expect(refused.filter((decision) => decision.banned)).toHaveLength(170 - BAN_AFTER);
    const banEnd = Math.ceil((now + BAN_MS) / 1000);
    expect(new Set(refused.filter((decision) => decision.banned).map((decision) => decision.reset))).toEqual(
      new Set([banEnd]),
    );
  });

  it('counts the day window across replicas and minutes', async () => {
    const key = 'daily';
    const plan: Limits = { perMinute: 100, perDay: 30 };
    const start = Date.UTC(2030, 5, 2, 8);
    const minutes = [0, 1, 2].map((m) => start + m * MINUTE_MS);
    const decisions: RateDecision[] = await Promise.all(
      minutes
        .flatMap((at) =>
          [one, two].map((replica) =>
            Array.from({ length: 8 }, () => replica.limiter.take({ kind: 'key', id: key }, plan, at)),
          ),
        )
        .flat(),
    );
    // 48 requests over three minutes, 30 a day: exactly 30 pass, and the rest are limited by the day.
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(30);
    const limited = decisions.filter((decision) => !decision.allowed && !decision.banned);
    expect(limited).toHaveLength(BAN_AFTER);
    expect(
      limited.every((decision) => decision.limit === 30 && decision.reset === Date.UTC(2030, 5, 3) / 1000),
    ).toBe(true);
  });

  it('forgets every bucket on reset, for every replica', async () => {
    const plan: Limits = { perMinute: 1, perDay: 10 };
    const now = Date.UTC(2030, 5, 3, 8);
    await one.limiter.take({ kind: 'key', id: 'forgotten' }, plan, now);
    expect((await two.limiter.take({ kind: 'key', id: 'forgotten' }, plan, now)).allowed).toBe(false);
    await one.limiter.reset();
    expect(await two.limiter.count()).toBe(0);
    expect(await two.limiter.take({ kind: 'key', id: 'forgotten' }, plan, now)).toMatchObject({
      allowed: true,
      remaining: 0,
    });
  });

  it('counts a replica whose clock lags into the window the key is already in, never an older one', async () => {
    const plan: Limits = { perMinute: 2, perDay: 100 };
    const minute = Date.UTC(2030, 5, 4, 8, 1);
    await one.limiter.take({ kind: 'key', id: 'skewed' }, plan, minute);
    await one.limiter.take({ kind: 'key', id: 'skewed' }, plan, minute + 10);
    // Replica two's clock is 30 ms behind, still in the minute before: the key stays limited.
    const late = await two.limiter.take({ kind: 'key', id: 'skewed' }, plan, minute - 30);
    expect(late).toMatchObject({ allowed: false, limit: 2, remaining: 0, reset: minute / 1000 + 60 });
  });

  it('refuses limits that are not positive integers, and a clock that is not a number', async () => {
    await expect(one.limiter.take({ kind: 'key', id: 'k' }, { perMinute: 0, perDay: 10 }, 0)).rejects.toThrow(
      RangeError,
    );
    await expect(
      one.limiter.take({ kind: 'key', id: 'k' }, { perMinute: 1.5, perDay: 10 }, 0),
    ).rejects.toThrow(RangeError);
    await expect(
      one.limiter.take({ kind: 'key', id: 'k' }, { perMinute: 1, perDay: 10 }, Number.NaN),
    ).rejects.toThrow(RangeError);
  });
});

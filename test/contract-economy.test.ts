// Staging economy: a default run against a key of 60 requests a minute finishes within 2 minutes and
// spends at most 12% of a 1,000-a-day quota, and loses none of its verdicts: every boundary is sent
// first, generated cases only as the budget allows. Measured on a fake clock the server shares (no
// real waiting); docs/contract.md prints the same figures.
import { afterEach, describe, expect, test } from 'vitest';
import type { ContractOptions, Report } from '../contract-tests/index.js';
import { BROKEN_SERVERS } from './servers/broken.js';
import { type FakeClock, fakeClock, runOnClock } from './servers/fake-clock.js';
import { type AsyncHandler, createReference, type Served, serve } from './servers/reference.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

const PER_MINUTE = 60;
const DAY_QUOTA = 1_000;

async function run(handler: AsyncHandler, clock: FakeClock, extra: Partial<ContractOptions> = {}) {
  served = await serve(handler);
  return runOnClock(served.url, clock, { seed: 7, ...extra });
}

const failed = (report: Report) =>
  [...new Set(report.results.filter((r) => r.outcome === 'failed').map((r) => r.check))].sort();

test('a default run against a 60-a-minute key: ≤ 2 minutes, ≤ 12% of 1,000 a day, every check verified, no 429', async () => {
  const clock = fakeClock();
  const { report, statuses } = await run(
    createReference({ perMinute: PER_MINUTE, perDay: DAY_QUOTA, now: clock.now }),
    clock,
  );
  expect(report.exitCode).toBe(0);
  expect(report.budget).toBe(120);
  expect(report.requests).toBeLessThanOrEqual(0.12 * DAY_QUOTA);
  expect(report.durationMs).toBeLessThanOrEqual(120_000);
  expect(statuses).not.toContain(429);
  // Nothing lost to the budget: every pair but the opt-in probes was verified.
  expect(
    report.results.filter((r) => r.outcome !== 'passed').map((r) => `${r.check} × ${r.operationId}`),
  ).toEqual(['rate_limit_behaviour × listPets', 'rate_limit_ban × listPets']);
  if (process.env.PETKIT_SHOW_ECONOMY)
    console.log(`${report.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s`);
});

describe('under the same 60-a-minute budget, every broken server is still caught', () => {
  const plain = BROKEN_SERVERS.filter((server) => server.runWith === undefined);
  test.each(plain)('$name: caught by $fails within 120 requests and 2 minutes', async (server) => {
    const clock = fakeClock();
    const { report } = await run(server.handler(clock, { perMinute: PER_MINUTE, now: clock.now }), clock);
    expect(report.aborted).toBeNull();
    expect(failed(report)).toEqual([...server.fails].sort());
    expect(report.requests).toBeLessThanOrEqual(120);
    expect(report.durationMs).toBeLessThanOrEqual(120_000);
  });
});

test('--budget N caps the requests: what it did not reach is skipped, and says why', async () => {
  const clock = fakeClock();
  const { report } = await run(createReference({ now: clock.now }), clock, { budget: 40 });
  expect(report.requests).toBe(40);
  expect(report.budget).toBe(40);
  expect(report.exitCode).toBe(0);
  expect(report.results).toContainEqual(
    expect.objectContaining({
      outcome: 'skipped',
      reason: 'the budget of 40 requests was spent before it (--budget)',
    }),
  );
});

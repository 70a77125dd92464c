// Staging economy: a default run against a key of 60 requests a minute spends the window the target
// announces (all but a margin of 3 for the key's other users), waits for its reset, and finishes within
// 75 s and 114 requests whatever the phase of the window it starts in, losing none of its verdicts:
// every boundary is sent first, generated cases only as the budget allows. When the windows offer less
// it stops at the time budget and says what it skipped and why. Measured on a fake clock the server
// shares (no real waiting), each request taking 50 ms; docs/contract.md prints the same figures.
import { afterEach, describe, expect, test } from 'vitest';
import type { ContractOptions, Report } from '../contract-tests/index.js';
import { renderPretty } from '../contract-tests/reporters/pretty.js';
import { BROKEN_SERVERS } from './servers/broken.js';
import { type FakeClock, fakeClock, runOnClock } from './servers/fake-clock.js';
import {
  type AsyncHandler,
  createReference,
  type RawRequest,
  REFERENCE_KEY,
  type Served,
  serve,
} from './servers/reference.js';

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

/** A server that takes 50 ms (of the shared clock) to answer, and counts what it received. */
function slow(handler: AsyncHandler, clock: FakeClock) {
  const counted = { requests: 0 };
  const wrapped: AsyncHandler = (request) => {
    counted.requests += 1;
    clock.advance(50);
    return handler(request);
  };
  return { handler: wrapped, counted };
}

const notPassed = (report: Report) =>
  report.results.filter((r) => r.outcome !== 'passed').map((r) => `${r.check} × ${r.operationId}`);

const failed = (report: Report) =>
  [...new Set(report.results.filter((r) => r.outcome === 'failed').map((r) => r.check))].sort();

test.each([0, 15_000, 30_000, 45_000, 59_900])(
  'a default run at 60 a minute, started %i ms into the window: ≤ 75 s, ≤ 120 requests, no 429, every check verified',
  async (phaseMs) => {
    const clock = fakeClock(phaseMs);
    const target = slow(createReference({ perMinute: PER_MINUTE, perDay: DAY_QUOTA, now: clock.now }), clock);
    const { report, statuses } = await run(target.handler, clock);
    expect(report.exitCode).toBe(0);
    expect(report.budget).toBe(114);
    expect(target.counted.requests).toBeLessThanOrEqual(120);
    expect(target.counted.requests).toBe(report.requests);
    expect(report.durationMs).toBeLessThanOrEqual(75_000);
    expect(statuses).not.toContain(429);
    // Nothing lost to the budget: every pair but the opt-in probes was verified.
    expect(notPassed(report)).toEqual(['rate_limit_behaviour × listPets', 'rate_limit_ban × listPets']);
    if (process.env.PETKIT_SHOW_ECONOMY)
      console.log(
        `phase ${phaseMs / 1000} s: ${report.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s`,
      );
  },
);

test('a target whose clock is 10 minutes fast (its Date and Reset alike): the run spends its windows as its clock reads them, exit 0, no 429', async () => {
  const clock = fakeClock(30_000);
  const fast = () => clock.now() + 600_000;
  const target = slow(createReference({ perMinute: PER_MINUTE, perDay: DAY_QUOTA, now: fast }), clock);
  const { report, statuses } = await run(target.handler, clock);
  // Before: `The key's rate-limit window is used up until 12:11:00 … run again after that time` (exit 2),
  // its window ending 30 s on.
  expect(report.aborted).toBeNull();
  expect(report.exitCode).toBe(0);
  expect(statuses).not.toContain(429);
  expect(report.durationMs).toBeLessThanOrEqual(75_000);
  expect(notPassed(report)).toEqual(['rate_limit_behaviour × listPets', 'rate_limit_ban × listPets']);
});

test('another client spent 50 of the first window: the run stops rather than wait past the time budget, exit 0, and names what it skipped and why', async () => {
  const clock = fakeClock(30_000);
  const reference = createReference({ perMinute: PER_MINUTE, now: clock.now });
  const other: RawRequest = {
    method: 'GET',
    pathname: '/v1/pets',
    query: new URLSearchParams(),
    headers: { authorization: `Bearer ${REFERENCE_KEY}` },
    body: '',
  };
  for (let i = 0; i < 50; i += 1) reference(other);
  const target = slow(reference, clock);
  const { report, statuses } = await run(target.handler, clock);
  expect(report.exitCode).toBe(0);
  expect(statuses).not.toContain(429);
  expect(report.durationMs).toBeLessThanOrEqual(75_000);
  const skipped = report.results.filter(
    (r) => r.outcome === 'skipped' && r.check !== 'rate_limit_behaviour' && r.check !== 'rate_limit_ban',
  );
  expect(skipped.length).toBeGreaterThan(0);
  for (const result of skipped) {
    // The window's reset was past the budget: the run stopped short of it, rather than wait past it.
    expect(result.reason).toMatch(
      /^the run stopped short of its time budget of 75 s, not to wait past it \(--time-budget \d+ or more waits\)/,
    );
    expect(result.reason).toMatch(
      /the key's window had \d+ of 60 requests left \(X-RateLimit-Remaining[^)]*\), no more than the 3 the suite keeps for the key's other users, and resets only \d+ s later, after the time budget ends; \d+ requests sent; another client may be spending it/,
    );
  }
});

test('--time-budget S holds a run that the window would let go on', async () => {
  const clock = fakeClock(0);
  const target = slow(createReference({ perMinute: PER_MINUTE, now: clock.now }), clock);
  const { report } = await run(target.handler, clock, { timeBudgetMs: 20_000 });
  expect(report.durationMs).toBeLessThanOrEqual(20_000);
  expect(report.exitCode).toBe(0);
  // The window is spent within the 20 s; it comes back at 60 s, when a --time-budget of 61 would wait.
  expect(report.results).toContainEqual(
    expect.objectContaining({
      outcome: 'skipped',
      reason: expect.stringMatching(
        /^the run stopped short of its time budget of 20 s, not to wait past it \(--time-budget 61 or more waits\) before it: the key's window had 3 of 60 requests left/,
      ),
    }),
  );
});

/** The target's answers, each saying the same window: `remaining` of `limit`, resetting `resetInS` s on from the start. */
function pinnedWindow(
  reference: AsyncHandler,
  clock: FakeClock,
  window: { limit: number; remaining: number; resetInS: number },
): AsyncHandler {
  const resetAt = String(Math.floor(clock.now() / 1000) + window.resetInS);
  return async (request) => {
    const answer = await reference(request);
    return {
      ...answer,
      headers: {
        ...answer.headers,
        'x-ratelimit-limit': String(window.limit),
        'x-ratelimit-remaining': String(window.remaining),
        'x-ratelimit-reset': resetAt,
      },
    };
  };
}

test('a window with only its margin left, resetting past the budget: the run says so, not that the time budget ran out', async () => {
  // X-RateLimit-Remaining 102 of 2000 (100 kept for the key's other users), resetting 50 s on; --time-budget 5.
  const clock = fakeClock(30_000);
  const { report } = await run(
    pinnedWindow(createReference({ now: clock.now }), clock, { limit: 2000, remaining: 102, resetInS: 50 }),
    clock,
    { timeBudgetMs: 5_000 },
  );
  expect(report.durationMs).toBeLessThan(5_000);
  const reasons = [...new Set(report.results.map((result) => result.reason ?? ''))];
  expect(reasons.filter((reason) => reason.includes('ran out'))).toEqual([]);
  expect(reasons).toContainEqual(
    expect.stringMatching(
      /^the run stopped short of its time budget of 5 s, not to wait past it \(--time-budget 51 or more waits\)( before it)?: the key's window had 102 of 2000 requests left \(X-RateLimit-Remaining(; \d+ of the run's requests in flight)?\), no more than the 100 the suite keeps for the key's other users, and resets only 50 s later, after the time budget ends; \d+ requests sent; another client may be spending it/,
    ),
  );
});

test('a run whose time budget does run out (a slow target, a window with room) says so', async () => {
  const clock = fakeClock(0);
  const reference = createReference({ now: clock.now });
  const { report } = await run(
    (request) => {
      clock.advance(400);
      return reference(request);
    },
    clock,
    { timeBudgetMs: 3_000 },
  );
  expect(report.results).toContainEqual(
    expect.objectContaining({
      outcome: 'skipped',
      reason: expect.stringMatching(
        /^the time budget of 3 s ran out \(--time-budget\) before it: \d+ requests sent in it$/,
      ),
    }),
  );
});

describe('under the same 60-a-minute budget, every broken server is still caught', () => {
  const plain = BROKEN_SERVERS.filter((server) => server.runWith === undefined);
  test.each(plain)('$name: caught by $fails within 120 requests and 75 s', async (server) => {
    const clock = fakeClock();
    const { report } = await run(server.handler(clock, { perMinute: PER_MINUTE, now: clock.now }), clock);
    expect(report.aborted).toBeNull();
    expect(failed(report)).toEqual([...server.fails].sort());
    expect(report.requests).toBeLessThanOrEqual(120);
    expect(report.durationMs).toBeLessThanOrEqual(75_000);
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

test('--max-rpm sets the default budget, whatever the key says (two of its windows less their margins), and the skipped pairs name it', async () => {
  const clock = fakeClock();
  // The key says 60 a minute (114 requests); --max-rpm 3 makes it 2 × (3 − 2) = 2.
  const { report } = await run(createReference({ now: clock.now, perMinute: PER_MINUTE }), clock, {
    maxRpm: 3,
  });
  expect(report.budget).toBe(2);
  expect(report.requests).toBe(2);
  expect(report.results).toContainEqual(
    expect.objectContaining({
      outcome: 'skipped',
      reason:
        'the budget of 2 requests was spent before it (the default: two windows of --max-rpm less their margins; --budget N sets it)',
    }),
  );
});

test('a key of 1 a minute leaves the default budget at one request, and the skipped pairs say it was the default, not --budget', async () => {
  const clock = fakeClock();
  const { report } = await run(createReference({ now: clock.now, perMinute: 1 }), clock);
  expect(report.requests).toBe(1);
  expect(report.budget).toBe(1);
  expect(report.results).toContainEqual(
    expect.objectContaining({
      outcome: 'skipped',
      reason:
        "the budget of 1 request was spent before it (the default: two windows of the key's X-RateLimit-Limit less their margins; --budget N sets it)",
    }),
  );
  // Its verdict is on the little it judged, and says how little: the opt-in probes are not counted.
  const cutShort = report.results.filter(
    (result) => result.outcome === 'skipped' && !/^opt-in/.test(result.reason ?? ''),
  );
  const counted = report.results.filter((result) => !/^opt-in/.test(result.reason ?? ''));
  expect(cutShort.length).toBeGreaterThan(counted.length / 2);
  const text = renderPretty(report, { color: false });
  expect(text).toContain(
    `verdict: ✓ conformant (exit 0); ${cutShort.length} of ${counted.length} check × operation pairs not judged (skipped, above)\n1 request in `,
  );
});

test('a server answering 403 to every bad key gives one auth_enforced finding per operation, listing its cases', async () => {
  const server = BROKEN_SERVERS.find((candidate) => candidate.name === 'unauthorised-as-403');
  if (server === undefined) throw new Error('no unauthorised-as-403 server');
  const clock = fakeClock();
  const { report } = await run(server.handler(clock, { now: clock.now }), clock);
  const auth = report.findings.filter((finding) => finding.check === 'auth_enforced');
  const operations = [...new Set(auth.map((finding) => finding.operationId))];
  expect(operations.sort()).toEqual(['createPet', 'getPet', 'listPets']);
  expect(auth).toHaveLength(operations.length);
  for (const finding of auth) {
    expect(finding.cause).toBe('401 → 403');
    expect(finding.cases?.length).toBeGreaterThanOrEqual(4);
    expect(finding.cases).toContain('without an API key: got 403');
    // A near-miss derived from the key (contract-tests/derive/credentials.ts), named by how it was made.
    expect(finding.cases).toContainEqual(expect.stringMatching(/^with the key with .+: got 403$/));
  }
  const pretty = renderPretty(report, { color: false });
  expect(pretty).toContain('cases (401 → 403):');
  expect(pretty).toContain('    - without an API key: got 403');
});

test('a run that stops mid-phase shows nothing passed that the phase never finished judging', async () => {
  const clock = fakeClock();
  const reference = createReference({ now: clock.now });
  let creates = 0;
  // The third create with the key gets a 429 for an hour: the run stops (exit 2) inside the create phase.
  const handler: AsyncHandler = (request) => {
    const keyed = request.headers.authorization === `Bearer ${REFERENCE_KEY}`;
    if (request.method === 'POST' && keyed) creates += 1;
    if (request.method === 'POST' && keyed && creates >= 3) {
      return {
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after': '3600' },
        body: JSON.stringify({ code: 'rate_limited', message: 'Too many requests.', status: 429 }),
      };
    }
    return reference(request);
  };
  // The auth phase, which finishes, judged a create too (sent as "bearer KEY"): a pair a phase left
  // unfinished is not passed, whatever the finished ones said of it.
  const { report } = await run(handler, clock);
  expect(report.exitCode).toBe(2);
  expect(report.results).toContainEqual(
    expect.objectContaining({
      check: 'positive_data_acceptance',
      operationId: 'createPet',
      outcome: 'skipped',
      reason: expect.stringMatching(
        /^the run stopped before it finished \(\d+ cases? passed, none failed\)$/,
      ),
    }),
  );
  // What finished before the stop stands: the auth phase judged every operation.
  expect(report.results).toContainEqual(
    expect.objectContaining({ check: 'auth_enforced', operationId: 'getPet', outcome: 'passed' }),
  );
});

test('a key whose window never has more than the margin left: nothing judged, exit 2, not "✓ conformant"', async () => {
  // X-RateLimit-Remaining 59 of 100,000 at every answer (5,000 kept for the key's other users): the
  // run sends next to nothing, and none of it for the check asked. It said "✓ conformant (exit 0);
  // 3 of 3 check × operation pairs not judged", and a CI job passed on a run that checked nothing.
  const clock = fakeClock(30_000);
  const { report } = await run(
    pinnedWindow(createReference({ now: clock.now }), clock, { limit: 100000, remaining: 59, resetInS: 30 }),
    clock,
    { timeBudgetMs: 30_000, checks: ['auth_enforced'] },
  );
  expect(report.results.every((result) => result.outcome === 'skipped')).toBe(true);
  expect(report.exitCode).toBe(2);
  expect(report.verdict).toBe('aborted');
  expect(report.aborted).toMatchObject({ code: 'nothing_judged', curl: null });
  expect(report.aborted?.message).toMatch(
    /^Nothing was judged: every one of the \d+ check × operation pairs was skipped, so the run cannot call the target conformant\. \d+ of them: the run stopped short of its time budget .*the key's window had 59 of 100000 requests left/,
  );
  const printed = renderPretty(report, { color: false });
  expect(printed).not.toContain('conformant (exit 0)');
  expect(printed).toContain('Nothing was judged');
});

// The suite as a good citizen, against real servers on an injected clock (no real waiting): it paces
// itself under the key's limit, probes the limit only when asked, and stops before a ban.
import { afterEach, expect, test } from 'vitest';
import type { ContractOptions } from '../contract-tests/index.js';
import { type FakeClock, fakeClock, runOnClock } from './servers/fake-clock.js';
import { createReference, type Handler, type Served, serve } from './servers/reference.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

async function runAgainst(handler: Handler, clock: FakeClock, extra: Partial<ContractOptions> = {}) {
  served = await serve(handler);
  return runOnClock(served.url, clock, { seed: 3, examples: 5, ...extra });
}

test('against a 60-a-minute key the run spends the window to its margin, waits for the reset, and never meets a 429', async () => {
  const clock = fakeClock();
  const { report, statuses } = await runAgainst(createReference({ perMinute: 60, now: clock.now }), clock);
  expect(report.exitCode).toBe(0);
  expect(report.maxRpm).toBe(60);
  expect(statuses).not.toContain(429);
  // More than one window's worth: it waited for the first window's reset (30 s ahead), then went on.
  expect(report.requests).toBeGreaterThan(57);
  expect(clock.sleeps.some((ms) => ms >= 29_000 && ms <= 31_000)).toBe(true);
});

test('--probe-rate-limit exhausts the window, sees 429 + Retry-After + Remaining 0, and the recovery', async () => {
  const clock = fakeClock();
  const { report, statuses } = await runAgainst(createReference({ perMinute: 10, now: clock.now }), clock, {
    checks: ['rate_limit_behaviour'],
    probeRateLimit: true,
  });
  expect(report.results.find((result) => result.check === 'rate_limit_behaviour')?.outcome).toBe('passed');
  expect(report.exitCode).toBe(0);
  // Exactly one request sent while limited.
  expect(statuses.filter((status) => status === 429)).toHaveLength(1);
  expect(statuses.at(-1)).toBe(200);
});

test('--probe-rate-limit fails rate_limit_behaviour on a server that never recovers', async () => {
  const clock = fakeClock();
  const handler = createReference({ perMinute: 10, now: clock.now, quirks: { neverRecover: true } });
  const { report } = await runAgainst(handler, clock, {
    checks: ['rate_limit_behaviour'],
    probeRateLimit: true,
  });
  expect(report.exitCode).toBe(1);
  expect(report.findings.map((finding) => [finding.check, finding.status])).toEqual([
    ['rate_limit_behaviour', 429],
  ]);
  expect(report.findings[0]?.message).toMatch(/still 429 after waiting Retry-After/);
});

test('--probe-rate-limit on a 429 without Retry-After: response_headers_conformance fails, once; rate_limit_behaviour says it could not judge', async () => {
  const clock = fakeClock();
  const reference = createReference({ perMinute: 10, now: clock.now });
  const handler: Handler = (request) => {
    const response = reference(request);
    delete response.headers['retry-after'];
    return response;
  };
  const { report } = await runAgainst(handler, clock, {
    probeRateLimit: true,
    checks: ['rate_limit_behaviour', 'response_headers_conformance'],
  });
  const failed = report.results.filter((result) => result.outcome === 'failed').map((result) => result.check);
  expect(new Set(failed)).toEqual(new Set(['response_headers_conformance']));
  // One fault, one finding: the documented header missing on the 429, not the probe's too.
  expect(report.findings.map((finding) => [finding.check, finding.status, finding.message])).toEqual([
    ['response_headers_conformance', 429, 'Retry-After is missing'],
  ]);
  expect(report.results.find((result) => result.check === 'rate_limit_behaviour')).toMatchObject({
    outcome: 'skipped',
    reason:
      "not judged: the 429 has no Retry-After (response_headers_conformance's finding), so the probe cannot tell when the target answers again",
  });
  expect(report.exitCode).toBe(1);
});

test('--probe-rate-limit on an empty X-RateLimit-Remaining says so, rather than reading it as 0', async () => {
  const clock = fakeClock();
  const reference = createReference({ perMinute: 10, now: clock.now });
  const handler: Handler = (request) => {
    const response = reference(request);
    response.headers['x-ratelimit-remaining'] = '';
    return response;
  };
  const { report, statuses } = await runAgainst(handler, clock, {
    probeRateLimit: true,
    checks: ['rate_limit_behaviour'],
  });
  expect(report.findings.map((finding) => [finding.check, finding.message])).toEqual([
    ['rate_limit_behaviour', 'no X-RateLimit-Remaining to know how far the window goes'],
  ]);
  expect(statuses).not.toContain(429);
});

test('the probe is opt-in: without --probe-rate-limit no window is exhausted', async () => {
  const clock = fakeClock();
  const { report, statuses } = await runAgainst(createReference({ perMinute: 10, now: clock.now }), clock);
  expect(statuses).not.toContain(429);
  expect(report.results.find((result) => result.check === 'rate_limit_behaviour')).toMatchObject({
    outcome: 'skipped',
    reason: 'opt-in: run with --probe-rate-limit',
  });
});

test('a server that answers 429 to everything stops the run with exit 2 before a ban', async () => {
  const clock = fakeClock();
  const handler: Handler = () => ({
    status: 429,
    headers: {
      'content-type': 'application/json',
      'retry-after': '2',
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(Math.ceil(clock.now() / 1000) + 2),
    },
    body: JSON.stringify({ code: 'rate_limited', message: 'Slow down.', status: 429 }),
  });
  const { report, statuses } = await runAgainst(handler, clock);
  expect(report.exitCode).toBe(2);
  expect(report.aborted?.code).toBe('ban_risk');
  // The JSON names the request that made it stop, key redacted.
  expect(report.aborted?.curl).toMatch(/^curl -i .*\/v1\/pets.*\$API_KEY/);
  // The API bans a key after more than 10 requests while limited.
  expect(statuses.length).toBeLessThanOrEqual(4);
  // Every retry waited at least Retry-After.
  expect(clock.sleeps.filter((ms) => ms >= 2000)).toHaveLength(3);
});

test('a 429 to the probes without a key (the anonymous bucket) neither stops the run nor blames the key: auth_enforced is reported not verified', async () => {
  const clock = fakeClock();
  const { report, statuses } = await runAgainst(
    createReference({ perMinute: 100_000, anonymousPerMinute: 2, now: clock.now }),
    clock,
  );
  expect(report.aborted).toBeNull();
  expect(report.exitCode).toBe(0);
  expect(report.findings).toEqual([]);
  const auth = report.results.filter((result) => result.check === 'auth_enforced');
  expect(auth.length).toBeGreaterThan(0);
  for (const result of auth) {
    expect(result.outcome).toBe('skipped');
    expect(result.reason).toMatch(
      /^not verified: the target throttles unauthenticated requests from this address \(429, Retry-After: \d+\)$/,
    );
  }
  // Every other check ran to a verdict.
  expect(report.results.filter((r) => r.check === 'not_found' || r.check === 'use_after_create')).toEqual(
    expect.arrayContaining([expect.objectContaining({ outcome: 'passed' })]),
  );
  // Never retried nor pushed: one 429, then no request without a key; the one wait was for the
  // anonymous window's reset, within the time budget.
  expect(statuses.filter((status) => status === 429)).toHaveLength(1);
  expect(clock.sleeps.filter((ms) => ms >= 1000).length).toBeLessThanOrEqual(1);
});

test('--probe-rate-limit with response_headers_conformance: an operation the probe sends nothing to is skipped for that, not for "no conclusive case"', async () => {
  const clock = fakeClock();
  const { report } = await runAgainst(createReference({ perMinute: 10, now: clock.now }), clock, {
    probeRateLimit: true,
    checks: ['rate_limit_behaviour', 'response_headers_conformance'],
  });
  const headers = report.results.filter((result) => result.check === 'response_headers_conformance');
  expect(headers.map((result) => [result.operationId, result.outcome, result.reason])).toEqual([
    ['listPets', 'passed', undefined],
    ['createPet', 'skipped', 'no request of createPet was sent by the checks selected'],
    ['getPet', 'skipped', 'no request of getPet was sent by the checks selected'],
  ]);
});

test('--probe-rate-limit on a 429 whose Retry-After is in milliseconds: a finding that says when the window ends, not a skip for a wait too long', async () => {
  const clock = fakeClock();
  const reference = createReference({ perMinute: 10, now: clock.now });
  const handler: Handler = (request) => {
    const response = reference(request);
    if (response.status === 429)
      response.headers['retry-after'] = String(Number(response.headers['retry-after']) * 1000);
    return response;
  };
  const { report } = await runAgainst(handler, clock, {
    checks: ['rate_limit_behaviour'],
    probeRateLimit: true,
  });
  expect(report.exitCode).toBe(1);
  expect(report.findings.map((finding) => [finding.check, finding.status])).toEqual([
    ['rate_limit_behaviour', 429],
  ]);
  expect(report.findings[0]?.message).toMatch(
    /^Retry-After: 30000 asks to wait 30000 s, but the window ends in 30 s \(X-RateLimit-Reset \d+, after the 429's Date\): Retry-After in milliseconds\?$/,
  );
  expect(report.findings[0]?.curl).toMatch(/^curl -i '.*\/v1\/pets\?limit=1'/);
});

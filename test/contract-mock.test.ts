// The contract suite against petkit's own mock, started in-process on port 0: a clean verdict.
import { afterEach, expect, test } from 'vitest';
import { type ContractOptions, type Report, renderPretty, runContract } from '../contract-tests/index.js';
import { type RunningServer, startServer } from '../mocks/node-server.js';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const notPassed = (report: Report) =>
  report.results
    .filter((result) => result.outcome !== 'passed')
    .map((result) => `${result.check} × ${result.operationId}`);

test('against the mock: exit 0, no finding', async () => {
  server = await startServer({ port: 0, host: '127.0.0.1' });
  const report = await runContract({ baseUrl: server.url, apiKey: 'demo-enterprise', seed: 42 });
  if (report.findings.length > 0) throw new Error(renderPretty(report, { color: false }));
  expect(report.findings).toEqual([]);
  expect(report.exitCode).toBe(0);
  expect(notPassed(report)).toEqual(['rate_limit_behaviour × listPets', 'rate_limit_ban × listPets']);
});

test('against the mock, --read-only: exit 0, no finding, no POST in its journal', async () => {
  server = await startServer({ port: 0, host: '127.0.0.1' });
  const report = await runContract({
    baseUrl: server.url,
    apiKey: 'demo-enterprise',
    seed: 43,
    readOnly: true,
  });
  expect(report.findings).toEqual([]);
  expect(report.exitCode).toBe(0);
  const journal = (await (await fetch(`${server.origin}/__petkit/requests`)).json()) as unknown;
  expect(JSON.stringify(journal)).not.toMatch(/"method":"POST"/);
  expect(JSON.stringify(journal)).toMatch(/"method":"GET"/);
});

/** The suite with a Free key against a mock on a clock that the suite's waits move: no real waiting. */
async function probeMockWithFreeKey(options: Omit<ContractOptions, 'baseUrl' | 'apiKey'>): Promise<Report> {
  let now = Date.UTC(2026, 5, 1, 12, 0, 0);
  const clock = () => now;
  server = await startServer({ port: 0, host: '127.0.0.1', clock });
  return runContract({
    baseUrl: server.url,
    apiKey: 'demo-free',
    ...options,
    now: clock,
    sleep: async (ms) => {
      now += ms;
    },
  });
}

test('against the mock with a Free key, --probe-rate-limit: 429, Retry-After, Remaining 0, and the recovery', async () => {
  const report = await probeMockWithFreeKey({
    seed: 44,
    checks: ['rate_limit_behaviour', 'response_headers_conformance', 'status_code_conformance'],
    probeRateLimit: true,
  });
  if (report.findings.length > 0) throw new Error(renderPretty(report, { color: false }));
  expect(report.results.find((result) => result.check === 'rate_limit_behaviour')?.outcome).toBe('passed');
  expect(report.exitCode).toBe(0);
});

test('use_after_create × listPets is verified on a long-lived store: the pet is created with a status that does not fill a page', async () => {
  // 300 seeded pets, about 180 of them "available" (the example body's status): a filtered page of
  // 100 "available" pets could never show a new one.
  server = await startServer({ port: 0, host: '127.0.0.1', pets: 300 });
  const report = await runContract({ baseUrl: server.url, apiKey: 'demo-enterprise', seed: 44 });
  expect(report.findings).toEqual([]);
  const listed = report.results.find((r) => r.check === 'use_after_create' && r.operationId === 'listPets');
  expect(listed).toMatchObject({ outcome: 'passed' });
});

test('against the mock with a Free key, --probe-ban: the ban is api_key_banned with Retry-After to its end, and the key works after it', async () => {
  const report = await probeMockWithFreeKey({
    seed: 45,
    checks: ['rate_limit_ban', 'status_code_conformance', 'response_schema_conformance'],
    probeBan: true,
  });
  if (report.findings.length > 0) throw new Error(renderPretty(report, { color: false }));
  expect(report.results.find((result) => result.check === 'rate_limit_ban')?.outcome).toBe('passed');
  expect(report.exitCode).toBe(0);
});

// Against Prism (`prism mock openapi.yaml`): the suite runs to the end, and the checks a stateless
// mock without real keys or limits cannot satisfy are exactly the ones reported.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Report, renderPretty, runContract } from '../contract-tests/index.js';

let prism: ChildProcess | undefined;
let port = 0;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

beforeAll(async () => {
  port = await freePort();
  prism = spawn(
    process.execPath,
    [
      'node_modules/@stoplight/prism-cli/dist/index.js',
      'mock',
      'openapi.yaml',
      '-p',
      String(port),
      '-h',
      '127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await fetch(`http://127.0.0.1:${port}/pets`, { signal: AbortSignal.timeout(1000) });
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`Prism did not answer on port ${port} within 60 s.`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}, 70_000);

afterAll(async () => {
  if (prism?.exitCode === null) {
    const exited = new Promise((resolve) => prism?.once('exit', resolve));
    prism.kill('SIGTERM');
    await exited;
  }
});

/**
 * Prism repeats the example's fixed X-RateLimit-Reset (1795435260, 2026-11-23 12:01 UTC). The suite
 * runs on a clock that reads 2027 or later, so that the verdict is the same whatever day the test runs.
 */
const from2027 = Math.max(0, Date.UTC(2027, 0, 1) - Date.now());

test('against Prism: runs to the end (timeouts included) and reports exactly what a stateless mock cannot do', async () => {
  const report: Report = await runContract({
    // Prism serves the paths without the server URL's /v1.
    baseUrl: `http://127.0.0.1:${port}`,
    apiKey: 'any-key-prism-accepts',
    seed: 11,
    examples: 5,
    timeoutMs: 1500,
    maxRpm: 100_000,
    now: () => Date.now() + from2027,
  });
  const failed = [
    ...new Set(report.results.filter((r) => r.outcome === 'failed').map((r) => r.check)),
  ].sort();
  const warned = [
    ...new Set(report.results.filter((r) => r.outcome === 'warning').map((r) => r.check)),
  ].sort();
  if (process.env.PETKIT_SHOW_PRISM) console.log(renderPretty(report, { color: false }));
  expect(report.aborted).toBeNull();
  expect(report.exitCode).toBe(1);
  expect(failed).toEqual([
    'auth_enforced',
    'deprecation_signalled',
    'error_body_consistency',
    'http_semantics',
    'list_semantics',
    'negative_data_rejection',
    'not_found',
    'positive_data_acceptance',
    'response_headers_conformance',
    'use_after_create',
  ]);
  // Deprecation: true on getPet's 200 is now an error (the document requires an RFC 9745 @-date there);
  // the missing Sunset on its 401, where the document leaves it out, stays a warning of the same pair.
  expect(warned).toEqual([]);
  expect(report.findings).toContainEqual(
    expect.objectContaining({ check: 'deprecation_signalled', status: 200, severity: 'error' }),
  );
  expect(report.findings).toContainEqual(
    expect.objectContaining({ check: 'deprecation_signalled', status: 401, severity: 'warning' }),
  );
  // Prism answers the key under a lower-case `bearer` with 401 (RFC 9110: the scheme is case-insensitive).
  expect(report.findings).toContainEqual(
    expect.objectContaining({ check: 'auth_enforced', message: expect.stringMatching(/lower-case scheme/) }),
  );
  // HTTP beneath the contract, each with the RFC sentence it departs from: no Allow on its 405, and
  // Deprecation: true (not an RFC 9651 Date) wherever it sends Deprecation.
  expect(report.findings).toContainEqual(
    expect.objectContaining({
      check: 'http_semantics',
      status: 405,
      because: [expect.objectContaining({ kind: 'rfc', cite: 'RFC 9110 §15.5.6' })],
    }),
  );
  expect(report.findings).toContainEqual(
    expect.objectContaining({
      check: 'http_semantics',
      instancePath: '/headers/Deprecation',
      because: [expect.objectContaining({ kind: 'rfc', cite: 'RFC 9745 §2.1' })],
    }),
  );
  expect(
    [
      ...new Set(report.findings.filter((f) => f.check === 'http_semantics').map((f) => f.instancePath)),
    ].sort(),
  ).toEqual(['/headers/Allow', '/headers/Deprecation']);
  // Derived spellings openapi.yaml refuses are answered 200: limit=1.0, petId 1.0.
  expect(report.findings).toContainEqual(
    expect.objectContaining({
      check: 'negative_data_rejection',
      message: expect.stringMatching(/^limit=1\.0 /),
    }),
  );
  // Any id is 200 with the example pet: for 2^53-1, an id no store reaches, that is not_found's.
  expect(report.findings).toContainEqual(
    expect.objectContaining({
      check: 'not_found',
      status: 200,
      message: expect.stringMatching(/^an id no pet has \(9007199254740991\): got 200/),
    }),
  );
  // Prism never answers a malformed JSON body: the suite's timeout, for real.
  expect(report.findings).toContainEqual(
    expect.objectContaining({ check: 'negative_data_rejection', status: null, response: null }),
  );
}, 60_000);

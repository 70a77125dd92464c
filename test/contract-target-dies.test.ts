// A target that stops answering mid-run: gone (ECONNREFUSED), the run stops with exit 2; silent (every
// request waits its whole --timeout), the run stops after three in a row with one finding (exit 1).
// Either way it says so, rather than turning every later request into a "no response" finding.
import { afterEach, expect, test } from 'vitest';
import { runContract } from '../contract-tests/index.js';
import { HOSTILE_SERVERS, serveHostile } from './servers/hostile.js';
import { createReference, REFERENCE_KEY, type Served, serve } from './servers/reference.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.close().catch(() => undefined);
  served = undefined;
});

test('the target stops answering after 30 requests: exit 2, "stopped answering (ECONNREFUSED) after N requests", no stray findings', async () => {
  const reference = createReference();
  let count = 0;
  let closing: Promise<void> | undefined;
  served = await serve((request) => {
    count += 1;
    const response = reference(request);
    if (count === 30) {
      const server = served;
      // After this answer has gone out, nothing listens any more.
      setTimeout(() => {
        closing = server?.close();
      }, 20);
    }
    return response;
  });
  const report = await runContract({ baseUrl: served.url, apiKey: REFERENCE_KEY, seed: 1, examples: 5 });
  await closing;
  served = undefined;
  expect(report.exitCode).toBe(2);
  expect(report.aborted?.code).toBe('unreachable');
  expect(report.aborted?.message).toMatch(
    /^The target stopped answering \(ECONNREFUSED\) after \d+ requests/,
  );
  expect(report.aborted?.curl).toMatch(/^curl -i /);
  expect(report.findings.filter((finding) => finding.response === null)).toEqual([]);
});

test('the target answers once, then never again: 3 requests in a row unanswered stop the run (exit 1, one finding), the rest not judged', async () => {
  const silent = HOSTILE_SERVERS.find((server) => server.name === 'silent-after-first-answer');
  if (silent === undefined) throw new Error('silent-after-first-answer missing');
  served = await serveHostile(silent);
  const started = Date.now();
  const report = await runContract({
    baseUrl: served.url,
    apiKey: REFERENCE_KEY,
    seed: 1,
    examples: 5,
    timeoutMs: 200,
  });
  const elapsed = Date.now() - started;
  // The preflight's answer, then three requests that each waited the whole --timeout.
  expect(report.requests).toBe(4);
  expect(elapsed).toBeLessThan(3000);
  expect(report.exitCode).toBe(1);
  expect(report.verdict).toBe('nonconformant');
  expect(report.aborted).toBeNull();
  expect(report.findings).toHaveLength(1);
  expect(report.findings[0]).toMatchObject({
    check: 'not_a_server_error',
    status: null,
    response: null,
    curl: expect.stringMatching(/^curl -i /),
  });
  expect(report.findings[0]?.message).toMatch(
    /^the target stopped answering: no response to 3 requests in a row \(each waited the --timeout, 200 ms\) after 1 answered; the rest of the run was not judged$/,
  );
  expect(report.results.filter((result) => result.outcome === 'passed')).toEqual([]);
  const failed = report.results.filter((result) => result.outcome === 'failed');
  expect(failed.map((result) => result.check)).toEqual(['not_a_server_error']);
  for (const result of report.results.filter(
    (candidate) => candidate.outcome === 'skipped' && !/opt-in/.test(candidate.reason ?? ''),
  )) {
    expect(result.reason).toBe('not judged: the target stopped answering after 1 answered request');
  }
});

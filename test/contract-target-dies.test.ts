// A target that stops answering mid-run: the run stops with exit 2 and says so, rather than turning
// every later request into a "no response" finding.
import { afterEach, expect, test } from 'vitest';
import { runContract } from '../contract-tests/index.js';
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

// Each server of broken-model.ts is caught with the model on, and missed with it off: the model is
// what finds it, on seeds 7, 1234 and -99001.
import { afterEach, expect, test } from 'vitest';
import { runContract } from '../contract-tests/index.js';
import { METHOD_IDS } from '../contract-tests/model/types.js';
import { BROKEN_MODEL_SERVERS } from './servers/broken-model.js';
import { fakeClock } from './servers/fake-clock.js';
import { REFERENCE_KEY, type Served, serve } from './servers/reference.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

const failed = (results: readonly { check: string; outcome: string }[]) =>
  [...new Set(results.filter((result) => result.outcome === 'failed').map((result) => result.check))].sort();

test('there are at least 2 of them', () => {
  expect(BROKEN_MODEL_SERVERS.length).toBeGreaterThanOrEqual(2);
});

const cases = BROKEN_MODEL_SERVERS.flatMap((server) =>
  [7, 1234, -99_001].flatMap((seed) => [true, false].map((model) => ({ ...server, seed, model }))),
);
test.each(cases)('$name, seed $seed, model on: $model', async (server) => {
  const clock = fakeClock();
  served = await serve(server.handler(clock));
  const report = await runContract({
    baseUrl: served.url,
    apiKey: REFERENCE_KEY,
    seed: server.seed,
    examples: 3,
    ...(server.model ? {} : { methods: METHOD_IDS.filter((method) => method !== 'model') }),
  });
  expect(report.aborted).toBeNull();
  if (server.model) {
    expect(failed(report.results)).toEqual([...server.fails].sort());
    expect(report.exitCode).toBe(1);
    // Every finding says why.
    for (const finding of report.findings) expect(finding.because?.length ?? 0).toBeGreaterThan(0);
  } else {
    expect(failed(report.results)).toEqual([]);
    expect(report.exitCode).toBe(0);
  }
});

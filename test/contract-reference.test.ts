import { afterEach, expect, test } from 'vitest';
import { runContract } from '../contract-tests/index.js';
import { createReference, REFERENCE_KEY, type Served, serve } from './servers/reference.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

test('a server that keeps the contract gets a clean verdict: exit 0, no finding', async () => {
  served = await serve(createReference());
  const report = await runContract({ baseUrl: served.url, apiKey: REFERENCE_KEY, seed: 42 });
  expect(report.findings).toEqual([]);
  expect(report.exitCode).toBe(0);
  expect(
    report.results.filter((result) => result.outcome !== 'passed').map((r) => `${r.check}×${r.operationId}`),
  ).toEqual(['rate_limit_behaviour×listPets', 'rate_limit_ban×listPets']);
});

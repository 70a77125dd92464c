// Against a shared staging service that keeps the contract (pets before the run, another client of the
// same key creating pets and spending its window meanwhile): the model widens, never guesses, so the
// verdict is clean whatever the seed, read-only too, and at a Free key's 60 a minute.
import { afterEach, expect, test } from 'vitest';
import { runContract } from '../contract-tests/index.js';
import { fakeClock } from './servers/fake-clock.js';
import { REFERENCE_KEY, type Served, serve } from './servers/reference.js';
import { createStaging } from './servers/staging.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

test.each([7, 1234, -99_001])('seed %i: exit 0 and no finding while another client writes', async (seed) => {
  const staging = createStaging({ seed });
  served = await serve(staging.handler);
  const report = await runContract({ baseUrl: served.url, apiKey: REFERENCE_KEY, seed, examples: 5 });
  expect(report.findings).toEqual([]);
  expect(report.exitCode).toBe(0);
  // The other client did write while the suite ran.
  expect(staging.others.created).toBeGreaterThan(10);
});

test('--read-only: exit 0 and no finding', async () => {
  const staging = createStaging({ seed: 7 });
  served = await serve(staging.handler);
  const report = await runContract({ baseUrl: served.url, apiKey: REFERENCE_KEY, seed: 7, readOnly: true });
  expect(report.findings).toEqual([]);
  expect(report.exitCode).toBe(0);
  expect(staging.others.created).toBeGreaterThan(5);
});

test('at 60 a minute, the other client spending the same window: exit 0 and no finding', async () => {
  const clock = fakeClock();
  const staging = createStaging({ seed: 7, clock, perMinute: 60 });
  served = await serve(staging.handler);
  const report = await runContract({
    baseUrl: served.url,
    apiKey: REFERENCE_KEY,
    seed: 7,
    now: clock.now,
    sleep: clock.sleep,
    random: () => 0.5,
  });
  expect(report.findings).toEqual([]);
  expect(report.exitCode).toBe(0);
  expect(staging.others.spent).toBeGreaterThan(5);
});

// positive_data_acceptance sends every kind of case docs/contract.md names for createPet in one run:
// the NewPet boundaries, the example as `application/json; charset=utf-8` and the example padded to
// exactly 16 KiB. A failing kind does not keep the others from being sent: each failing kind is its own
// finding, so a team that fixes one does not meet the next only on the rerun.
import { afterEach, expect, test } from 'vitest';
import type { Report } from '../contract-tests/index.js';
import { runContract } from '../contract-tests/index.js';
import { fakeClock, runOnClock } from './servers/fake-clock.js';
import { createReference, REFERENCE_KEY, type Served, serve } from './servers/reference.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** Trims names, refuses a charset parameter and refuses a body of exactly 16 KiB: three bugs at once. */
const quirks = { trimNames: true, refuseMediaTypeParameters: true, bodyLimitInclusive: true } as const;

const positive = (report: Report) =>
  report.findings
    .filter((f) => f.check === 'positive_data_acceptance' && f.operationId === 'createPet')
    .map((f) => f.message);

const expectEveryKind = (report: Report) => {
  const messages = positive(report);
  expect(messages).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^name came back as "Zoë .*" for body \{"name":" Zoë /),
      expect.stringMatching(/^a valid NewPet: got 415 for body .* sent as application\/json; charset=utf-8$/),
      expect.stringMatching(
        /^a valid NewPet: got 413 for body .* padded with white space to 16384 bytes, the limit$/,
      ),
    ]),
  );
  // One finding per failing kind: the 415 and the 413 are each said once.
  expect(messages.filter((m) => m.includes('got 415'))).toHaveLength(1);
  expect(messages.filter((m) => m.includes('got 413'))).toHaveLength(1);
};

test.each([7, 1234])(
  'a server that trims names, refuses a charset and a body of exactly 16 KiB gets all three reported in one run (seed %i)',
  async (seed) => {
    served = await serve(createReference({ quirks }));
    const report = await runContract({ baseUrl: served.url, apiKey: REFERENCE_KEY, seed, examples: 3 });
    expectEveryKind(report);
    expect(report.exitCode).toBe(1);
  },
);

test('on a key of 60 a minute, the three are reported within the default budget', async () => {
  const clock = fakeClock();
  served = await serve(createReference({ perMinute: 60, perDay: 1000, now: clock.now, quirks }));
  const { report, statuses } = await runOnClock(served.url, clock, { seed: 7 });
  expect(report.budget).toBe(114);
  expect(report.requests).toBeLessThanOrEqual(114);
  expect(statuses).not.toContain(429);
  expectEveryKind(report);
});

// A server whose pet ids are past 2^53 keeps the contract (int64 ids): the suite must keep its ids
// exactly, ask for the pets it was given, and find nothing.
import { afterEach, expect, test } from 'vitest';
import { runContract } from '../contract-tests/index.js';
import { BASE, createBigIdServer } from './servers/big-ids.js';
import { fakeClock } from './servers/fake-clock.js';
import { REFERENCE_KEY, type Served, serve } from './servers/reference.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

test.each([
  [7, ''],
  [1234, ''],
  [-99_001, ''],
  [7, '.0'],
])(
  'ids past 2^53 (seed %i, written with %j after their digits): a correct server is conformant, and the suite asks for its pets by their exact ids',
  async (seed, fraction) => {
    const clock = fakeClock();
    const paths: string[] = [];
    const handler = createBigIdServer({ now: clock.now }, fraction);
    served = await serve((request) => {
      paths.push(request.pathname);
      return handler(request);
    });
    const report = await runContract({
      baseUrl: served.url,
      apiKey: REFERENCE_KEY,
      seed,
      examples: 10,
      now: clock.now,
      sleep: clock.sleep,
      random: () => 0.5,
    });
    expect(
      report.findings.map((finding) => `${finding.check} · ${finding.operationId}: ${finding.message}`),
    ).toEqual([]);
    expect(report.exitCode).toBe(0);
    // The pets it was given, by their exact ids: 2^53 + 1 is 9007199254740993, which a double reads as …992.
    expect(paths).toContain(`/v1/pets/${BASE + 1n}`);
  },
);

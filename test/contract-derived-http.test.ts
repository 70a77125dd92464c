// The 'derived' and 'http' methods' broken servers: each caught with every method on, and missed with
// only its own method off (the ablation of test/contract-ablation.test.ts, for these two methods).
import { afterEach, describe, expect, test } from 'vitest';
import { runContract } from '../contract-tests/index.js';
import { METHOD_IDS } from '../contract-tests/model/types.js';
import { BROKEN_DERIVED_SERVERS } from './servers/broken-derived.js';
import { BROKEN_HTTP_SERVERS } from './servers/broken-http.js';
import { fakeClock } from './servers/fake-clock.js';
import { REFERENCE_KEY, type Served, serve } from './servers/reference.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

const failed = (results: readonly { check: string; outcome: string }[]) =>
  [...new Set(results.filter((r) => r.outcome === 'failed').map((r) => r.check))].sort();

describe('servers only the derived or the http method catches', () => {
  test('each method has at least two', () => {
    expect(BROKEN_DERIVED_SERVERS.length).toBeGreaterThanOrEqual(2);
    expect(BROKEN_HTTP_SERVERS.length).toBeGreaterThanOrEqual(2);
  });

  test.each(
    [...BROKEN_DERIVED_SERVERS, ...BROKEN_HTTP_SERVERS].flatMap((server) =>
      [true, false].map((on) => ({ ...server, on })),
    ),
  )('$name ($method on: $on)', async (server) => {
    const clock = fakeClock();
    served = await serve(server.handler(clock));
    const report = await runContract({
      baseUrl: served.url,
      apiKey: REFERENCE_KEY,
      seed: 7,
      examples: 3,
      ...server.runWith?.(clock),
      ...(server.on ? {} : { methods: METHOD_IDS.filter((m) => m !== server.method) }),
    });
    expect(report.aborted).toBeNull();
    expect(failed(report.results)).toEqual(server.on ? [...server.fails].sort() : []);
    expect(report.exitCode).toBe(server.on ? 1 : 0);
    expect(JSON.stringify(report)).not.toContain(REFERENCE_KEY);
  });
});

describe('an admitted spelling of the path id refused', () => {
  const server = BROKEN_DERIVED_SERVERS.find((candidate) => candidate.name === 'refuses-percent-encoded-id');
  const run = async (options: { checks?: string[]; skip?: string[] }) => {
    if (server === undefined) throw new Error('refuses-percent-encoded-id missing');
    served = await serve(server.handler());
    return runContract({ baseUrl: served.url, apiKey: REFERENCE_KEY, seed: 7, examples: 3, ...options });
  };
  const refused = expect.objectContaining({
    check: 'positive_data_acceptance',
    operationId: 'getPet',
    status: 400,
    message: expect.stringMatching(/^petId %\d+ \(percent-encoded digits\): got 400/),
  });

  test("is positive_data_acceptance's alone: one exchange, one finding", async () => {
    const report = await run({});
    expect(report.findings).toEqual([refused]);
    expect(report.exitCode).toBe(1);
  });

  test.each([{ skip: ['negative_data_rejection'] }, { checks: ['positive_data_acceptance'] }])(
    'is sent and caught without negative_data_rejection (%o)',
    async (options) => {
      const report = await run(options);
      expect(report.findings).toEqual([refused]);
      expect(report.exitCode).toBe(1);
    },
  );
});

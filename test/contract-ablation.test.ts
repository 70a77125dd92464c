// Proof by ablation (issue 20): each method of the suite has broken servers that only it catches. With
// every method on, the run fails on exactly the checks the server names (exit 1); with only that
// server's method off, the same run passes (exit 0). The servers come from each method's own list.
import { describe, expect, test } from 'vitest';
import { runContract } from '../contract-tests/index.js';
import { METHOD_IDS, type MethodId } from '../contract-tests/model/types.js';
import { BROKEN_DERIVED_SERVERS } from './servers/broken-derived.js';
import { BROKEN_HTTP_SERVERS } from './servers/broken-http.js';
import { BROKEN_MODEL_SERVERS } from './servers/broken-model.js';
import { BROKEN_SEQUENCES_SERVERS } from './servers/broken-sequences.js';
import { fakeClock } from './servers/fake-clock.js';
import type { MethodBrokenServer } from './servers/method-broken.js';
import { REFERENCE_KEY, serve } from './servers/reference.js';

const SERVERS: readonly MethodBrokenServer[] = [
  ...BROKEN_MODEL_SERVERS,
  ...BROKEN_SEQUENCES_SERVERS,
  ...BROKEN_DERIVED_SERVERS,
  ...BROKEN_HTTP_SERVERS,
];
const SEEDS = [7, 1234, -99_001];

const failedChecks = (results: readonly { check: string; outcome: string }[]) =>
  [...new Set(results.filter((result) => result.outcome === 'failed').map((result) => result.check))].sort();

async function run(server: MethodBrokenServer, seed: number, methods?: readonly MethodId[]) {
  const clock = fakeClock();
  const served = await serve(server.handler(clock));
  try {
    return await runContract({
      baseUrl: served.url,
      apiKey: REFERENCE_KEY,
      seed,
      examples: seed === 7 ? 10 : 3,
      ...server.runWith?.(clock),
      ...(methods === undefined ? {} : { methods }),
    });
  } finally {
    await served.close();
  }
}

test('the sequences method has at least two servers of its own', () => {
  expect(
    BROKEN_SEQUENCES_SERVERS.filter((server) => server.method === 'sequences').length,
  ).toBeGreaterThanOrEqual(2);
  expect(new Set(SERVERS.map((server) => server.name)).size).toBe(SERVERS.length);
});

describe.each(SERVERS.flatMap((server) => SEEDS.map((seed) => ({ ...server, seed }))))(
  '$name (method $method, seed $seed): $breaks',
  (server) => {
    test('caught with every method on', async () => {
      const report = await run(server, server.seed);
      expect(report.aborted).toBeNull();
      expect(failedChecks(report.results)).toEqual([...server.fails].sort());
      expect(report.exitCode).toBe(1);
      expect(JSON.stringify(report)).not.toContain(REFERENCE_KEY);
    });
    test(`missed with only ${server.method} off`, async () => {
      const report = await run(
        server,
        server.seed,
        METHOD_IDS.filter((method) => method !== server.method),
      );
      expect(report.aborted).toBeNull();
      expect(failedChecks(report.results)).toEqual([]);
      expect(report.exitCode).toBe(0);
    });
  },
);

// The contract suite's own conformance suite: each broken server is caught by the check that exists
// for it, and the other checks stay quiet.
import { afterEach, describe, expect, test } from 'vitest';
import { runContract } from '../contract-tests/index.js';
import { BROKEN_SERVERS } from './servers/broken.js';
import { REFERENCE_KEY, type Served, serve } from './servers/reference.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

const ids = (results: readonly { check: string; outcome: string }[], outcome: string) =>
  [...new Set(results.filter((result) => result.outcome === outcome).map((result) => result.check))].sort();

describe('against a server broken in one way', () => {
  test('there are at least 15 of them, each breaking something else', () => {
    expect(BROKEN_SERVERS.length).toBeGreaterThanOrEqual(15);
    expect(new Set(BROKEN_SERVERS.map((server) => server.name)).size).toBe(BROKEN_SERVERS.length);
  });

  test.each(BROKEN_SERVERS)('$name ($breaks): caught by $fails, the others quiet', async (server) => {
    served = await serve(server.handler());
    const report = await runContract({ baseUrl: served.url, apiKey: REFERENCE_KEY, seed: 7, examples: 10 });
    expect(report.aborted).toBeNull();
    expect(ids(report.results, 'failed')).toEqual([...server.fails].sort());
    expect(ids(report.results, 'warning')).toEqual([...(server.warns ?? [])].sort());
    expect(report.exitCode).toBe(server.fails.length > 0 ? 1 : 0);
    expect(JSON.stringify(report)).not.toContain(REFERENCE_KEY);
    for (const finding of report.findings) expect(finding.curl).toMatch(/^curl -i /);
  });
});

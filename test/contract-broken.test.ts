// The contract suite's own conformance suite: each broken server is caught by the check that exists
// for it, and the other checks stay quiet.
import { afterEach, describe, expect, test } from 'vitest';
import { CHECK_IDS, runContract } from '../contract-tests/index.js';
import { BROKEN_SERVERS } from './servers/broken.js';
import { fakeClock } from './servers/fake-clock.js';
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

  test('every class of departure (issue 10) has broken servers of its own', () => {
    const names = new Set(BROKEN_SERVERS.map((server) => server.name));
    const classes: Record<string, string[]> = {
      lists: ['limit-one-too-many-above-default', 'filters-first-page-only', 'created-pets-listed-first'],
      'rate-limit headers': ['remaining-frozen', 'reset-at-window-start'],
      'the probe': ['limit-one-early', 'headers-describe-day-window', 'rate-limited-as-text-plain'],
      'the ban': [
        'ban-retry-after-of-window',
        'ban-without-retry-after',
        'bans-without-limiting',
        'bans-at-the-first-limited-request',
      ],
      auth: ['basic-challenge', 'scheme-case-sensitive', 'key-case-insensitive'],
      createPet: [
        'accepts-array-body',
        'refuses-charset',
        'body-limit-one-byte-early',
        'racy-ids',
        'location-elsewhere',
        'location-other-origin',
        'location-network-path',
      ],
      errors: ['errors-as-problem-json', 'error-codes-upper-case'],
      deprecation: ['wrong-sunset', 'deprecation-true', 'no-deprecation-on-404', 'link-without-successor'],
    };
    for (const [name, servers] of Object.entries(classes)) {
      expect(
        servers.filter((server) => !names.has(server)),
        name,
      ).toEqual([]);
    }
  });

  test('every check id is tripped by at least one of them', () => {
    const tripped = new Set(BROKEN_SERVERS.flatMap((server) => [...server.fails, ...(server.warns ?? [])]));
    expect(CHECK_IDS.filter((id) => !tripped.has(id))).toEqual([]);
  });

  // Every break is caught whatever the seed: the cases that catch it are sent every time, the random
  // ones only add to them. Three seeds each (few random cases, so that the boundaries do the work).
  const SEEDS = [7, 1234, -99_001];
  test.each(BROKEN_SERVERS.flatMap((server) => SEEDS.map((seed) => ({ ...server, seed }))))(
    '$name ($breaks), seed $seed: caught by $fails, the others quiet',
    async (server) => {
      const clock = fakeClock();
      served = await serve(server.handler(clock));
      const report = await runContract({
        baseUrl: served.url,
        apiKey: REFERENCE_KEY,
        seed: server.seed,
        examples: server.seed === 7 ? 10 : 3,
        ...server.runWith?.(clock),
      });
      expect(report.aborted).toBeNull();
      expect(ids(report.results, 'failed')).toEqual([...server.fails].sort());
      expect(ids(report.results, 'warning')).toEqual([...(server.warns ?? [])].sort());
      expect(report.exitCode).toBe(server.fails.length > 0 ? 1 : 0);
      expect(JSON.stringify(report)).not.toContain(REFERENCE_KEY);
      for (const finding of report.findings) expect(finding.curl).toMatch(/^curl -i /);
    },
  );
});

test('one bug in every item of a list is one finding, with its paths listed and counted', async () => {
  const server = BROKEN_SERVERS.find((candidate) => candidate.name === 'string-ids');
  if (server === undefined) throw new Error('string-ids missing');
  served = await serve(server.handler());
  const report = await runContract({ baseUrl: served.url, apiKey: REFERENCE_KEY, seed: 7, examples: 10 });
  const onList = report.findings.filter(
    (finding) => finding.check === 'response_schema_conformance' && finding.operationId === 'listPets',
  );
  expect(onList).toHaveLength(1);
  expect(onList[0]?.instancePaths).toEqual(expect.arrayContaining(['/0/id', '/1/id', '/2/id']));
  expect(onList[0]?.occurrences).toBeGreaterThanOrEqual(onList[0]?.instancePaths.length ?? 0);
});

test('negative_data_rejection says what is invalid, one finding per failing kind of case', async () => {
  const server = BROKEN_SERVERS.find((candidate) => candidate.name === 'drops-unknown-properties');
  if (server === undefined) throw new Error('drops-unknown-properties missing');
  served = await serve(server.handler());
  const report = await runContract({ baseUrl: served.url, apiKey: REFERENCE_KEY, seed: 7, examples: 10 });
  const negative = report.findings.filter((finding) => finding.check === 'negative_data_rejection');
  expect(negative.map((finding) => finding.message)).toEqual(
    expect.arrayContaining([expect.stringMatching(/got 201 for unknown property id/)]),
  );
});

test('a getPet that makes up a pet for an unknown id fails not_found, naming the lookup, not the creates after it', async () => {
  const server = BROKEN_SERVERS.find((candidate) => candidate.name === 'invents-unknown-pets');
  if (server === undefined) throw new Error('invents-unknown-pets missing');
  served = await serve(server.handler());
  const report = await runContract({ baseUrl: served.url, apiKey: REFERENCE_KEY, seed: 7, examples: 3 });
  expect(report.findings).toContainEqual(
    expect.objectContaining({
      check: 'not_found',
      operationId: 'getPet',
      status: 200,
      message: expect.stringMatching(/^an id no pet has \(9007199254740991\): got 200/),
      expected: expect.stringMatching(
        /^404: it is more than 2\^32 above twice the largest id any answer showed/,
      ),
      curl: expect.stringMatching(/^curl -i '[^']*\/v1\/pets\/9007199254740991' /),
    }),
  );
  // Its made-up pets are not learnt: a create later given one of their ids is not blamed for it.
  expect(report.findings.filter((finding) => finding.check !== 'not_found')).toEqual([]);
  // Read-only, where nothing is created, the same.
  const readOnly = await runContract({
    baseUrl: served.url,
    apiKey: REFERENCE_KEY,
    seed: 7,
    examples: 3,
    readOnly: true,
  });
  expect([...new Set(readOnly.findings.map((finding) => finding.check))]).toEqual(['not_found']);
});

test('a list that repeats a pet is not the measure of the others: every finding is on an answer that repeats one, none on a list that is right', async () => {
  const server = BROKEN_SERVERS.find((candidate) => candidate.name === 'repeats-first-pet');
  if (server === undefined) throw new Error('repeats-first-pet missing');
  served = await serve(server.handler());
  const report = await runContract({ baseUrl: served.url, apiKey: REFERENCE_KEY, seed: 7, examples: 3 });
  expect(report.findings.length).toBeGreaterThan(0);
  for (const finding of report.findings) {
    // Full pages (limit 1, limit 2) come back right: [1], [1, 2]. Only a short page repeats its first pet.
    expect(finding.response?.bodyExcerpt).toMatch(/^\[(\{"id":\d+,[^}]*\}),\1/);
    expect(finding.message).not.toMatch(/where the list/);
  }
});

test('a Location that echoes the key is judged on what the target sent: it carries a query, not "a space" of the marker that hides the key', async () => {
  const server = BROKEN_SERVERS.find((candidate) => candidate.name === 'location-echoes-key');
  if (server === undefined) throw new Error('location-echoes-key missing');
  served = await serve(server.handler());
  const report = await runContract({ baseUrl: served.url, apiKey: REFERENCE_KEY, seed: 7, examples: 3 });
  const findings = report.findings.filter((finding) => finding.check === 'response_headers_conformance');
  expect(findings.length).toBeGreaterThan(0);
  for (const finding of findings) {
    expect(finding.message).toMatch(
      /^Location: \/v1\/pets\/\d+\?key=\[API_KEY, upper-cased\] carries a query: the created pet's path is \/v1\/pets\/\d+$/,
    );
    expect(finding.curl).toMatch(/^curl -i -X POST '[^']*\/v1\/pets' /);
  }
  expect(JSON.stringify(report)).not.toContain(REFERENCE_KEY);
});

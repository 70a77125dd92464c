// The stateful sequences end to end: a failing sequence shrunk, printed as a sh script that replays the
// failure with curl, the same for the same seed, within the phase's budget, the key nowhere.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { runContract } from '../contract-tests/index.js';
import { REQUESTS_PER_RUN } from '../contract-tests/sequences/budget.js';
import { BROKEN_SEQUENCES_SERVERS } from './servers/broken-sequences.js';
import { fakeClock } from './servers/fake-clock.js';
import { createReference, REFERENCE_KEY, type Served, serve } from './servers/reference.js';
import { testDir } from './support/temp-dir.js';

let served: Served[] = [];
afterEach(async () => {
  await Promise.all(served.map((one) => one.close()));
  served = [];
});

async function serveOne(name: string): Promise<Served> {
  const server = BROKEN_SEQUENCES_SERVERS.find((candidate) => candidate.name === name);
  if (server === undefined) throw new Error(`${name} missing`);
  const one = await serve(server.handler());
  served.push(one);
  return one;
}

async function scriptOf(url: string, seed: number) {
  const report = await runContract({ baseUrl: url, apiKey: REFERENCE_KEY, seed, examples: 3 });
  const finding = report.findings.find((candidate) => candidate.script !== undefined);
  return { report, finding, script: finding?.script ?? '' };
}

const runSh = (script: string, env: Record<string, string>) =>
  new Promise<string>((resolve, reject) => {
    const file = join(testDir('petkit-seq-'), 'replay.sh');
    writeFileSync(file, script);
    execFile('/bin/sh', [file], { env: { PATH: process.env.PATH ?? '', ...env } }, (error, stdout) =>
      error === null ? resolve(stdout) : reject(error),
    );
  });

test('a negative cache: the sequence is shrunk, and its script replays the 404 with sh and curl', async () => {
  const target = await serveOne('negative-cache');
  const { report, finding, script } = await scriptOf(target.url, 7);
  expect(report.exitCode).toBe(1);
  expect(finding?.check).toBe('use_after_create');
  expect(finding?.message).toMatch(
    /answered 404, at step \d of a sequence of [2-5] requests, shrunk from \d+/,
  );
  expect(script).toMatch(/^#!\/bin\/sh\n/);
  expect(script).toContain('\nset -u\n');
  expect(script).toContain(': "${API_KEY:?');
  // Ids come from the 201 bodies: the script replays on the store as it is now, grown since.
  expect(script).toMatch(/\nid\d=\$\(sed -n /);
  const out = await runSh(script, { API_KEY: REFERENCE_KEY, BASE: target.url });
  const steps = out.split('\n').filter((line) => line.startsWith('step '));
  expect(steps.at(-1)).toMatch(/^step \d: HTTP 404 \(expected 200\)$/);
  expect(JSON.stringify(report)).not.toContain(REFERENCE_KEY);
  expect(script).not.toContain(REFERENCE_KEY);
});

test('a list index a request late: the list without the new pet, one finding with its script', async () => {
  const target = await serveOne('list-index-one-request-late');
  const { report, finding, script } = await scriptOf(target.url, 1234);
  expect(report.exitCode).toBe(1);
  expect(finding?.operationId).toBe('listPets');
  expect(finding?.message).toMatch(/without pet \d+ \(created at step 1\)/);
  const out = await runSh(script, { API_KEY: REFERENCE_KEY, BASE: target.url });
  expect(out).toMatch(/step 1: HTTP 201 \(expected 201 or 507\)/);
});

test("a create that gives an earlier pet's id: the script, run alone, shows the id it got beside the one it must not be", async () => {
  // As Prism's mock does: every create answers the same id (the first one the store gave).
  const reference = createReference();
  let first: number | undefined;
  const target = await serve((request) => {
    const response = reference(request);
    if (request.method !== 'POST' || request.pathname !== '/v1/pets' || response.status !== 201)
      return response;
    const pet = JSON.parse(response.body) as { id: number };
    first ??= pet.id;
    response.body = JSON.stringify({ ...pet, id: first });
    return response;
  });
  served.push(target);
  const report = await runContract({ baseUrl: target.url, apiKey: REFERENCE_KEY, seed: 7, examples: 3 });
  const finding = report.findings.find(
    (candidate) => candidate.script !== undefined && candidate.message.startsWith('createPet gave id'),
  );
  expect(finding?.message).toMatch(
    new RegExp(
      `^createPet gave id ${first}, the id of pet ${first} \\(created earlier in the run\\), at step 1 of a sequence of 1 request.* \\(the script replays it, and checks that the id its create gets is not ${first}\\)$`,
    ),
  );
  const out = await runSh(finding?.script ?? '', { API_KEY: REFERENCE_KEY, BASE: target.url });
  const steps = out.split('\n').filter((line) => line.startsWith('step '));
  expect(steps).toEqual([
    'step 1: HTTP 201 (expected 201 or 507)',
    `step 1: id ${first} (expected an id other than ${first}, the id of pet ${first} (created earlier in the run))`,
  ]);
});

test('the same seed gives the same script', async () => {
  const [a, b] = [await serveOne('negative-cache'), await serveOne('negative-cache')];
  const first = await scriptOf(a.url, -99_001);
  const second = await scriptOf(b.url, -99_001);
  expect(first.script).not.toBe('');
  expect(second.script.replaceAll(b.url, a.url)).toBe(first.script);
});

test('on a 60-a-minute key the phase draws a sequence within its cap, and the reference passes', async () => {
  const clock = fakeClock();
  const target = await serve(createReference({ perMinute: 60, now: clock.now }));
  served.push(target);
  let inPhase = 0;
  const report = await runContract({
    baseUrl: target.url,
    apiKey: REFERENCE_KEY,
    seed: 7,
    now: clock.now,
    sleep: clock.sleep,
    random: () => 0.5,
    onProgress: (progress) => {
      if (progress.phase === 'sequences' && progress.exchange !== undefined) inPhase += 1;
    },
  });
  expect(report.exitCode).toBe(0);
  expect(inPhase).toBeGreaterThanOrEqual(1);
  expect(inPhase).toBeLessThanOrEqual(REQUESTS_PER_RUN);
});

test('--read-only: the sequences send no write and the reference passes', async () => {
  const target = await serve(createReference());
  served.push(target);
  const methods: string[] = [];
  const report = await runContract({
    baseUrl: target.url,
    apiKey: REFERENCE_KEY,
    seed: 7,
    readOnly: true,
    onProgress: (progress) => {
      if (progress.phase === 'sequences' && progress.exchange !== undefined)
        methods.push(progress.exchange.request.method);
    },
  });
  expect(report.exitCode).toBe(0);
  expect(methods.length).toBeGreaterThan(0);
  expect(methods.filter((method) => method !== 'GET')).toEqual([]);
});

import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { BROKEN_SEQUENCES_SERVERS } from '../../test/servers/broken-sequences.js';
import { REFERENCE_KEY, type Served, serve } from '../../test/servers/reference.js';
import { testDir } from '../../test/support/temp-dir.js';
import type { Exchange } from '../exchange.js';
import { type ScriptStep, toShScript } from './sh-script.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

const headers = { accept: 'application/json', authorization: 'Bearer $API_KEY' };
const exchange = (method: string, url: string, status: number, body?: string): Exchange =>
  ({
    operationId: method === 'POST' ? 'createPet' : 'getPet',
    request: {
      method,
      url,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body }),
    },
    response: { status, headers: {}, body: '' },
    durationMs: 1,
  }) as unknown as Exchange;

/** Looks an id up before a pet has it, creates the pet, looks it up again: what a negative cache fails. */
function steps(base: string): ScriptStep[] {
  const body = JSON.stringify({ name: "Rex 'the' $dog", categoryId: 1 });
  return [
    {
      exchange: exchange('POST', `${base}/pets`, 201, body),
      note: 'a pet, to count ids from',
      expected: '201',
      captureId: 'id1',
    },
    {
      exchange: exchange('GET', `${base}/pets/0`, 404),
      note: 'the next id, before any pet has it',
      expected: '200 or 404',
      shellPath: '/pets/$((id1 + 1))',
    },
    {
      exchange: exchange('POST', `${base}/pets`, 201, body),
      note: 'the pet that takes it',
      expected: '201',
      captureId: 'id3',
    },
    {
      exchange: exchange('GET', `${base}/pets/0`, 404),
      note: 'the pet created at step 3',
      expected: '200',
      shellPath: `/pets/\${id3}`,
    },
  ];
}

function write(script: string): string {
  const file = join(testDir('petkit-sh-'), 'replay.sh');
  writeFileSync(file, script);
  return file;
}

test('the script is POSIX sh that dash parses, with the key only as $API_KEY', () => {
  const script = toShScript({
    baseUrl: 'http://127.0.0.1:9/v1',
    title: 'a title',
    steps: steps('http://127.0.0.1:9/v1'),
  });
  expect(script).toMatch(/^#!\/bin\/sh\nset -u$|\nset -u\n/);
  expect(script).toContain(': "${API_KEY:?');
  expect(script).toContain('"$BASE/pets/$((id1 + 1))"');
  expect(spawnSync('dash', ['-n', write(script)]).status).toBe(0);
});

test('run by dash with curl against a negative cache, its last step shows the failing status', async () => {
  const server = BROKEN_SEQUENCES_SERVERS.find((candidate) => candidate.name === 'negative-cache');
  if (server === undefined) throw new Error('negative-cache missing');
  served = await serve(server.handler());
  const script = toShScript({ baseUrl: served.url, title: 'negative cache', steps: steps(served.url) });
  const out = await new Promise<string>((resolve, reject) => {
    // Asynchronously: the server answers in this process.
    import('node:child_process').then(({ execFile }) =>
      execFile(
        'dash',
        [write(script)],
        { env: { PATH: process.env.PATH ?? '', API_KEY: REFERENCE_KEY } },
        (error, stdout) => (error === null ? resolve(stdout) : reject(error)),
      ),
    );
  });
  const lines = out.split('\n').filter((line) => line.startsWith('step '));
  expect(lines).toEqual([
    'step 1: HTTP 201 (expected 201)',
    'step 2: HTTP 404 (expected 200 or 404)',
    'step 3: HTTP 201 (expected 201)',
    'step 4: HTTP 404 (expected 200)',
  ]);
  // The body sent kept its quotes and its $ through the shell.
  expect(out).toContain(`"name":"Rex 'the' $dog"`);
});

test('the id is captured from a pretty-printed 201 body too, and not from categoryId', () => {
  const script = toShScript({ baseUrl: 'http://x/v1', title: 't', steps: steps('http://x/v1').slice(0, 1) });
  const capture = script.split('\n').find((line) => line.startsWith('id1='));
  if (capture === undefined) throw new Error('no capture line');
  const dir = testDir('petkit-cap-');
  writeFileSync(join(dir, 'body'), '{\n  "categoryId": 7,\n  "id": 42,\n  "name": "Rex"\n}\n');
  const got = execFileSync('dash', ['-c', `out=${dir}/body; ${capture}; printf %s "$id1"`]).toString();
  expect(got).toBe('42');
});

test('without API_KEY the script stops at once and says why', () => {
  const script = toShScript({
    baseUrl: 'http://127.0.0.1:9/v1',
    title: 't',
    steps: steps('http://127.0.0.1:9/v1'),
  });
  const run = spawnSync('dash', [write(script)], { env: { PATH: process.env.PATH ?? '' } });
  expect(run.status).not.toBe(0);
  expect(run.stderr.toString()).toContain('API_KEY');
  expect(run.stdout.toString()).not.toContain('step 1');
});

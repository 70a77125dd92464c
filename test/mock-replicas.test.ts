// Two `petkit mock --state` processes on one PostgreSQL, behind no balancer at all: the requests of a
// run alternate between them, and the contract suite gives the clean verdict it gives one mock. Both
// processes read one clock the test moves (test/support/clock-file.mjs), so the suite's waits for a
// window to end take no real time; that is the only thing they share outside the database.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Report, renderPretty, runContract } from '../contract-tests/index.js';
import { createTestDatabase, type TestDatabase } from './support/postgres/database.js';

const MAIN = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const CLOCK_PRELOAD = fileURLToPath(new URL('./support/clock-file.mjs', import.meta.url));

let database: TestDatabase;
let folder: string;
const children: ChildProcess[] = [];
beforeAll(async () => {
  database = await createTestDatabase();
  folder = mkdtempSync(join(tmpdir(), 'petkit-replicas-'));
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(folder, { recursive: true, force: true });
  await database?.drop();
});

/** Starts `petkit mock --port 0 --state url`; resolves with its base URL once it serves. */
function startReplica(state: string, clockFile: string): Promise<string> {
  const child = spawn(
    process.execPath,
    ['--import', CLOCK_PRELOAD, MAIN, 'mock', '--port', '0', '--state', state],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PETKIT_TEST_CLOCK_FILE: clockFile } },
  );
  children.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (data: Buffer) => {
      out += data.toString();
      const url = /serving the Pet Adoption API at (\S+)/.exec(out)?.[1];
      if (url !== undefined) resolve(url);
    });
    child.stderr?.on('data', (data: Buffer) => {
      out += data.toString();
    });
    child.on('exit', (code) => reject(new Error(`petkit mock exited ${code}: ${out}`)));
  });
}

/** A fetch that sends each request to the next replica in turn, as if no balancer kept sessions. */
function alternating(urls: readonly string[], seen: Response[]): typeof fetch {
  let turn = 0;
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    url.host = new URL(urls[turn++ % urls.length] as string).host;
    const response = await fetch(input instanceof Request ? new Request(url, input) : url, init);
    seen.push(response.clone());
    return response;
  };
}

describe('two petkit mock processes on one database', () => {
  let urls: string[];
  let now = Date.UTC(2026, 5, 1, 12, 0, 30);
  let clockFile: string;
  const clock = {
    now: () => now,
    sleep: async (ms: number) => {
      now += ms;
      writeFileSync(clockFile, String(now));
    },
  };
  beforeAll(async () => {
    clockFile = join(folder, 'clock');
    writeFileSync(clockFile, String(now));
    const state = await database.schema();
    urls = await Promise.all([startReplica(state, clockFile), startReplica(state, clockFile)]);
  });

  const control = (index: number, path: string, init?: RequestInit) =>
    fetch(`${new URL(urls[index] as string).origin}/__petkit/${path}`, init);

  it('pass the contract suite with a clean verdict, requests alternating between them', async () => {
    const seen: Response[] = [];
    const report: Report = await runContract({
      baseUrl: urls[0] as string,
      apiKey: 'demo-enterprise',
      seed: 42,
      fetch: alternating(urls, seen),
      ...clock,
    });
    if (report.findings.length > 0) throw new Error(renderPretty(report, { color: false }));
    expect(report.findings).toEqual([]);
    expect(report.exitCode).toBe(0);
    // Both replicas answered their half of the run.
    const journals = await Promise.all([0, 1].map(async (i) => (await control(i, 'requests')).json()));
    for (const journal of journals) {
      expect((journal as { total: number }).total).toBeGreaterThan(seen.length / 4);
    }
  });

  it('pass the rate-limit probe with a Free key: one window counted across both, 429, Retry-After and the recovery', async () => {
    await control(1, 'reset', { method: 'POST' });
    const seen: Response[] = [];
    const report = await runContract({
      baseUrl: urls[0] as string,
      apiKey: 'demo-free',
      seed: 44,
      checks: ['rate_limit_behaviour', 'response_headers_conformance', 'status_code_conformance'],
      probeRateLimit: true,
      fetch: alternating(urls, seen),
      ...clock,
    });
    if (report.findings.length > 0) throw new Error(renderPretty(report, { color: false }));
    expect(report.results.find((result) => result.check === 'rate_limit_behaviour')?.outcome).toBe('passed');
    expect(report.exitCode).toBe(0);
    // One count for both replicas: within a window, each answer (from one replica, then the other)
    // has exactly one request fewer remaining than the answer before it.
    const windows = new Map<string, number[]>();
    for (const response of seen) {
      const reset = response.headers.get('x-ratelimit-reset') ?? '';
      const limit = response.headers.get('x-ratelimit-limit');
      if (response.status !== 200 || limit !== '60') continue;
      windows.set(reset, [
        ...(windows.get(reset) ?? []),
        Number(response.headers.get('x-ratelimit-remaining')),
      ]);
    }
    const exhausted = [...windows.values()].find((remaining) => remaining.at(-1) === 0);
    expect(exhausted?.length).toBeGreaterThan(10);
    expect(exhausted).toEqual(exhausted?.map((_, i) => (exhausted[0] as number) - i));
  });
});

describe('petkit mock --state at start', () => {
  it('says in one line that the database cannot be reached, and exits 2', () => {
    const result = spawnSync(
      process.execPath,
      [MAIN, 'mock', '--port', '0', '--state', 'postgres://petkit:secret@127.0.0.1:1/petkit'],
      { encoding: 'utf8' },
    );
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'petkit mock: Cannot reach the state database at postgres://petkit:***@127.0.0.1:1/petkit: connect ECONNREFUSED 127.0.0.1:1\n',
    );
  });

  it('refuses a state URL that is not PostgreSQL, and exits 2', () => {
    const result = spawnSync(process.execPath, [MAIN, 'mock', '--state', 'redis://127.0.0.1/0'], {
      encoding: 'utf8',
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      'petkit mock: The state URL must start with postgres:// (got redis://…): petkit keeps shared state in PostgreSQL.\n',
    );
  });
});

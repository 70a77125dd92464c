// Two `petkit mock --state` processes on one PostgreSQL, behind no balancer at all: the requests of a
// run alternate between them, and the contract suite gives the clean verdict it gives one mock. Both
// processes read one clock the test moves (test/support/clock-file.mjs), so the suite's waits for a
// window to end take no real time; that is the only thing they share outside the database.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { type Report, renderPretty, runContract } from '../contract-tests/index.js';
import { type Cluster, startCluster } from './support/postgres/cluster.js';
import { createTestDatabase, type TestDatabase } from './support/postgres/database.js';
import { startRelay } from './support/postgres/relay.js';
import { startTraffic, type Traffic, type TrafficAnswer } from './support/postgres/traffic.js';

const MAIN = fileURLToPath(new URL('../dist/bin/petkit.js', import.meta.url));
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

interface Replica {
  readonly url: string;
  readonly child: ChildProcess;
  /** The last of what it printed (its log), for a failure's message. */
  output(): string;
}

/** What is kept of a replica's output: the last lines, enough to tell why it stopped. */
const OUTPUT_KEPT = 20_000;

/**
 * Starts `petkit mock --port 0 --state url` (reading the test's clock from `clockFile`, if given);
 * resolves once it serves.
 */
function startReplica(state: string, clockFile?: string): Promise<Replica> {
  const preload = clockFile === undefined ? [] : ['--import', CLOCK_PRELOAD];
  const child = spawn(process.execPath, [...preload, MAIN, 'mock', '--port', '0', '--state', state], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: clockFile === undefined ? process.env : { ...process.env, PETKIT_TEST_CLOCK_FILE: clockFile },
  });
  children.push(child);
  let out = '';
  const output = () => out;
  const keep = (data: Buffer) => {
    out = (out + data.toString()).slice(-OUTPUT_KEPT);
  };
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (data: Buffer) => {
      keep(data);
      const url = /serving the Pet Adoption API at (\S+)/.exec(out)?.[1];
      if (url !== undefined) resolve({ url, child, output });
    });
    child.stderr?.on('data', keep);
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
    urls = (await Promise.all([startReplica(state, clockFile), startReplica(state, clockFile)])).map(
      (replica) => replica.url,
    );
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

  it('follow one clock and one set of rules: a change through one process holds for the next request to the other', async () => {
    const json = (body: unknown): RequestInit => ({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const list = (index: number) =>
      fetch(`${urls[index]}/pets`, { headers: { authorization: 'Bearer demo-pro' } });
    expect((await control(1, 'reset', { method: 'POST' })).status).toBe(200);
    // Replica one has answered: what it knows of the clock and the rules is its own from here on.
    expect((await list(1)).status).toBe(200);

    const set = await control(0, 'clock', json({ set: '2031-03-04T05:06:30Z' }));
    expect(set.status).toBe(200);
    const moved = await list(1);
    expect(moved.headers.get('date')).toBe('Tue, 04 Mar 2031 05:06:30 GMT');
    expect(moved.headers.get('x-ratelimit-reset')).toBe(String(Date.UTC(2031, 2, 4, 5, 7) / 1000));

    const armed = await control(
      0,
      'rules',
      json({ operation: 'listPets', times: 1, respond: { status: 503 } }),
    );
    expect(armed.status).toBe(201);
    expect((await list(1)).status).toBe(503);
    expect((await list(0)).status).toBe(200);
    expect(await (await control(1, 'rules')).json()).toMatchObject({ rules: [{ id: 'r1', fired: 1 }] });

    // A reset through replica one: replica zero answers at real time, no rule armed, at once.
    expect((await control(1, 'reset', { method: 'POST' })).status).toBe(200);
    const back = await list(0);
    expect(back.headers.get('date')).toBe(new Date(now).toUTCString());
    expect(await (await control(0, 'rules')).json()).toEqual({ rules: [] });
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

  it('exits 2 when the server asks for a password the URL does not give (the driver left its socket open)', async () => {
    // A server that answers any startup with "authenticate by SCRAM-SHA-256", as a pg_hba.conf asks.
    const server = createServer((socket) => {
      socket.on('error', () => undefined);
      /** An authentication message: 'R', its length, the request's kind, then its data. */
      const authentication = (kind: number, data: string) => {
        const body = Buffer.from(data, 'latin1');
        const head = Buffer.alloc(9);
        head.write('R', 0, 'latin1');
        head.writeInt32BE(8 + body.length, 1);
        head.writeInt32BE(kind, 5);
        return Buffer.concat([head, body]);
      };
      let messages = 0;
      socket.on('data', () => {
        messages += 1;
        // The startup: "SASL, by SCRAM-SHA-256"; the client's first SASL message: the server's first.
        if (messages === 1) socket.write(authentication(10, 'SCRAM-SHA-256\0\0'));
        else if (messages === 2) socket.write(authentication(11, 'r=abcdef,s=c2FsdA==,i=4096'));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => {
      server.close();
    });
    const { port } = server.address() as AddressInfo;
    const child = spawn(process.execPath, [
      MAIN,
      'mock',
      '--port',
      '0',
      '--state',
      `postgres://petkit@127.0.0.1:${port}/petkit`,
    ]);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve(null);
      }, 10_000);
      child.once('exit', (exitCode) => {
        clearTimeout(timer);
        resolve(exitCode);
      });
    });
    // It said so, then waited on the open socket for ever (killed here at 10 s).
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^petkit mock: Cannot reach the state database at postgres:\/\/petkit@127\.0\.0\.1:\d+\/petkit: .*password.*\n$/,
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

describe('petkit mock --state when its database stops answering', () => {
  it('stops on SIGTERM, and exits 0, though the database never answers its goodbye', async () => {
    // A frozen server, or a network that drops its packets: the replica's connections stay open and
    // nothing answers on them. Its stop waited for the server's answer to each connection's goodbye,
    // for as long as the database stayed frozen.
    const relay = await startRelay(await database.schema());
    onTestFinished(() => relay.close());
    const replica = await startReplica(relay.url);
    const answer = await fetch(`${replica.url}/pets/1`, { headers: { authorization: 'Bearer demo-free' } });
    expect(answer.status).toBe(200);

    relay.freeze();
    const exited = new Promise<number | null>((resolve) => replica.child.once('exit', resolve));
    replica.child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});

describe('two petkit mock processes while PostgreSQL goes away under traffic', () => {
  // A cluster of the file's own: these tests stop it and cut its connections.
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({ binaries: inject('postgres').binaries });
  });
  afterAll(() => cluster?.destroy());

  async function admin<Row extends pg.QueryResultRow>(text: string): Promise<Row[]> {
    const client = new pg.Client({ host: cluster.host, port: cluster.port, user: cluster.user });
    await client.connect();
    try {
      return (await client.query<Row>(text)).rows;
    } finally {
      await client.end();
    }
  }

  /** Two replicas on a schema of their own, and requests going to both until the test ends. */
  async function replicasUnderTraffic(): Promise<{ replicas: Replica[]; traffic: Traffic; schema: string }> {
    await cluster.start();
    const schema = `petkit_outage_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
    await admin(`CREATE SCHEMA ${schema}`);
    const url = `postgres://${cluster.user}@${cluster.host}:${cluster.port}/postgres?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    const replicas = await Promise.all([startReplica(url), startReplica(url)]);
    onTestFinished(({ task }) => {
      for (const { child, output } of replicas) {
        const stopped = child.exitCode ?? child.signalCode;
        // Why a replica stopped, when the test failed for it.
        if (task.result?.state === 'fail' && stopped !== null) console.error(`replica stopped:\n${output()}`);
        child.kill('SIGKILL');
      }
    });
    const traffic = startTraffic(
      replicas.map((replica) => replica.url),
      { apiKey: 'demo-enterprise' },
    );
    onTestFinished(() => traffic.stop());
    return { replicas, traffic, schema };
  }

  /** No replica stopped: each is running, and answers its health check. */
  async function expectAlive(replicas: readonly Replica[]): Promise<void> {
    for (const { child, url, output } of replicas) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`a replica stopped (${child.exitCode ?? child.signalCode}):\n${output()}`);
      }
      const health = await fetch(`${new URL(url).origin}/__petkit/health`);
      expect(health.status).toBe(200);
    }
  }

  /**
   * Every answer was a 2xx or the documented 503; every pet answered 201 is stored exactly once, under
   * its Location's id; a create answered 503 is stored at most once; nothing else was stored.
   */
  async function expectEveryCreateKeptOnce(traffic: Traffic, schema: string): Promise<void> {
    const unexpected = traffic.answers.filter(
      (answer) => !(answer.status === 200 || answer.status === 201 || answer.status === 503),
    );
    expect(unexpected).toEqual([]);
    // Each 503 is the documented one. Whether there was any depends on the test: a stopped database
    // always gives one (the stop test waits for it), a cut connection may not (the pool reconnects
    // between two queries), and answering every request through the cut is the better outcome.
    const unavailable = traffic.answers.filter((answer) => answer.status === 503);
    expect(unavailable.filter((answer) => answer.code !== 'state_unavailable')).toEqual([]);

    const rows = await admin<{ id: string; json: string }>(`SELECT id, json FROM ${schema}.petkit_pets`);
    const stored = new Map<string, string[]>();
    for (const row of rows) {
      const { name } = JSON.parse(row.json) as { name: string };
      stored.set(name, [...(stored.get(name) ?? []), row.id]);
    }
    const creates = traffic.answers.filter((answer) => answer.kind === 'create');
    const created = creates.filter((answer) => answer.status === 201);
    expect(created.length).toBeGreaterThan(0);
    for (const { name, location } of created) {
      expect({ name, ids: stored.get(name as string) }).toEqual({ name, ids: [location?.split('/').at(-1)] });
    }
    for (const { name } of creates.filter((answer) => answer.status === 503)) {
      expect(stored.get(name as string)?.length ?? 0).toBeLessThanOrEqual(1);
    }
    const sent = new Set(creates.map((answer) => answer.name));
    const strangers = [...stored.keys()].filter((name) => name.startsWith('traffic ') && !sent.has(name));
    expect(strangers).toEqual([]);
  }

  it('stay up through three stops and restarts: 503 state_unavailable while it is down, answering again after, every 201 stored once', async () => {
    const { replicas, traffic, schema } = await replicasUnderTraffic();
    const created = (answer: TrafficAnswer) => answer.status === 201;
    for (let cycle = 1; cycle <= 3; cycle += 1) {
      await traffic.until(`cycle ${cycle}: creates before the stop`, traffic.answers.length, created, 3);
      await cluster.stop();
      const down = traffic.answers.length;
      await traffic.until(`cycle ${cycle}: a 503 while stopped`, down, (answer) => answer.status === 503);
      await cluster.start();
      await traffic.until(`cycle ${cycle}: a 201 after the restart`, traffic.answers.length, created);
    }
    await traffic.stop();
    await expectAlive(replicas);
    await expectEveryCreateKeptOnce(traffic, schema);
  });

  it('stay up when every connection of theirs is cut (pg_terminate_backend), three times, every 201 stored once', async () => {
    const { replicas, traffic, schema } = await replicasUnderTraffic();
    const created = (answer: TrafficAnswer) => answer.status === 201;
    for (let cycle = 1; cycle <= 3; cycle += 1) {
      await traffic.until(`cycle ${cycle}: creates before the cut`, traffic.answers.length, created, 3);
      const cut = await admin<{ pid: number }>(
        "SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE 'petkit%'",
      );
      expect(cut.length).toBeGreaterThanOrEqual(2);
      await traffic.until(`cycle ${cycle}: a 201 after the cut`, traffic.answers.length, created);
    }
    await traffic.stop();
    await expectAlive(replicas);
    await expectEveryCreateKeptOnce(traffic, schema);
  });
});

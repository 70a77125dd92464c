import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { freePort } from '../../bench/free-port.js';
import { startCluster } from '../../test/support/postgres/cluster.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/postgres/database.js';
import { startRelay } from '../../test/support/postgres/relay.js';
import { connectState, type SharedState } from './connect.js';
import { StateConfigError, StateUnavailableError } from './errors.js';
import type { ResetEvent } from './reset-channel.js';
import { SCHEMA_VERSION } from './schema.js';
import { freshReplicasIn, nextReset, type Replicas } from './test-helpers.js';

const PETS = [
  { name: 'Biscuit', categoryId: 3, status: 'available' as const },
  { name: 'Mochi', categoryId: 1 },
];
const PLAN = { perMinute: 1, perDay: 5 };
const FREE = { kind: 'key', id: 'demo-free' } as const;
const NOON = Date.UTC(2030, 0, 1, 12);

// One database for the file; each test's replicas share a schema of their own in it, closed when the
// test ends (so that the outage tests below cut off no one else).
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

const freshReplicas = () => freshReplicasIn(database);

async function sql<Row extends pg.QueryResultRow>(url: string, text: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(text)).rows;
  } finally {
    await client.end();
  }
}

describe('connectState', () => {
  it('creates the schema once when replicas start together, and starts again on it', async () => {
    const replicas = await freshReplicas();
    await Promise.all([replicas.connect(), replicas.connect(), replicas.connect()]);
    await replicas.connect();
    expect(await sql(replicas.url, 'SELECT version FROM petkit_schema_version')).toEqual([
      { version: SCHEMA_VERSION },
    ]);
  });

  it('brings a database of the first schema version up to date, its pets kept', async () => {
    const replicas = await freshReplicas();
    const first = await replicas.connect();
    await first.seed(PETS);
    // What petkit's first schema had: no reset generation, no rules, no clock.
    await sql(
      replicas.url,
      `ALTER TABLE petkit_store DROP COLUMN reset_generation; DROP TABLE petkit_control, petkit_rules;
       UPDATE petkit_schema_version SET version = 1`,
    );
    const next = await replicas.connect();
    expect(await sql(replicas.url, 'SELECT version FROM petkit_schema_version')).toEqual([
      { version: SCHEMA_VERSION },
    ]);
    expect(await next.store.get(2)).toBe('{"id":2,"name":"Mochi","categoryId":1}');
    const heard = nextReset(next);
    await next.reset(PETS);
    expect(await heard).toEqual({ kind: 'reset', local: true });
  });

  it('refuses a database whose schema a newer petkit wrote', async () => {
    const replicas = await freshReplicas();
    await replicas.connect();
    await sql(replicas.url, 'UPDATE petkit_schema_version SET version = 99');
    const failure = replicas.connect();
    await expect(failure).rejects.toThrow(StateConfigError);
    await expect(failure).rejects.toThrow(
      new RegExp(`schema version 99; this petkit knows versions up to ${SCHEMA_VERSION}\\.`),
    );
  });

  it('says in one line, password hidden, that a database nobody listens for cannot be reached', async () => {
    const port = await freePort();
    const failure = connectState(`postgres://petkit:s3cret@127.0.0.1:${port}/pets`, {
      connectTimeoutMs: 2_000,
    });
    await expect(failure).rejects.toThrow(StateUnavailableError);
    const message = await failure.catch((error: Error) => error.message);
    expect(message).toBe(
      `Cannot reach the state database at postgres://petkit:***@127.0.0.1:${port}/pets: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
  });

  it('says in one line what an sslmode pg reads as verify-full means, with no warning of pg’s and no password', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    onTestFinished(() => {
      process.off('warning', onWarning);
    });
    const port = await freePort();
    const lines: string[] = [];
    const logger = { info: (line: string) => lines.push(line), error: (line: string) => lines.push(line) };
    for (const query of ['sslmode=require', 'application_name=x&sslmode=prefer']) {
      const failure = connectState(`postgres://petkit:s3cret@127.0.0.1:${port}/pets?${query}`, {
        connectTimeoutMs: 2_000,
        logger,
      });
      await expect(failure).rejects.toThrow(StateUnavailableError);
      // What the user gave is what the refusal names.
      await expect(failure).rejects.toThrow(`/pets?${query}: connect ECONNREFUSED`);
    }
    // process.emitWarning is heard on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings).toEqual([]);
    expect(lines).toEqual([
      expect.stringMatching(
        /^petkit state: sslmode=require in the state URL is read as verify-full by the pg client: .*libpq would encrypt without verifying the certificate.*sslmode=disable for a server without SSL\.$/,
      ),
      expect.stringMatching(
        /^petkit state: sslmode=prefer .*uselibpqcompat=true&sslmode=prefer for libpq's meaning/,
      ),
    ]);
    for (const line of lines) expect(line).not.toMatch(/s3cret|\n/);
    // Where pg says nothing, petkit says nothing.
    lines.length = 0;
    for (const query of [
      '',
      '?sslmode=disable',
      '?sslmode=verify-full',
      '?sslmode=require&uselibpqcompat=true',
    ]) {
      await expect(
        connectState(`postgres://petkit:s3cret@127.0.0.1:${port}/pets${query}`, {
          connectTimeoutMs: 2_000,
          logger,
        }),
      ).rejects.toThrow(StateUnavailableError);
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('hides a password given as ?password= (or ?sslpassword=) as it hides one before the @', async () => {
    const port = await freePort();
    const failure = connectState(
      `postgres://petkit@127.0.0.1:${port}/pets?application_name=x&password=s3cret&sslpassword=pass%20phrase`,
      { connectTimeoutMs: 2_000 },
    );
    await expect(failure).rejects.toThrow(
      `Cannot reach the state database at postgres://petkit@127.0.0.1:${port}/pets?application_name=x&password=***&sslpassword=***: connect ECONNREFUSED`,
    );
  });

  it('refuses at once a URL pg cannot read, where it waited for ever', async () => {
    const port = await freePort();
    const base = `postgres://petkit:s3cret@127.0.0.1:${port}/pets`;
    await expect(connectState(`${base}?port=abc`)).rejects.toThrow(
      `The state URL postgres://petkit:***@127.0.0.1:${port}/pets?port=abc cannot be read by the pg client: its port is not a number from 1 to 65535 (abc)`,
    );
    await expect(connectState(`${base}?sslrootcert=/nonexistent/ca.pem`)).rejects.toThrow(
      /^The state URL .*\?sslrootcert=\/nonexistent\/ca\.pem cannot be read by the pg client: ENOENT: no such file or directory, open '\/nonexistent\/ca\.pem'$/,
    );
    await expect(connectState(`${base}?sslmode=verify-ca&uselibpqcompat=true`)).rejects.toThrow(
      StateConfigError,
    );
  }, 5_000);

  it('says which database the server refuses', async () => {
    const { host, port, user } = inject('postgres');
    await expect(connectState(`postgres://${user}@${host}:${port}/petkit_missing`)).rejects.toThrow(
      /^Cannot reach the state database at .*: database "petkit_missing" does not exist$/,
    );
  });

  it('refuses a URL that is not postgres:// and options that are not positive integers', async () => {
    await expect(connectState('mysql://localhost/pets')).rejects.toThrow(/must start with postgres:\/\//);
    await expect(connectState('not a url')).rejects.toThrow(StateConfigError);
  });

  it('says why a state URL is no URL, never quoting its password', async () => {
    const failure = (url: string) =>
      connectState(url).then(
        () => 'connected',
        (error: unknown) => (error instanceof StateConfigError ? error.message : `other: ${String(error)}`),
      );
    const past = await failure('postgres://petkit:s3cret@127.0.0.1:99999/pets');
    expect(past).toBe(
      'The state URL cannot be read: its port 99999 is past 65535 (it must look like postgres://user:password@host:5432/database).',
    );
    // A password with `#` (the rest read as a fragment) or `/` (the rest as a path) as it is.
    for (const url of [
      'postgres://petkit:pa#ss@127.0.0.1:5432/pets',
      'postgres://petkit:a/b@127.0.0.1/pets',
    ]) {
      const message = await failure(url);
      expect(message).toContain(
        'with @ : / ? # or % in it must have them percent-encoded (encodeURIComponent)',
      );
      expect(message).not.toMatch(/pa#ss|a\/b/);
    }
    await expect(connectState('postgres://localhost/pets', { maxPets: 0 })).rejects.toThrow(
      /maxPets must be a positive integer/,
    );
  });
});

describe('seed and reset', () => {
  it('seeds once: the first replica to start seeds, the others join its state', async () => {
    const replicas = await freshReplicas();
    const [one, two] = await Promise.all([replicas.connect(), replicas.connect()]);
    const seeded = await Promise.all([one.seed(PETS), two.seed(PETS)]);
    expect(seeded.sort()).toEqual([false, true]);
    await one.store.create({ name: 'Rex', categoryId: 2 });
    const late = await replicas.connect();
    expect(await late.seed(PETS)).toBe(false);
    expect(await late.store.count()).toBe(3);
  });

  it('resets pets and buckets for every replica and tells each of them', async () => {
    const replicas = await freshReplicas();
    const one = await replicas.connect();
    const two = await replicas.connect();
    await one.seed(PETS);
    await two.store.create({ name: 'Rex', categoryId: 2 });
    await two.limiter.take(FREE, PLAN, NOON);
    expect((await one.limiter.take(FREE, PLAN, NOON)).allowed).toBe(false);

    const heardByOne = nextReset(one);
    const heardByTwo = nextReset(two);
    await one.reset(PETS);
    expect(await heardByOne).toEqual({ kind: 'reset', local: true });
    expect(await heardByTwo).toEqual({ kind: 'reset', local: false });

    expect(await two.store.count()).toBe(2);
    expect(await two.store.get(3)).toBeUndefined();
    expect(await two.store.get(2)).toBe('{"id":2,"name":"Mochi","categoryId":1}');
    expect((await two.store.create({ name: 'Rex', categoryId: 2 }))?.id).toBe(3);
    expect(await two.limiter.take(FREE, PLAN, NOON)).toMatchObject({ allowed: true });
  });

  it('serves resets asked all at once (a test run whose workers each reset) and requests beside them', async () => {
    const replicas = await freshReplicas();
    // A small pool that waits little: resets each holding a connection while they queue for the
    // pets' lock left none for requests, which then failed as if the database were gone.
    const options = { poolSize: 3, connectTimeoutMs: 300 };
    const [one, two] = await Promise.all([replicas.connect(options), replicas.connect(options)]);
    await one.seed(PETS);
    const generation = async () =>
      Number(
        (await sql<{ g: string }>(replicas.url, 'SELECT reset_generation AS g FROM petkit_store'))[0]?.g,
      );
    const before = await generation();
    const outcomes = await Promise.allSettled([
      ...Array.from({ length: 30 }, () => one.reset(PETS)),
      ...Array.from({ length: 30 }, () => two.reset(PETS)),
      ...Array.from({ length: 10 }, () => one.store.get(1)),
      ...Array.from({ length: 10 }, () => two.store.count()),
    ]);
    expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
    // Resets asked while one runs share the next: each caller's began after it asked.
    expect((await generation()) - before).toBeLessThanOrEqual(4);
    expect(await two.store.count()).toBe(2);
  });

  it('tells only the replicas of the same schema (several petkits may share a database)', async () => {
    const ours = await (await freshReplicas()).connect();
    const theirs = await (await freshReplicas()).connect();
    const heardByTheirs: unknown[] = [];
    theirs.onReset((event) => heardByTheirs.push(event));
    await theirs.seed(PETS);
    await ours.reset([]);
    // Their own reset comes after ours on the same channel: once it is heard, ours was not.
    const theirOwn = nextReset(theirs);
    await theirs.reset(PETS);
    expect(await theirOwn).toEqual({ kind: 'reset', local: true });
    expect(heardByTheirs).toEqual([{ kind: 'reset', local: true }]);
    expect(await theirs.store.count()).toBe(2);
  });

  it('ignores a NOTIFY on its channel that petkit did not send', async () => {
    const replicas = await freshReplicas();
    const one = await replicas.connect();
    const heard: unknown[] = [];
    one.onReset((event) => heard.push(event));
    await sql(replicas.url, "NOTIFY petkit_reset, 'not json'");
    await sql(replicas.url, `NOTIFY petkit_reset, '{"schema":"elsewhere"}'`);
    const own = nextReset(one);
    await one.reset([]);
    await own;
    expect(heard).toEqual([{ kind: 'reset', local: true }]);
  });

  it('keeps a listener that throws from stopping the others', async () => {
    const replicas = await freshReplicas();
    const one = await replicas.connect();
    one.onReset(() => {
      throw new Error('listener bug');
    });
    const heard = nextReset(one);
    await one.reset([]);
    expect(await heard).toEqual({ kind: 'reset', local: true });
  });
});

/** An outage of the test database alone: its connections end, and none is accepted until `allow()`. */
async function cutOff(database: TestDatabase): Promise<() => Promise<void>> {
  await database.admin(`ALTER DATABASE ${database.name} ALLOW_CONNECTIONS false`);
  await database.terminateConnections();
  return async () => {
    await database.admin(`ALTER DATABASE ${database.name} ALLOW_CONNECTIONS true`);
  };
}

/**
 * A login role of its own for some replicas, which the test can lock out (no new connection) and
 * whose reset channels it can end, while the replicas of the usual role carry on.
 */
async function lockableRole(replicas: Replicas): Promise<{
  connect(): Promise<SharedState>;
  lockOut(): Promise<void>;
  endResetChannels(): Promise<void>;
  letIn(): Promise<void>;
}> {
  // The tables made by the usual role first, so that this one owns nothing and can be dropped.
  await replicas.connect();
  const name = `petkit_role_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  await database.admin(`CREATE ROLE ${name} LOGIN SUPERUSER`);
  const url = new URL(replicas.url);
  url.username = name;
  const opened: SharedState[] = [];
  onTestFinished(async () => {
    await Promise.all(opened.map((state) => state.close().catch(() => undefined)));
    await database.admin(`DROP ROLE ${name}`);
  });
  return {
    async connect() {
      const state = await connectState(url.href);
      opened.push(state);
      return state;
    },
    lockOut: async () => {
      await database.admin(`ALTER ROLE ${name} NOLOGIN`);
    },
    async endResetChannels() {
      const of = `FROM pg_stat_activity WHERE usename = '${name}' AND application_name = 'petkit-reset-channel'`;
      await database.admin(`SELECT pg_terminate_backend(pid) ${of}`);
      while ((await database.admin(`SELECT 1 ${of}`)).length > 0) await pause(5);
    },
    letIn: async () => {
      await database.admin(`ALTER ROLE ${name} LOGIN`);
    },
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Each shared operation a request may run. */
function everyOperation(state: SharedState): (() => Promise<unknown>)[] {
  return [
    () => state.store.count(),
    () => state.store.list(20, undefined),
    () => state.store.get(1),
    () => state.store.create({ name: 'Rex', categoryId: 2 }),
    () => state.limiter.take(FREE, PLAN, NOON),
    () => state.limiter.reset(),
    () => state.store.clear(),
    () => state.seed(PETS),
    () => state.reset(PETS),
  ];
}

describe('losing the database', () => {
  it('fails every operation with StateUnavailableError while the database refuses, and recovers when it is back', async () => {
    const replicas = await freshReplicas();
    const one = await replicas.connect({ connectTimeoutMs: 1_000 });
    const two = await replicas.connect({ connectTimeoutMs: 1_000 });
    await one.seed(PETS);

    const allow = await cutOff(database);
    for (const operation of everyOperation(one)) {
      await expect(operation()).rejects.toThrow(StateUnavailableError);
    }
    await expect(one.store.get(1)).rejects.toMatchObject({
      code: 'state_unavailable',
      message:
        'The state database is unavailable: database "' +
        database.name +
        '" is not currently accepting connections',
    });

    const twoListensAgain = nextReset(two, (event) => event.kind === 'reconnected');
    await allow();
    // The pool opens new connections at once; the reset channel subscribes again.
    for (const operation of everyOperation(one)) await operation();
    expect(await twoListensAgain).toEqual({ kind: 'reconnected', local: false });
    const heard = nextReset(two, (event) => event.kind === 'reset');
    await one.reset(PETS);
    expect(await heard).toEqual({ kind: 'reset', local: false });
    expect(await two.store.get(1)).toBe('{"id":1,"name":"Biscuit","categoryId":3,"status":"available"}');
  });

  it('fails every operation within its timeouts while the database stops answering, and closes all the same', async () => {
    // A frozen server, or a network that drops its packets: nothing refused, nothing ended. Each
    // operation waited for ever on a pooled connection's statement, and close() for the server's
    // goodbye (a SIGTERM left the replica running).
    const replicas = await freshReplicas();
    const relay = await startRelay(replicas.url);
    onTestFinished(() => relay.close());
    const one = await connectState(relay.url, { connectTimeoutMs: 300, queryTimeoutMs: 300 });
    await one.seed(PETS);
    await one.store.get(1);

    relay.freeze();
    for (const operation of everyOperation(one)) {
      await expect(operation()).rejects.toThrow(StateUnavailableError);
    }
    await one.close();
  });

  it('gives a reset longer than a statement’s timeout: a millisecond a pet, to write them or wait for another’s', async () => {
    const replicas = await freshReplicas();
    const one = await replicas.connect({ queryTimeoutMs: 300 });
    await one.seed(PETS);
    // Another replica's reset (here, a client of the test's) holds the pets' table for 600 ms.
    const other = new pg.Client({ connectionString: replicas.url });
    await other.connect();
    onTestFinished(() => other.end());
    await other.query('BEGIN');
    await other.query('LOCK TABLE petkit_pets IN ACCESS EXCLUSIVE MODE');
    const released = new Promise<void>((resolve) =>
      setTimeout(() => void other.query('COMMIT').then(() => resolve()), 600),
    );
    const many = Array.from({ length: 1_000 }, (_, index) => ({ name: `Pet ${index}`, categoryId: 1 }));
    // 300 ms and 1,000 pets: 1.3 s to wait and write, where 300 ms failed it as the database gone.
    await one.reset(many);
    await released;
    expect(await one.store.count()).toBe(1_000);
    // An ordinary statement waiting as long is given up: the database counts as unavailable.
    await other.query('BEGIN');
    await other.query('LOCK TABLE petkit_pets IN ACCESS EXCLUSIVE MODE');
    await expect(one.store.get(1)).rejects.toThrow(StateUnavailableError);
  });

  it('drops the connections the database ended and serves on new ones, with no restart', async () => {
    const replicas = await freshReplicas();
    const one = await replicas.connect();
    const two = await replicas.connect();
    await one.seed(PETS);
    // Every pool holds idle connections now.
    await Promise.all(
      [one, two].flatMap((state) =>
        everyOperation(state)
          .slice(0, 5)
          .map((operation) => operation()),
      ),
    );

    const listening = [one, two].map((state) => nextReset(state, (event) => event.kind === 'reconnected'));
    await database.terminateConnections();
    expect(await Promise.all(listening)).toEqual([
      { kind: 'reconnected', local: false },
      { kind: 'reconnected', local: false },
    ]);
    for (const state of [one, two]) for (const operation of everyOperation(state)) await operation();
  });

  it('tells a replica of a reset it missed while its reset channel was down, once the channel is back', async () => {
    const replicas = await freshReplicas();
    const one = await replicas.connect();
    await one.seed(PETS);
    const role = await lockableRole(replicas);
    const two = await role.connect();
    const heard: ResetEvent[] = [];
    two.onReset((event) => heard.push(event));

    await role.lockOut();
    await role.endResetChannels();
    await one.reset(PETS);
    const back = nextReset(two, (event) => event.kind === 'reconnected');
    await role.letIn();
    await back;
    expect(heard).toEqual([
      { kind: 'reset', local: false },
      { kind: 'reconnected', local: false },
    ]);
  });

  it('tells a replica of its own reset while its reset channel is down, and only once', async () => {
    const replicas = await freshReplicas();
    const role = await lockableRole(replicas);
    const one = await role.connect();
    await one.seed(PETS);
    const heard: ResetEvent[] = [];
    one.onReset((event) => heard.push(event));

    await role.lockOut();
    await role.endResetChannels();
    // Through the connection its pool still holds: the database is there, the channel is not.
    await one.reset(PETS);
    expect(heard).toEqual([{ kind: 'reset', local: true }]);
    const back = nextReset(one, (event) => event.kind === 'reconnected');
    await role.letIn();
    await back;
    expect(heard).toEqual([
      { kind: 'reset', local: true },
      { kind: 'reconnected', local: false },
    ]);
  });

  it('answers StateUnavailableError while the server is down, and serves again once it has restarted', async () => {
    const cluster = await startCluster({ binaries: inject('postgres').binaries });
    onTestFinished(() => cluster.destroy());
    const url = `postgres://${cluster.user}@${cluster.host}:${cluster.port}/postgres`;
    const one = await connectState(url, { connectTimeoutMs: 1_000 });
    onTestFinished(() => one.close());
    const two = await connectState(url, { connectTimeoutMs: 1_000 });
    onTestFinished(() => two.close());
    await one.seed(PETS);

    await cluster.stop();
    for (const operation of everyOperation(one)) {
      await expect(operation()).rejects.toThrow(StateUnavailableError);
    }
    await expect(two.store.count()).rejects.toThrow(/ECONNREFUSED/);

    const twoListensAgain = nextReset(two, (event) => event.kind === 'reconnected');
    await cluster.start();
    for (const operation of everyOperation(one)) await operation();
    await twoListensAgain;
    const heard = nextReset(two, (event) => event.kind === 'reset');
    await one.reset(PETS);
    expect(await heard).toEqual({ kind: 'reset', local: false });
  });

  it('keeps every key’s rate-limit window and ban through a crash of the server', async () => {
    const cluster = await startCluster({ binaries: inject('postgres').binaries });
    onTestFinished(() => cluster.destroy());
    const url = `postgres://${cluster.user}@${cluster.host}:${cluster.port}/postgres`;
    const one = await connectState(url, { connectTimeoutMs: 1_000 });
    onTestFinished(() => one.close());
    await one.seed(PETS);
    const banned = { kind: 'key', id: 'banned' } as const;
    const now = NOON + 1_000;
    for (let i = 0; i < 20; i += 1) await one.limiter.take(banned, PLAN, now);
    expect(await one.limiter.take(FREE, PLAN, now)).toMatchObject({ allowed: true });
    const before = [await one.limiter.peek(FREE, PLAN, now), await one.limiter.peek(banned, PLAN, now)];
    expect(before).toMatchObject([{ minute: { remaining: 0 } }, { bannedUntil: expect.any(Number) }]);
    // The commits above did not wait for the disk (synchronous_commit off): what a crash may lose is
    // their last fraction of a second, not what a checkpoint wrote.
    await sql(url, 'CHECKPOINT');

    await cluster.crash();
    await cluster.start();
    await expect
      .poll(() => one.limiter.peek(FREE, PLAN, now).catch(() => undefined), { timeout: 10_000 })
      .toEqual(before[0]);
    expect(await one.limiter.peek(banned, PLAN, now)).toEqual(before[1]);
    expect(await one.limiter.take(FREE, PLAN, now)).toMatchObject({ allowed: false });
  });
});

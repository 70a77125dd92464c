import { afterAll, beforeAll, expect, it, onTestFinished } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/support/postgres/database.js';
import { startRelay } from '../../test/support/postgres/relay.js';
import { silentLogger } from '../options.js';
import { createDatabase } from './database.js';
import { StateUnavailableError } from './errors.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Ends one server process, as an administrator (or a restart) would, and waits until it is gone. */
async function terminate(pid: number): Promise<void> {
  await database.admin(`SELECT pg_terminate_backend(${pid})`);
  while ((await database.admin(`SELECT 1 FROM pg_stat_activity WHERE pid = ${pid}`)).length > 0)
    await pause(5);
}

it('answers StateUnavailableError, and the process goes on, when the server ends a connection checked out between two statements', async () => {
  const pool = createDatabase({
    url: database.url,
    poolSize: 2,
    connectTimeoutMs: 5_000,
    queryTimeoutMs: 10_000,
    logger: silentLogger,
  });
  onTestFinished(() => pool.end());
  const work = pool.transaction(async (client) => {
    const { rows } = await client.query<{ pid: number }>({ text: 'SELECT pg_backend_pid() AS pid' });
    // The server's goodbye reaches the connection while no statement runs on it: pg emits 'error'
    // on the client, which would end the process with nobody listening.
    await terminate(rows[0]?.pid ?? 0);
    await client.query({ text: 'SELECT 1' });
  });
  await expect(work).rejects.toThrow(StateUnavailableError);
  // The broken connection was dropped: the next request gets a new one.
  expect((await pool.query<{ one: number }>({ text: 'SELECT 1 AS one' })).rows).toEqual([{ one: 1 }]);
});

it('answers StateUnavailableError when the database stops answering, and serves again on new connections once it answers', async () => {
  // A frozen server or a network that drops its packets: no connection ends, no answer comes. A
  // request waited for ever on the statement of a pooled connection.
  const relay = await startRelay(database.url);
  onTestFinished(() => relay.close());
  const pool = createDatabase({
    url: relay.url,
    poolSize: 2,
    connectTimeoutMs: 300,
    queryTimeoutMs: 300,
    logger: silentLogger,
  });
  onTestFinished(() => pool.end());
  // Both connections of the pool made and idle: the next statements go on connections that stay open.
  await Promise.all([pool.query({ text: 'SELECT pg_sleep(0.05)' }), pool.query({ text: 'SELECT 1' })]);

  relay.freeze();
  const expected = {
    code: 'state_unavailable',
    message:
      'The state database is unavailable: it did not answer a statement in time (a frozen server, or a network that drops its packets)',
  };
  await expect(pool.query({ text: 'SELECT 1 AS one' })).rejects.toMatchObject(expected);
  await expect(pool.transaction((client) => client.query({ text: 'SELECT 1 AS one' }))).rejects.toMatchObject(
    expected,
  );
  // The connections whose statements went unanswered are gone, not back in the pool: a new one is
  // opened, and finds no server in time either.
  await expect(pool.query({ text: 'SELECT 1 AS one' })).rejects.toThrow(StateUnavailableError);

  relay.thaw();
  expect((await pool.query<{ one: number }>({ text: 'SELECT 1 AS one' })).rows).toEqual([{ one: 1 }]);
  expect(
    (await pool.transaction((client) => client.query<{ one: number }>({ text: 'SELECT 1 AS one' }))).rows,
  ).toEqual([{ one: 1 }]);
});

import { afterAll, beforeAll, expect, it, onTestFinished } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/support/postgres/database.js';
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

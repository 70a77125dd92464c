// A database of its own for a test file, on the run's PostgreSQL cluster: created empty by
// createTestDatabase(), dropped (with any connection still open to it) by drop(). Creating a database
// costs a few hundred milliseconds here; a test that needs a clean slate of its own within the file's
// database takes a schema instead (schema(): a few milliseconds).
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import './provided.js';

export interface TestDatabase {
  readonly name: string;
  /** postgres://user@127.0.0.1:port/name */
  readonly url: string;
  /** Runs SQL as the superuser on the cluster's `postgres` database (for DDL about this database). */
  admin(sql: string): Promise<pg.QueryResultRow[]>;
  /** Makes an empty schema in this database; answers a URL whose connections use it (search_path). */
  schema(): Promise<string>;
  /**
   * Ends every connection to this database, and resolves once the server processes of those it ended
   * are gone (clients may already have connected again: their new connections are not waited for).
   */
  terminateConnections(): Promise<void>;
  drop(): Promise<void>;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Lowercase letters and digits only: such a name needs no quoting anywhere. */
const uniqueName = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 20)}`;

export async function createTestDatabase(): Promise<TestDatabase> {
  const { host, port, user } = inject('postgres');
  const name = uniqueName('petkit_test');
  const url = `postgres://${user}@${host}:${port}/${name}`;
  const connect = async (database: string): Promise<pg.Client> => {
    const client = new pg.Client({ host, port, user, database });
    await client.connect();
    return client;
  };
  const run = async (database: string, sql: string): Promise<pg.QueryResultRow[]> => {
    const client = await connect(database);
    try {
      return (await client.query(sql)).rows;
    } finally {
      await client.end();
    }
  };
  const admin = (sql: string) => run('postgres', sql);
  await admin(`CREATE DATABASE ${name}`);
  return {
    name,
    url,
    admin,
    async schema() {
      const schema = uniqueName('petkit_schema');
      await run(name, `CREATE SCHEMA ${schema}`);
      return `${url}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    },
    async terminateConnections() {
      const client = await connect('postgres');
      try {
        const { rows } = await client.query<{ pid: number }>({
          text: 'SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1',
          values: [name],
        });
        // Only the processes ended here: a client that reconnects at once (a replica's reset channel
        // does, 50 ms later; sooner than these exit on a busy machine) has a new one, which would keep
        // "no connection to the database" from ever being true. pg_terminate_backend(pid, timeout)
        // would wait too, but it looks only every 100 ms, one process after the other.
        const ended = {
          text: 'SELECT 1 FROM pg_stat_activity WHERE pid = ANY($1)',
          values: [rows.map((row) => row.pid)],
        };
        while (((await client.query(ended)).rowCount ?? 0) > 0) await pause(5);
      } finally {
        await client.end();
      }
    },
    async drop() {
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

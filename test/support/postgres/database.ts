// A database of its own for a test file (or a test), on the run's PostgreSQL cluster: created empty
// by createTestDatabase(), dropped (with any connection still open to it) by drop().
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import './provided.js';

export interface TestDatabase {
  readonly name: string;
  /** postgres://user@127.0.0.1:port/name */
  readonly url: string;
  /** Runs SQL as the superuser on the cluster's `postgres` database (for DDL about this database). */
  admin(sql: string): Promise<void>;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const { host, port, user } = inject('postgres');
  // Lowercase letters and digits only: the name needs no quoting anywhere.
  const name = `petkit_test_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
  const admin = async (sql: string): Promise<void> => {
    const client = new pg.Client({ host, port, user, database: 'postgres' });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  return {
    name,
    url: `postgres://${user}@${host}:${port}/${name}`,
    admin,
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

// The test harness itself: the run's PostgreSQL, a database per caller, not root, and the symlinks
// that a fresh `npm ci` may not have made.
import { execFile } from 'node:child_process';
import { link, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { describe, expect, inject, it, onTestFinished } from 'vitest';
import { hydrateSymlinks } from './binaries.js';
import { createTestDatabase } from './database.js';

const run = promisify(execFile);

describe('the test PostgreSQL', () => {
  it('answers on the port the global setup provides, with a database per caller', async () => {
    const one = await createTestDatabase();
    onTestFinished(() => one.drop());
    const two = await createTestDatabase();
    onTestFinished(() => two.drop());
    expect(one.name).not.toBe(two.name);
    const client = new pg.Client({ connectionString: one.url });
    await client.connect();
    onTestFinished(() => client.end());
    const { rows } = await client.query<{ db: string; version: string }>(
      "SELECT current_database() AS db, current_setting('server_version_num') AS version",
    );
    expect(rows[0]?.db).toBe(one.name);
    expect(Number(rows[0]?.version)).toBeGreaterThanOrEqual(180000);
  });
  it('ends every connection to a database, and returns while their clients connect again at once', async () => {
    const database = await createTestDatabase();
    onTestFinished(() => database.drop());
    // Clients that reconnect the moment they are cut, as a replica's reset channel does.
    let stopped = false;
    const current: Promise<pg.Client>[] = [];
    const reconnecting = async (): Promise<pg.Client> => {
      const client = new pg.Client({ connectionString: database.url });
      client.on('error', () => {
        if (!stopped) current.push(reconnecting());
      });
      await client.connect();
      return client;
    };
    for (let i = 0; i < 3; i += 1) current.push(reconnecting());
    await Promise.all(current);
    onTestFinished(async () => {
      stopped = true;
      for (const client of await Promise.all(current)) await client.end().catch(() => undefined);
    });
    const pids = async () =>
      (await database.admin(`SELECT pid FROM pg_stat_activity WHERE datname = '${database.name}'`)).map(
        (row) => row.pid as number,
      );
    const before = await pids();
    expect(before).toHaveLength(3);
    await database.terminateConnections();
    expect((await pids()).filter((pid) => before.includes(pid))).toEqual([]);
  });
  it('runs the server as a user other than root', async () => {
    const { host, port, user } = inject('postgres');
    const client = new pg.Client({ host, port, user, database: 'postgres' });
    await client.connect();
    onTestFinished(() => client.end());
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    // The backend serving this connection, while it is open.
    const { stdout } = await run('ps', ['-o', 'uid=', '-p', String(rows[0]?.pid)]);
    expect(Number(stdout.trim())).not.toBe(0);
  });
  it('makes the library symlinks that npm leaves out when it skips install scripts', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'petkit-pg-links-'));
    onTestFinished(() => rm(folder, { recursive: true, force: true }));
    // What an install without the package's postinstall script leaves: the libraries, no symlinks.
    // (Hard links to the run's copy: the same files without copying 50 MB.)
    const { root } = inject('postgres').binaries;
    const missing: string[] = [];
    for (const sub of ['bin', 'lib']) {
      await mkdir(join(folder, 'native', sub), { recursive: true });
      for (const entry of await readdir(join(root, sub), { withFileTypes: true })) {
        if (entry.isSymbolicLink()) missing.push(entry.name);
        else if (entry.isFile())
          await link(join(root, sub, entry.name), join(folder, 'native', sub, entry.name));
      }
    }
    expect(missing).toContain('libpq.so.5');
    const version = () => run(join(folder, 'native', 'bin', 'postgres'), ['--version']);
    await expect(version()).rejects.toThrow(/error while loading shared libraries|Library not loaded/);

    // hydrateSymlinks reads native/pg-symlinks.json, which a real install has beside bin/ and lib/.
    await link(join(root, 'pg-symlinks.json'), join(folder, 'native', 'pg-symlinks.json'));
    expect(await hydrateSymlinks(join(folder, 'native'))).toBe(missing.length);
    expect((await version()).stdout).toMatch(/^postgres \(PostgreSQL\) 18\./);
  });
});

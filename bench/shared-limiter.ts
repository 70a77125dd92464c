// How many atomic two-window rate-limit checks a second PostgreSQL answers to petkit replicas, each
// a process of its own (the shared limiter of mocks/postgres: one INSERT … ON CONFLICT DO UPDATE …
// RETURNING per check). Not part of `npm run bench` yet.
//
//   npm run build && node dist/bench/shared-limiter.js [--seconds 5] [--processes 2]
//     [--concurrency 16] [--keys 1] [--state postgres://…]
//
// Without --state it starts a throwaway PostgreSQL (the tests' embedded one: durability off), and
// prints how long initdb and the start took. Every process runs `concurrency` loops of checks on
// `keys` keys (1: every check of every process contends for one row) under limits none reaches, so
// each check counts. At the end the counts in the database must equal the checks answered.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { connectState } from '../mocks/postgres/index.js';
import { startCluster } from './postgres/cluster.js';

const LIMITS = { perMinute: Number.MAX_SAFE_INTEGER, perDay: Number.MAX_SAFE_INTEGER };

interface WorkerReport {
  readonly checks: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

/** One process: `concurrency` loops of checks until the deadline, then its count and latencies. */
async function worker(
  url: string,
  seconds: number,
  concurrency: number,
  keys: number,
): Promise<WorkerReport> {
  const state = await connectState(url, { poolSize: concurrency });
  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  let next = 0;
  const loop = async () => {
    while (performance.now() < deadline) {
      // The keys in turn, across every loop of this process.
      const key = `bench-${next++ % keys}`;
      const started = performance.now();
      await state.limiter.take({ kind: 'key', id: key }, LIMITS, Date.now());
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, () => loop()));
  await state.close();
  latencies.sort((a, b) => a - b);
  return { checks: latencies.length, p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99) };
}

/** The checks the buckets hold: the sum of their day counts. */
async function countedChecks(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ sum: string }>(
      'SELECT coalesce(sum(day_count), 0) AS sum FROM petkit_rate_buckets',
    );
    return Number(rows[0]?.sum ?? 0);
  } finally {
    await client.end();
  }
}

function runWorker(url: string, seconds: number, concurrency: number, keys: number) {
  const child = fork(fileURLToPath(import.meta.url), [
    '--worker',
    '--state',
    url,
    '--seconds',
    String(seconds),
    '--concurrency',
    String(concurrency),
    '--keys',
    String(keys),
  ]);
  const report = new Promise<WorkerReport>((resolve, reject) => {
    child.once('message', (message) => resolve(message as WorkerReport));
    child.once('exit', (code) => reject(new Error(`a worker exited with ${code} before reporting`)));
  });
  return { child, report };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      worker: { type: 'boolean', default: false },
      state: { type: 'string' },
      seconds: { type: 'string', default: '5' },
      processes: { type: 'string', default: '2' },
      concurrency: { type: 'string', default: '16' },
      keys: { type: 'string', default: '1' },
    },
  });
  const seconds = Number(values.seconds);
  const concurrency = Number(values.concurrency);
  const keys = Number(values.keys);
  if (values.worker) {
    if (values.state === undefined) throw new Error('--worker needs --state');
    process.send?.(await worker(values.state, seconds, concurrency, keys));
    return;
  }

  const cluster = values.state === undefined ? await startCluster() : undefined;
  try {
    const url = values.state ?? `postgres://${cluster?.user}@${cluster?.host}:${cluster?.port}/postgres`;
    if (cluster !== undefined) {
      const { copyMs, initdbMs, startMs } = cluster.timings;
      console.log(
        `PostgreSQL (embedded): copy ${Math.round(copyMs)} ms, initdb ${Math.round(initdbMs)} ms, start ${Math.round(startMs)} ms`,
      );
    }
    // Migrates the schema and empties the buckets before the processes start.
    const state = await connectState(url);
    await state.limiter.reset();

    const processes = Number(values.processes);
    const workers = Array.from({ length: processes }, () => runWorker(url, seconds, concurrency, keys));
    const reports = await Promise.all(workers.map((entry) => entry.report));
    const total = reports.reduce((sum, report) => sum + report.checks, 0);

    await state.close();
    // Exact: the day counts in the database add up to the checks answered (unless a UTC day began).
    const counted = await countedChecks(url);
    console.log(
      `${processes} processes × ${concurrency} loops on ${keys} key(s), ${seconds} s: ${total} checks, ` +
        `${Math.round(total / seconds)} a second`,
    );
    console.log(
      `  counted in the database: ${counted}${counted === total ? ' (exact)' : ' (NOT the checks answered)'}`,
    );
    for (const [index, report] of reports.entries()) {
      console.log(
        `  process ${index + 1}: ${report.checks} checks, p50 ${report.p50Ms.toFixed(2)} ms, p99 ${report.p99Ms.toFixed(2)} ms`,
      );
    }
  } finally {
    await cluster?.destroy();
  }
}

await main();

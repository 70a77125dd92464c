// Drives one scenario against one server with autocannon (as a library) and sums up what came back.
import autocannon from 'autocannon';
import { readCpuMs, readTreeCpuMs } from './cpu.js';
import { readMemory } from './memory.js';
import type { Scenario } from './scenarios.js';

export interface LoadOptions {
  readonly connections: number;
  /** Seconds. */
  readonly duration: number;
  /** Stop after this many requests instead of after `duration` (for tests). */
  readonly amount?: number;
  /** The server's pid, sampled for resident memory while the load runs; none for no sampling. */
  readonly pid?: number;
  /**
   * Whose CPU an answer costs, when more than the server's own process: these processes and their
   * descendants (the shared mode: petkit's replicas and the PostgreSQL server).
   */
  readonly cpuPids?: readonly number[];
}

export interface LoadFigures {
  /** Responses received. */
  readonly requests: number;
  readonly seconds: number;
  readonly rps: number;
  /** Latency percentiles in milliseconds. */
  readonly p50: number;
  readonly p99: number;
  /** Connection errors and timeouts. */
  readonly errors: number;
  /** Responses whose status is not the one the request expects. */
  readonly unexpected: number;
  /** Responses per status code. */
  readonly statuses: Readonly<Record<string, number>>;
  /** The highest VmRSS sampled during the run, in bytes (undefined without a pid). */
  readonly peakRss: number | undefined;
  /**
   * The server's CPU time (user + system, from /proc) per response, in microseconds: the work each
   * answer costs, whatever else the machine is doing (undefined without a pid).
   */
  readonly cpuUsPerRequest: number | undefined;
}

/**
 * A scenario's requests as autocannon sends them, below `prefix`; `onUnexpected` is called for each
 * answer whose status is not the one its request expects.
 */
export function loadRequests(prefix: string, scenario: Scenario, onUnexpected: () => void) {
  return scenario.requests.map((r) => ({
    method: r.method,
    path: `${prefix}${r.path}`,
    headers: { ...r.headers },
    ...(r.body === undefined ? {} : { body: r.body }),
    onResponse: (status: number) => {
      if (status !== r.expect) onUnexpected();
    },
  }));
}

const SAMPLE_MS = 100;

/** How often autocannon samples, and so how soon after its duration a run ends. */
const SAMPLE_INTERVAL_MS = 100;

export async function runLoad(
  origin: string,
  prefix: string,
  scenario: Scenario,
  options: LoadOptions,
): Promise<LoadFigures> {
  let unexpected = 0;
  const requests = loadRequests(prefix, scenario, () => {
    unexpected += 1;
  });
  let peakRss: number | undefined;
  const { pid, cpuPids } = options;
  const readCpu = async (): Promise<number | undefined> =>
    cpuPids !== undefined ? readTreeCpuMs(cpuPids) : pid === undefined ? undefined : readCpuMs(pid);
  const sample = async (): Promise<void> => {
    if (pid === undefined) return;
    const memory = await readMemory(pid);
    if (memory !== undefined) peakRss = Math.max(peakRss ?? 0, memory.rss);
  };
  const sampler = pid === undefined ? undefined : setInterval(() => void sample(), SAMPLE_MS);
  try {
    await sample();
    const cpuBefore = await readCpu();
    const result = await autocannon({
      url: origin,
      connections: options.connections,
      duration: options.duration,
      ...(options.amount === undefined ? {} : { amount: options.amount }),
      // autocannon ends a run at its next sample after the duration: once a second by default, so a
      // 2.5 s slice ran 3 s (and any slice under 1 s ran 1 s). Sampled every 100 ms, it ends on time.
      sampleInt: SAMPLE_INTERVAL_MS,
      requests,
    });
    const cpuAfter = await readCpu();
    await sample();
    const statuses: Record<string, number> = {};
    for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = stat.count ?? 0;
    const total = Object.values(statuses).reduce((a, b) => a + b, 0);
    return {
      requests: total,
      seconds: result.duration,
      rps: result.duration > 0 ? total / result.duration : 0,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors,
      unexpected,
      statuses,
      peakRss,
      cpuUsPerRequest:
        cpuBefore === undefined || cpuAfter === undefined || total === 0
          ? undefined
          : ((cpuAfter - cpuBefore) * 1000) / total,
    };
  } finally {
    if (sampler !== undefined) clearInterval(sampler);
  }
}

/**
 * The order the servers are driven in for one slice: as given, then reversed, in turn. Driven in a
 * fixed order, each server always came right after the same one (petkit after the precomputed
 * ceiling, `--journal-limit 0` after petkit), and what the one before leaves on the machine (its
 * sockets closing, its collector) fell on the same server every slice; reversed every other slice,
 * each pair of neighbours comes in both orders, as often.
 */
export function turnOrder<T>(servers: readonly T[], slice: number): T[] {
  return slice % 2 === 0 ? [...servers] : [...servers].reverse();
}

/**
 * One scenario's figures from its slices (see BenchOptions.slices): counts and CPU summed, resident
 * memory the highest seen, and the latency percentiles the highest of the slices' (they cannot be
 * merged exactly without the histograms; the highest is the honest bound).
 */
export function mergeSlices(slices: readonly LoadFigures[]): LoadFigures {
  const [first, ...rest] = slices;
  if (first === undefined) throw new Error('mergeSlices needs at least one slice');
  if (rest.length === 0) return first;
  const sum = (pick: (f: LoadFigures) => number) => slices.reduce((total, f) => total + pick(f), 0);
  const requests = sum((f) => f.requests);
  const seconds = sum((f) => f.seconds);
  const statuses: Record<string, number> = {};
  for (const f of slices) {
    for (const [code, count] of Object.entries(f.statuses)) statuses[code] = (statuses[code] ?? 0) + count;
  }
  const rss = slices.map((f) => f.peakRss).filter((r): r is number => r !== undefined);
  const cpuKnown = slices.every((f) => f.cpuUsPerRequest !== undefined);
  return {
    requests,
    seconds,
    rps: seconds > 0 ? requests / seconds : 0,
    p50: Math.max(...slices.map((f) => f.p50)),
    p99: Math.max(...slices.map((f) => f.p99)),
    errors: sum((f) => f.errors),
    unexpected: sum((f) => f.unexpected),
    statuses,
    peakRss: rss.length === 0 ? undefined : Math.max(...rss),
    cpuUsPerRequest:
      cpuKnown && requests > 0 ? sum((f) => (f.cpuUsPerRequest ?? 0) * f.requests) / requests : undefined,
  };
}

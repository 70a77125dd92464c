// Two servers driven at the same time, each by its own connections, their CPU and answers read at the
// same instants: what an answer of one costs over an answer of the other, with whatever the machine
// does (another tenant's burst, the load generator's collector, a slower clock) falling on both.
//
// Driven in turns, a second each, the same build against itself read 0.85 to 1.15 from slice to slice
// on this bench's host (an answer's CPU follows the machine from one second to the next), and a
// scenario's ten slices could not tell 5 % from 0 %. Side by side, a second's ratio strays by 2 to 4 %:
// the machine's moves are common to both and divide out.
import autocannon from 'autocannon';
import { readCpuNsSync } from './cpu.js';
import { loadRequests } from './load.js';
import type { Scenario } from './scenarios.js';

export interface SideBySideTarget {
  readonly origin: string;
  /** The base path the server serves the API at. */
  readonly prefix: string;
  /** The process whose CPU its answers cost. */
  readonly pid: number;
}

export interface SideBySideOptions {
  /** Concurrent connections to each server. */
  readonly connections: number;
  /** How many windows are read. */
  readonly windows: number;
  /** Each window's length in milliseconds. */
  readonly windowMs: number;
  /** Load sent before the first window opens (connections opened, the servers busy). Default 500 ms. */
  readonly settleMs?: number;
  /** Reads a process's CPU in nanoseconds (tests give their own). */
  readonly readCpuNs?: (pid: number) => number | undefined;
}

/** One window: each server's CPU per answer in µs, and its answers, in the order the targets were given. */
export interface SideBySideWindow {
  readonly cpuUsPerRequest: readonly [number, number];
  readonly answers: readonly [number, number];
}

export interface SideBySideFigures {
  /** The windows in which both servers answered and both CPU readings were taken. */
  readonly windows: readonly SideBySideWindow[];
  /** Answers whose status is not the one the request expects, per server, over the whole run. */
  readonly unexpected: readonly [number, number];
  /** Connection errors and timeouts, per server. */
  readonly errors: readonly [number, number];
  /**
   * How many pairs of processes the windows came from (mergeSideBySide): absent from one pair's own
   * figures and from results written before the bench read several.
   */
  readonly pairs?: number;
  /** With `pairs`: how many of the windows each pair gave, in order (the windows are theirs, concatenated). */
  readonly pairWindows?: readonly number[];
}

/**
 * The figures of several pairs of processes driven one after the other as one: their windows
 * concatenated in order, their unexpected answers and errors summed, and how many windows each pair
 * gave (so each pair can still be read on its own). Undefined for no pairs.
 */
export function mergeSideBySide(pairs: readonly SideBySideFigures[]): SideBySideFigures | undefined {
  if (pairs.length === 0) return undefined;
  const sum = (pick: (figures: SideBySideFigures) => readonly [number, number]): [number, number] =>
    pairs.reduce<[number, number]>(
      (total, figures) => [total[0] + pick(figures)[0], total[1] + pick(figures)[1]],
      [0, 0],
    );
  return {
    windows: pairs.flatMap((figures) => figures.windows),
    unexpected: sum((figures) => figures.unexpected),
    errors: sum((figures) => figures.errors),
    pairs: pairs.length,
    pairWindows: pairs.map((figures) => figures.windows.length),
  };
}

interface Driven {
  answers: number;
  unexpected: number;
  readonly instance: autocannon.Instance;
  readonly done: Promise<autocannon.Result>;
}

function drive(target: SideBySideTarget, scenario: Scenario, connections: number): Driven {
  let resolveDone: (result: autocannon.Result) => void = () => undefined;
  let rejectDone: (error: unknown) => void = () => undefined;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    resolveDone = resolve;
    rejectDone = reject;
  });
  const driven: Driven = {
    answers: 0,
    unexpected: 0,
    done,
    instance: autocannon(
      {
        url: target.origin,
        connections,
        // Runs until stopped after the last window.
        duration: 24 * 3600,
        sampleInt: 100,
        requests: loadRequests(target.prefix, scenario, () => {
          driven.unexpected += 1;
        }),
      },
      (error: unknown, result: autocannon.Result) => (error ? rejectDone(error) : resolveDone(result)),
    ),
  };
  driven.instance.on('response', () => {
    driven.answers += 1;
  });
  return driven;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * Drives `scenario` against both targets at once and reads, at the end of each window, both servers'
 * CPU and both answer counts in one synchronous step (no answer is counted between the readings).
 */
export async function runSideBySide(
  targets: readonly [SideBySideTarget, SideBySideTarget],
  scenario: Scenario,
  options: SideBySideOptions,
): Promise<SideBySideFigures> {
  const readCpu = options.readCpuNs ?? readCpuNsSync;
  const driven = [
    drive(targets[0], scenario, options.connections),
    drive(targets[1], scenario, options.connections),
  ] as const;
  const read = () => ({
    cpu: [readCpu(targets[0].pid), readCpu(targets[1].pid)] as const,
    answers: [driven[0].answers, driven[1].answers] as const,
  });
  const windows: SideBySideWindow[] = [];
  try {
    await sleep(options.settleMs ?? 500);
    let last = read();
    let due = performance.now();
    for (let i = 0; i < options.windows; i += 1) {
      due += options.windowMs;
      await sleep(due - performance.now());
      const now = read();
      const window = windowFigures(last, now);
      if (window !== undefined) windows.push(window);
      last = now;
    }
  } finally {
    for (const d of driven) d.instance.stop();
  }
  const results = await Promise.all(driven.map((d) => d.done));
  return {
    windows,
    unexpected: [driven[0].unexpected, driven[1].unexpected],
    errors: [results[0]?.errors ?? 0, results[1]?.errors ?? 0],
  };
}

type Reading = {
  readonly cpu: readonly [number | undefined, number | undefined];
  readonly answers: readonly [number, number];
};

function windowFigures(before: Reading, after: Reading): SideBySideWindow | undefined {
  const figures = [0, 1].map((i) => {
    const from = before.cpu[i];
    const to = after.cpu[i];
    const answers = (after.answers[i] ?? 0) - (before.answers[i] ?? 0);
    if (from === undefined || to === undefined || answers <= 0) return undefined;
    return { us: (to - from) / 1000 / answers, answers };
  });
  const [a, b] = figures;
  if (a === undefined || b === undefined) return undefined;
  return { cpuUsPerRequest: [a.us, b.us], answers: [a.answers, b.answers] };
}

// The bench's flags, normalised once.
import { parseArgs } from 'node:util';
import { SCENARIOS, type ScenarioId } from './scenarios.js';
import { SERVERS, type ServerId } from './servers.js';

export interface BenchOptions {
  /** Concurrent connections. Default 50. */
  readonly connections: number;
  /** Seconds per scenario. Default 10; `--quick` makes it 1. */
  readonly duration: number;
  /** Seconds of the mixed workload sent to each server before measuring. Default 2; `--quick` 0.5. */
  readonly warmup: number;
  /**
   * A scenario's time is cut into this many slices, and the servers take turns slice by slice, so a
   * ratio compares figures taken seconds apart rather than a whole scenario apart. Default: one
   * slice per second of `duration`, at least one (four slices of 2.5 s read the same build against
   * itself to about three times the spread of sixteen of 1 s on a busy host: its stalls average out
   * over more turns).
   */
  readonly slices: number;
  /**
   * Seconds petkit and `petkit mock --journal-limit 0` are driven side by side in each scenario, in
   * windows as long as a slice, shared among its `journalPairs` pairs of processes. Default three
   * times `duration`: the journal's target is a line at 5 %, and a pair read over ten windows of a
   * second puts its figure within ±1.5 to 5 % (95 %); over thirty, about √3 closer.
   */
  readonly journalDuration: number;
  /**
   * How many pairs of processes the journal's pair is read over, each driven `journalDuration /
   * journalPairs` seconds: the run's own petkit and `--journal-limit 0`, then fresh ones for each
   * further pair. Two processes of the same build read ±2 % apart from one pair to the next, so one
   * pair's process layout would decide a scenario's figure. Default 3.
   */
  readonly journalPairs: number;
  /**
   * Seconds petkit and the work-matched ceiling are driven side by side in each scenario, shared
   * among its `ceilingPairs` pairs of processes, as the journal's pair is. Default three times
   * `duration`: one pair of ten windows read a mock at 0.89× in turns as 0.78× side by side (run 56:
   * a disturbed ten seconds, 95 % 0.67 to 0.93).
   */
  readonly ceilingDuration: number;
  /**
   * How many pairs of processes the ceiling's pair is read over, each driven `ceilingDuration /
   * ceilingPairs` seconds: the run's own petkit and ceiling, then fresh ones. Default 3.
   */
  readonly ceilingPairs: number;
  /**
   * Which servers to run. Default all but the shared mode's, which `--shared` adds (it needs a
   * PostgreSQL: the bench starts one of its own, or uses `--state URL`).
   */
  readonly servers: readonly ServerId[];
  /** Another petkit checkout, built, measured beside this one (`--baseline DIR`). */
  readonly baseline: string | undefined;
  /** The shared mode's database; undefined: an embedded one the bench starts (with `--shared`). */
  readonly state: string | undefined;
  /** Which scenarios to run. Default all. */
  readonly scenarios: readonly ScenarioId[];
  /** Whether to time a full `petkit contract` run against `petkit mock`. Default true. */
  readonly contract: boolean;
  /** Whether to measure what petkit proxy adds to a request. Default true. */
  readonly proxy: boolean;
  /** Where to write the JSON results. Default `bench-results/bench-<date>.json`. */
  readonly output: string | undefined;
  readonly help: boolean;
}

export const HELP = `npm run bench -- [options]

  --duration S        seconds per scenario (default 10)
  --quick             1 s per scenario and a 0.5 s warm-up, to try the bench out
  --warmup S          seconds of warm-up per server (default 2)
  --slices N          servers take turns N times per scenario, each for duration/N s (default one a second;
                      a slice lasts 0.1 s at least)
  --journal-duration S  seconds petkit and petkit --journal-limit 0 are driven side by side per
                      scenario (default three times --duration)
  --journal-pairs N   the journal's pair is read over N pairs of processes, each driven
                      journal-duration/N s: the first pair is the run's own processes, the others
                      are started fresh for it, warmed with the mixed workload for --warmup s,
                      then stopped (default 3)
  --ceiling-duration S  seconds petkit and the work-matched ceiling are driven side by side per
                      scenario (default three times --duration)
  --ceiling-pairs N   the ceiling's pair is read over N pairs of processes, as --journal-pairs
                      (default 3)
  --connections N     concurrent connections (default 50, at most 10000)
  --servers a,b       among ${SERVERS.map((s) => s.id).join(', ')}
                      (default all but petkit-shared*)
  --shared            add the shared mode: petkit mock --state, 1 and 2 replicas on one PostgreSQL
                      (an embedded one the bench starts, unless --state URL)
  --state URL         the shared mode's PostgreSQL (implies --shared)
  --baseline DIR      also run the petkit mock of DIR, another checkout of petkit built with
                      npm run build (a commit before a change), slice by slice beside this one,
                      then side by side with it (both driven at once)
  --scenarios a,b     among ${SCENARIOS.map((s) => s.id).join(', ')} (default all)
  --no-contract       skip timing a full petkit contract run
  --no-proxy          skip measuring petkit proxy's overhead against a direct call
  --output FILE       where to write the JSON (default bench-results/bench-<date>.json)
`;

/** The most connections `--connections` takes. */
export const MAX_CONNECTIONS = 10_000;
/** The shortest slice (seconds) `--slices` may cut a scenario's `--duration` into. */
export const MIN_SLICE_S = 0.1;

/** Thrown on a flag the bench does not know or a value it cannot use. */
export class BenchArgsError extends Error {
  override readonly name = 'BenchArgsError';
}

/** How many side-by-side windows, each a slice long, `seconds` hold: one at least. */
export function sideBySideWindows(
  seconds: number,
  options: Pick<BenchOptions, 'slices' | 'duration'>,
): number {
  return Math.max(1, Math.round((seconds * options.slices) / options.duration));
}

function positive(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new BenchArgsError(`--${name} must be a positive number, not "${raw}"`);
  return value;
}

/**
 * A pair read side by side over several pairs of processes (`--NAME-duration`, `--NAME-pairs`):
 * three times `duration` over three pairs unless said. Each pair is driven one window at least (a
 * slice long): no more pairs than the windows, so that a number too large is refused rather than
 * starting processes for pairs past the time given.
 */
function pairsOf(
  name: 'journal' | 'ceiling',
  rawDuration: string | undefined,
  rawPairs: string | undefined,
  options: Pick<BenchOptions, 'slices' | 'duration'>,
): { readonly duration: number; readonly pairs: number } {
  const duration = positive(`${name}-duration`, rawDuration, 3 * options.duration);
  const pairs = positive(`${name}-pairs`, rawPairs, 3);
  if (!Number.isInteger(pairs)) throw new BenchArgsError(`--${name}-pairs must be a whole number`);
  const windows = sideBySideWindows(duration, options);
  if (pairs > windows)
    throw new BenchArgsError(
      `--${name}-pairs ${pairs} is more than the ${windows} windows of ${duration} s side by side (--${name}-duration): each pair needs one`,
    );
  return { duration, pairs };
}

function pick<T extends string>(
  name: string,
  raw: string | undefined,
  defaults: readonly T[],
  known: readonly T[] = defaults,
): readonly T[] {
  if (raw === undefined) return defaults;
  const wanted = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const unknown = wanted.filter((w) => !known.includes(w as T));
  if (unknown.length > 0 || wanted.length === 0) {
    throw new BenchArgsError(
      `--${name}: unknown ${unknown.join(', ') || '(none given)'}; known: ${known.join(', ')}`,
    );
  }
  return known.filter((k) => wanted.includes(k));
}

export function parseBenchArgs(argv: readonly string[]): BenchOptions {
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(argv).values;
  } catch (error) {
    throw new BenchArgsError((error as Error).message, { cause: error });
  }
  const quick = values.quick === true;
  const connections = positive('connections', values.connections, 50);
  if (!Number.isInteger(connections)) throw new BenchArgsError('--connections must be a whole number');
  // Each is a socket and autocannon's state for it, opened at once: a number past any machine's
  // file descriptors is refused, not tried until memory or descriptors run out.
  if (connections > MAX_CONNECTIONS)
    throw new BenchArgsError(`--connections ${connections} is more than ${MAX_CONNECTIONS}`);
  const duration = positive('duration', values.duration, quick ? 1 : 10);
  const slices = positive('slices', values.slices, Math.max(1, Math.round(duration)));
  if (!Number.isInteger(slices)) throw new BenchArgsError('--slices must be a whole number');
  // A slice is a load run of its own (autocannon started, driven, stopped, the CPU read): one shorter
  // than MIN_SLICE_S reads nothing but its own start, and a huge count is a run that never ends.
  const mostSlices = Math.floor(duration / MIN_SLICE_S + 1e-9);
  if (mostSlices < 1)
    throw new BenchArgsError(`--duration ${duration} is shorter than a slice: ${MIN_SLICE_S} s at least`);
  if (slices > mostSlices)
    throw new BenchArgsError(
      `--slices ${slices} cuts --duration ${duration} into slices shorter than ${MIN_SLICE_S} s: at most ${mostSlices}`,
    );
  const journal = pairsOf('journal', values['journal-duration'], values['journal-pairs'], {
    slices,
    duration,
  });
  const ceiling = pairsOf('ceiling', values['ceiling-duration'], values['ceiling-pairs'], {
    slices,
    duration,
  });
  return {
    connections,
    duration,
    slices,
    journalDuration: journal.duration,
    journalPairs: journal.pairs,
    ceilingDuration: ceiling.duration,
    ceilingPairs: ceiling.pairs,
    warmup: positive('warmup', values.warmup, quick ? 0.5 : 2),
    servers: pick(
      'servers',
      values.servers,
      SERVERS.filter(
        (s) =>
          (s.shared !== true || values.shared === true || values.state !== undefined) &&
          (s.baseline !== true || values.baseline !== undefined),
      ).map((s) => s.id),
      SERVERS.map((s) => s.id),
    ),
    state: values.state,
    baseline: values.baseline,
    scenarios: pick(
      'scenarios',
      values.scenarios,
      SCENARIOS.map((s) => s.id),
    ),
    contract: values['no-contract'] !== true,
    proxy: values['no-proxy'] !== true,
    output: values.output,
    help: values.help === true,
  };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      duration: { type: 'string' },
      quick: { type: 'boolean' },
      warmup: { type: 'string' },
      slices: { type: 'string' },
      'journal-duration': { type: 'string' },
      'journal-pairs': { type: 'string' },
      'ceiling-duration': { type: 'string' },
      'ceiling-pairs': { type: 'string' },
      connections: { type: 'string' },
      servers: { type: 'string' },
      shared: { type: 'boolean' },
      state: { type: 'string' },
      baseline: { type: 'string' },
      scenarios: { type: 'string' },
      'no-contract': { type: 'boolean' },
      'no-proxy': { type: 'boolean' },
      output: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

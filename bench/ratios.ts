// petkit's figures over the other servers', scenario by scenario: the ratio columns of the table.
import type {
  JournalCost,
  OverPetkit,
  RatioRow,
  ScenarioResult,
  ServerResult,
  SideBySideCost,
} from './report.js';
import type { ScenarioId } from './scenarios.js';
import type { ServerId } from './servers.js';
import type { SideBySideFigures, SideBySideWindow } from './side-by-side.js';

function scenariosOf(servers: readonly ServerResult[], id: ServerId): readonly ScenarioResult[] | undefined {
  const server = servers.find((s) => s.server === id);
  return server?.ran ? server.scenarios : undefined;
}

function ratio(a: ScenarioResult | undefined, b: ScenarioResult | undefined): number | undefined {
  if (a === undefined || b === undefined || b.rps === 0) return undefined;
  return a.rps / b.rps;
}

/** b's CPU per answer over a's; undefined without both figures. */
function cpuRatio(a: ScenarioResult | undefined, b: ScenarioResult | undefined): number | undefined {
  const mine = a?.cpuUsPerRequest;
  const theirs = b?.cpuUsPerRequest;
  if (mine === undefined || theirs === undefined || mine === 0) return undefined;
  return theirs / mine;
}

/** petkit's CPU per answer over `--journal-limit 0`'s, whole and slice by slice; undefined without both. */
export function journalCost(
  petkit: ScenarioResult | undefined,
  none: ScenarioResult | undefined,
): JournalCost | undefined {
  const ratio = cpuRatio(none, petkit);
  if (ratio === undefined) return undefined;
  const sideBySide = sideBySideCost(petkit, none);
  const together = sideBySide === undefined ? {} : { sideBySide };
  const pairs = slicePairs(petkit, none);
  if (pairs.length === 0) return { ratio, ...together };
  const slices = { median: median(pairs), min: Math.min(...pairs), max: Math.max(...pairs) };
  const interval = meanInterval(pairs.map(Math.log));
  return {
    ratio,
    slices,
    ...(interval === undefined
      ? {}
      : { interval: { low: Math.exp(interval.low), high: Math.exp(interval.high) } }),
    ...together,
  };
}

/**
 * The journal's cost from petkit's side-by-side windows (see SideBySideCost): undefined without
 * three windows or without `--journal-limit 0`'s CPU an answer alone. When the windows came from
 * several pairs of processes, with how many and each pair's own reading.
 */
export function sideBySideCost(
  petkit: ScenarioResult | undefined,
  none: ScenarioResult | undefined,
): SideBySideCost | undefined {
  const figures = petkit?.journalSideBySide;
  const alone = none?.cpuUsPerRequest;
  const cost = differenceCost(figures?.windows ?? [], alone);
  return cost === undefined ? undefined : { ...cost, ...pairsRead(figures, alone, (r) => r) };
}

/**
 * With windows from several pairs of processes: how many, and each pair's own reading, `as` of its
 * 1 + mean difference over `alone` (NaN for a pair that gave no window; none when the counts do not
 * add up). Nothing from one pair's windows.
 */
function pairsRead(
  figures: Pick<SideBySideFigures, 'windows' | 'pairs' | 'pairWindows'> | undefined,
  alone: number | undefined,
  as: (ratio: number) => number,
): { readonly pairs?: number; readonly pairRatios?: readonly number[] } {
  if (figures?.pairs === undefined || alone === undefined) return {};
  const pairRatios = pairDifferenceRatios(figures.windows, figures.pairWindows, alone);
  return { pairs: figures.pairs, ...(pairRatios === undefined ? {} : { pairRatios: pairRatios.map(as) }) };
}

/**
 * Each pair's 1 + mean difference over `alone`, its windows found from how many each gave (NaN for a
 * pair that gave none); undefined when the counts do not add up to the windows (results edited by hand).
 */
export function pairDifferenceRatios(
  windows: readonly SideBySideWindow[],
  pairWindows: readonly number[] | undefined,
  alone: number,
): number[] | undefined {
  if (pairWindows === undefined || pairWindows.reduce((sum, n) => sum + n, 0) !== windows.length)
    return undefined;
  let start = 0;
  return pairWindows.map((count) => {
    const own = windows.slice(start, start + count);
    start += count;
    return own.length === 0 ? Number.NaN : 1 + meanDifference(own) / alone;
  });
}

/**
 * Another server's CPU an answer over petkit's from their side-by-side windows (the work-matched
 * ceiling's, a baseline build's): the other's alone over the same plus petkit's extra (the windows'
 * mean difference), so read the way the journal's cost is. Undefined without three windows or the
 * other's CPU an answer alone. When the windows came from several pairs of processes, with how many
 * and each pair's own reading.
 */
export function overPetkitSideBySide(
  figures: Pick<SideBySideFigures, 'windows' | 'pairs' | 'pairWindows'> | undefined,
  other: ScenarioResult | undefined,
): OverPetkit | undefined {
  const alone = other?.cpuUsPerRequest;
  const cost = differenceCost(figures?.windows ?? [], alone);
  if (cost === undefined) return undefined;
  return {
    ratio: 1 / cost.ratio,
    low: 1 / cost.high,
    // A cost interval reaching 0 or below (a few windows, far apart): no upper bound, not its inverse.
    high: cost.low > 0 ? 1 / cost.low : Number.POSITIVE_INFINITY,
    extraUs: cost.extraUs,
    windows: cost.windows,
    ...pairsRead(figures, alone, (r) => 1 / r),
  };
}

/** What the first of a side-by-side pair costs over the second in one window, in CPU µs an answer. */
const difference = (window: SideBySideWindow): number =>
  window.cpuUsPerRequest[0] - window.cpuUsPerRequest[1];

/** The windows' mean difference (at least one window). */
function meanDifference(windows: readonly SideBySideWindow[]): number {
  return windows.reduce((sum, window) => sum + difference(window), 0) / windows.length;
}

/** What the first of a side-by-side pair costs over the second, a window at a time, over the second's CPU an answer `alone`. */
function differenceCost(
  windows: readonly SideBySideWindow[],
  alone: number | undefined,
): SideBySideCost | undefined {
  if (alone === undefined || alone <= 0) return undefined;
  const interval = meanInterval(windows.map(difference));
  if (interval === undefined) return undefined;
  const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const extraUs = meanDifference(windows);
  const first = mean(windows.map((w) => w.cpuUsPerRequest[0]));
  const second = mean(windows.map((w) => w.cpuUsPerRequest[1]));
  return {
    ratio: 1 + extraUs / alone,
    low: 1 + interval.low / alone,
    high: 1 + interval.high / alone,
    extraUs,
    together: second > 0 ? first / second : Number.NaN,
    windows: windows.length,
  };
}

/** petkit's CPU per answer over `--journal-limit 0`'s in each slice both have a figure for (the i-th of each: a pair). */
function slicePairs(petkit: ScenarioResult | undefined, none: ScenarioResult | undefined): number[] {
  const pairs: number[] = [];
  const theirs = none?.slices ?? [];
  (petkit?.slices ?? []).forEach((slice, i) => {
    const mine = slice.cpuUsPerRequest;
    const other = theirs[i]?.cpuUsPerRequest;
    if (mine !== undefined && other !== undefined && other > 0) pairs.push(mine / other);
  });
  return pairs;
}

/**
 * The journal over every scenario of the run: the geometric mean of all their slices' ratios and its
 * 95 % interval. One scenario's ten slices read the journal to ±5 to 10 % on a busy machine (a slice's
 * own ratio strays by 15 %); the eighty of a run, to about ±3 %: what the run can say of its cost as a
 * whole. Undefined with fewer than three pairs.
 */
export function pooledJournalCost(
  servers: readonly ServerResult[],
):
  | { readonly ratio: number; readonly pairs: number; readonly low: number; readonly high: number }
  | undefined {
  const petkit = scenariosOf(servers, 'petkit') ?? [];
  const none = scenariosOf(servers, 'petkit-no-journal') ?? [];
  const logs = petkit.flatMap((mine) =>
    slicePairs(
      mine,
      none.find((theirs) => theirs.scenario === mine.scenario),
    ).map(Math.log),
  );
  const interval = meanInterval(logs);
  if (interval === undefined) return undefined;
  const mean = logs.reduce((sum, value) => sum + value, 0) / logs.length;
  return {
    ratio: Math.exp(mean),
    pairs: logs.length,
    low: Math.exp(interval.low),
    high: Math.exp(interval.high),
  };
}

/** Student's t at 0.975 for 1 to 30 degrees of freedom; past them, the normal's 1.96. */
const T_975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131,
  2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/** The 95 % interval of the mean of `values` (Student's t); undefined for fewer than three. */
export function meanInterval(values: readonly number[]): { low: number; high: number } | undefined {
  const n = values.length;
  if (n < 3) return undefined;
  const mean = values.reduce((sum, value) => sum + value, 0) / n;
  const variance = values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (n - 1);
  const half = (T_975[n - 2] ?? 1.96) * Math.sqrt(variance / n);
  return { low: mean - half, high: mean + half };
}

/** The middle value, or the mean of the two middle ones; 0 for none. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** petkit's req/s over Prism-silent's and over each ceiling's, scenario by scenario. */
export function computeRatios(
  servers: readonly ServerResult[],
  scenarios: readonly ScenarioId[],
): RatioRow[] {
  const petkit = scenariosOf(servers, 'petkit');
  const prism = scenariosOf(servers, 'prism-silent');
  const ceiling = scenariosOf(servers, 'ceiling-work');
  const precomputed = scenariosOf(servers, 'ceiling');
  const baseline = scenariosOf(servers, 'petkit-baseline');
  const none = scenariosOf(servers, 'petkit-no-journal');
  const find = (list: readonly ScenarioResult[] | undefined, id: ScenarioId) =>
    list?.find((s) => s.scenario === id);
  return scenarios.map((id) => ({
    scenario: id,
    overPrismSilent: ratio(find(petkit, id), find(prism, id)),
    overCeiling: ratio(find(petkit, id), find(ceiling, id)),
    cpuOverPrismSilent: cpuRatio(find(petkit, id), find(prism, id)),
    cpuOverCeiling: cpuRatio(find(petkit, id), find(ceiling, id)),
    overPrecomputed: ratio(find(petkit, id), find(precomputed, id)),
    cpuOverPrecomputed: cpuRatio(find(petkit, id), find(precomputed, id)),
    journal: journalCost(find(petkit, id), find(none, id)),
    ceilingSideBySide: overPetkitSideBySide(find(petkit, id)?.ceilingSideBySide, find(ceiling, id)),
    ...(baseline === undefined
      ? {}
      : {
          overBaseline: ratio(find(petkit, id), find(baseline, id)),
          cpuOverBaseline: cpuRatio(find(petkit, id), find(baseline, id)),
          baselineSideBySide: overPetkitSideBySide(find(petkit, id)?.baselineSideBySide, find(baseline, id)),
        }),
  }));
}

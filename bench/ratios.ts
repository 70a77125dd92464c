// petkit's figures over the other servers', scenario by scenario: the ratio columns of the table.
import type { RatioRow, ScenarioResult, ServerResult, SliceFigures } from './report.js';
import type { ScenarioId } from './scenarios.js';
import type { ServerId } from './servers.js';

function scenariosOf(servers: readonly ServerResult[], id: ServerId): readonly ScenarioResult[] | undefined {
  const server = servers.find((s) => s.server === id);
  return server?.ran ? server.scenarios : undefined;
}

/**
 * The ratio of two servers' figures for a scenario. Taken in rounds of turns (slices), it is the
 * median of the rounds' ratios: each round compares figures taken seconds apart, and a burst of load
 * from elsewhere on the machine that falls on one server's slice moves one round, not the result.
 * Without slices (one slice each, or results written before slices were kept), the totals' ratio.
 */
function paired(
  a: ScenarioResult | undefined,
  b: ScenarioResult | undefined,
  of: (x: { rps: number; cpuUsPerRequest: number | undefined }) => number | undefined,
  over: (mine: number, theirs: number) => number | undefined,
): number | undefined {
  if (a === undefined || b === undefined) return undefined;
  const mine = a.slices;
  const theirs = b.slices;
  if (mine !== undefined && theirs !== undefined && mine.length > 1 && mine.length === theirs.length) {
    const rounds: number[] = [];
    for (let i = 0; i < mine.length; i += 1) {
      const x = of(mine[i] as SliceFigures);
      const y = of(theirs[i] as SliceFigures);
      const r = x === undefined || y === undefined ? undefined : over(x, y);
      if (r !== undefined) rounds.push(r);
    }
    if (rounds.length > 0) return median(rounds);
  }
  const x = of(a);
  const y = of(b);
  return x === undefined || y === undefined ? undefined : over(x, y);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** a's req/s over b's. */
function ratio(a: ScenarioResult | undefined, b: ScenarioResult | undefined): number | undefined {
  return paired(
    a,
    b,
    (x) => x.rps,
    (mine, theirs) => (theirs === 0 ? undefined : mine / theirs),
  );
}

/** b's CPU per answer over a's; undefined without both figures. */
function cpuRatio(a: ScenarioResult | undefined, b: ScenarioResult | undefined): number | undefined {
  return paired(
    a,
    b,
    (x) => x.cpuUsPerRequest,
    (mine, theirs) => (mine === 0 ? undefined : theirs / mine),
  );
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
    ...(baseline === undefined
      ? {}
      : {
          overBaseline: ratio(find(petkit, id), find(baseline, id)),
          cpuOverBaseline: cpuRatio(find(petkit, id), find(baseline, id)),
        }),
  }));
}

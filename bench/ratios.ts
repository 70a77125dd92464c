// petkit's figures over the other servers', scenario by scenario: the ratio columns of the table.
import type { JournalCost, RatioRow, ScenarioResult, ServerResult } from './report.js';
import type { ScenarioId } from './scenarios.js';
import type { ServerId } from './servers.js';

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
  const pairs: number[] = [];
  const theirs = none?.slices ?? [];
  (petkit?.slices ?? []).forEach((slice, i) => {
    const mine = slice.cpuUsPerRequest;
    const other = theirs[i]?.cpuUsPerRequest;
    if (mine !== undefined && other !== undefined && other > 0) pairs.push(mine / other);
  });
  if (pairs.length === 0) return { ratio };
  return { ratio, slices: { median: median(pairs), min: Math.min(...pairs), max: Math.max(...pairs) } };
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
    ...(baseline === undefined
      ? {}
      : {
          overBaseline: ratio(find(petkit, id), find(baseline, id)),
          cpuOverBaseline: cpuRatio(find(petkit, id), find(baseline, id)),
        }),
  }));
}

// Ratios between servers and the targets, computed from one run's figures.
import type {
  ContractResult,
  RatioRow,
  ScenarioResult,
  ServerResult,
  TargetResult,
  Verdict,
} from './report.js';
import { PRISM_TARGET_SCENARIOS, type ScenarioId } from './scenarios.js';
import type { ServerId } from './servers.js';

const MB = 1024 * 1024;

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

/** petkit's req/s over Prism-silent's and over the ceiling's, scenario by scenario. */
export function computeRatios(
  servers: readonly ServerResult[],
  scenarios: readonly ScenarioId[],
): RatioRow[] {
  const petkit = scenariosOf(servers, 'petkit');
  const prism = scenariosOf(servers, 'prism-silent');
  const ceiling = scenariosOf(servers, 'ceiling');
  const find = (list: readonly ScenarioResult[] | undefined, id: ScenarioId) =>
    list?.find((s) => s.scenario === id);
  return scenarios.map((id) => ({
    scenario: id,
    overPrismSilent: ratio(find(petkit, id), find(prism, id)),
    overCeiling: ratio(find(petkit, id), find(ceiling, id)),
    cpuOverPrismSilent: cpuRatio(find(petkit, id), find(prism, id)),
    cpuOverCeiling: cpuRatio(find(petkit, id), find(ceiling, id)),
  }));
}

function verdict(value: number | undefined, ok: (v: number) => boolean): Verdict {
  if (value === undefined) return 'not measured';
  return ok(value) ? 'met' : 'missed';
}

/** The lowest ratio, and where; undefined when any scenario has no ratio (a server did not run). */
function lowest(rows: readonly RatioRow[], pick: (r: RatioRow) => number | undefined) {
  let worst: { value: number; scenario: ScenarioId } | undefined;
  for (const row of rows) {
    const value = pick(row);
    if (value === undefined) return undefined;
    if (worst === undefined || value < worst.value) worst = { value, scenario: row.scenario };
  }
  return worst;
}

/**
 * The targets, each met or missed from this run's figures. A throughput or latency figure
 * counts only when petkit answered every request as expected, with no connection error: speed
 * bought by wrong answers is not speed.
 */
export function evaluateTargets(
  servers: readonly ServerResult[],
  ratios: readonly RatioRow[],
  contract: ContractResult,
): TargetResult[] {
  const petkitServer = servers.find((s) => s.server === 'petkit');
  const petkit = petkitServer?.ran ? petkitServer : undefined;
  const wrong =
    petkit?.scenarios.filter((s) => s.unexpected > 0 || s.errors > 0).map((s) => s.scenario) ?? [];
  const caveat = wrong.length > 0 ? ` (unexpected answers or errors in ${wrong.join(', ')})` : '';
  const clean = (v: Verdict): Verdict => (v === 'met' && wrong.length > 0 ? 'missed' : v);

  const ceiling = lowest(ratios, (r) => r.overCeiling);
  const prismRows = ratios.filter((r) => PRISM_TARGET_SCENARIOS.includes(r.scenario));
  const prism = lowest(prismRows, (r) => r.overPrismSilent);
  const p99 = petkit?.scenarios.reduce<{ value: number; scenario: ScenarioId } | undefined>(
    (worst, s) =>
      worst === undefined || s.p99 > worst.value ? { value: s.p99, scenario: s.scenario } : worst,
    undefined,
  );
  const start = petkit?.startToFirstAnswerMs;
  const peak = petkit?.peakRss;
  const wall = contract.ran ? contract.wallMs : undefined;

  return [
    {
      figure: 'req/s, every scenario, petkit / node:http ceiling',
      target: '≥ 0.6',
      value:
        ceiling === undefined ? '–' : `lowest ${ceiling.value.toFixed(2)} (${ceiling.scenario})${caveat}`,
      verdict: clean(verdict(ceiling?.value, (v) => v >= 0.6)),
    },
    {
      figure: 'req/s, list and create, petkit / Prism -v silent',
      target: '≥ 10',
      value: prism === undefined ? '–' : `lowest ${prism.value.toFixed(1)} (${prism.scenario})${caveat}`,
      verdict: clean(verdict(prism?.value, (v) => v >= 10)),
    },
    {
      figure: 'p99 latency at 50 connections (petkit)',
      target: '≤ 5 ms',
      value: p99 === undefined ? '–' : `highest ${p99.value} ms (${p99.scenario})${caveat}`,
      verdict: clean(verdict(p99?.value, (v) => v <= 5)),
    },
    {
      figure: 'start to first answer (petkit)',
      target: '≤ 250 ms',
      value: start === undefined ? '–' : `${Math.round(start)} ms`,
      verdict: verdict(start, (v) => v <= 250),
    },
    {
      figure: 'peak resident memory under the bench (petkit)',
      target: '≤ 120 MB',
      value: peak === undefined ? '–' : `${(peak / MB).toFixed(0)} MB`,
      verdict: verdict(peak, (v) => v <= 120 * MB),
    },
    {
      figure: 'full default contract run against the local mock',
      target: '≤ 5 s wall',
      value: wall === undefined ? '–' : `${(wall / 1000).toFixed(2)} s`,
      verdict: verdict(wall, (v) => v <= 5000),
    },
  ];
}

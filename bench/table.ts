// Markdown tables of a BenchReport: what the bench prints, and the performance table of the docs.

import { pooledJournalCost } from './ratios.js';
import type { BenchReport, OverPetkit, RatioRow, SideBySideCost } from './report.js';
import { SCENARIOS } from './scenarios.js';

const MB = 1024 * 1024;

export function markdownTable(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const mb = (bytes: number | undefined) => (bytes === undefined ? '–' : (bytes / MB).toFixed(0));
const times = (n: number | undefined, digits: number) =>
  n === undefined ? '–' : n === Number.POSITIVE_INFINITY ? '∞' : `${n.toFixed(digits)}×`;

function statusCounts(statuses: Readonly<Record<string, number>>): string {
  return Object.entries(statuses)
    .map(([code, count]) => `${code}: ${int(count)}`)
    .join(', ');
}

function ratioCells(row: RatioRow | undefined, baseline: boolean): string[] {
  const cpu = (n: number | undefined, digits: number) =>
    n === undefined ? '' : ` (CPU ${times(n, digits)})`;
  return [
    `${times(row?.overPrismSilent, 1)}${cpu(row?.cpuOverPrismSilent, 1)}`,
    // Three digits where a target is read (0.8× the work-matched ceiling, the journal within 5 %):
    // two would show 0.796 as 0.80× and 1.054 as 1.05×.
    `${times(row?.overCeiling, 2)}${cpu(row?.cpuOverCeiling, 3)}${sideBySideCell(row?.ceilingSideBySide)}`,
    `${times(row?.overPrecomputed, 2)}${cpu(row?.cpuOverPrecomputed, 2)}`,
    journalCell(row),
    ...(baseline
      ? [
          `${times(row?.overBaseline, 2)}${cpu(row?.cpuOverBaseline, 2)}${sideBySideCell(row?.baselineSideBySide)}`,
        ]
      : []),
  ];
}

/**
 * `1.03× (slices 1.01× to 1.06×, median 1.03×; 95 % 1.00× to 1.07×)`: what the journal costs, how far
 * its slices stray, and where its cost lies as far as the run can tell; led, when the run drove both
 * side by side, by that reading (`1.012× side by side, +0.6 µs an answer, 95 % 1.004× to 1.020×;
 * in turns …`), the one the target is read on, and over more than one pair of processes each pair's
 * own (`1.031× side by side over 3 pairs of processes (1.024×, 1.045×, 1.025×), …`).
 */
function journalCell(row: RatioRow | undefined): string {
  const journal = row?.journal;
  if (journal === undefined) return '–';
  const { slices, interval, sideBySide } = journal;
  const lead =
    sideBySide === undefined
      ? ''
      : `${times(sideBySide.ratio, 3)} side by side${overPairs(sideBySide)}, ${signed(sideBySide.extraUs)} µs an answer, 95 % ${times(sideBySide.low, 3)} to ${times(sideBySide.high, 3)}; in turns `;
  if (slices === undefined) return `${lead}${times(journal.ratio, 3)}`;
  const within =
    interval === undefined ? '' : `; 95 % ${times(interval.low, 3)} to ${times(interval.high, 3)}`;
  return `${lead}${times(journal.ratio, 3)} (slices ${times(slices.min, 3)} to ${times(slices.max, 3)}, median ${times(slices.median, 3)}${within})`;
}

/**
 * ` over 3 pairs of processes (1.024×, 1.045×, 1.025×)`: the pairs the journal's side-by-side reading
 * came from and each one's own, a pair without windows as –; empty for one pair.
 */
function overPairs(cost: Pick<SideBySideCost, 'pairs' | 'pairRatios'>): string {
  const { pairs, pairRatios } = cost;
  if (pairs === undefined || pairs <= 1) return '';
  const each =
    pairRatios === undefined
      ? ''
      : ` (${pairRatios.map((r) => (Number.isFinite(r) ? times(r, 3) : '–')).join(', ')})`;
  return ` over ${pairs} pairs of processes${each}`;
}

/**
 * `; side by side 0.912× (95 % 0.897× to 0.927×)`: another's CPU over petkit's, read side by side,
 * and over more than one pair of processes each pair's own (`; side by side 0.912× over 3 pairs of
 * processes (0.905×, 0.921×, 0.910×) (95 % …)`); empty without.
 */
function sideBySideCell(read: OverPetkit | undefined): string {
  if (read === undefined) return '';
  return `; side by side ${times(read.ratio, 3)}${overPairs(read)} (95 % ${times(read.low, 3)} to ${times(read.high, 3)})`;
}

const signed = (n: number) => `${n < 0 ? '−' : '+'}${Math.abs(n).toFixed(1)}`;

/** One row per scenario and server, ratios on petkit's rows. */
export function loadTable(report: BenchReport): string {
  const rows: string[][] = [];
  // A column petkit/baseline only when a baseline build ran (--baseline DIR).
  const baseline = report.servers.some((server) => server.server === 'petkit-baseline' && server.ran);
  const empty = baseline ? ['', '', '', '', ''] : ['', '', '', ''];
  for (const scenario of SCENARIOS) {
    for (const server of report.servers) {
      if (!server.ran) continue;
      const s = server.scenarios.find((x) => x.scenario === scenario.id);
      if (s === undefined) continue;
      const ratio = report.ratios.find((r) => r.scenario === scenario.id);
      rows.push([
        scenario.id,
        server.label,
        int(s.rps),
        String(s.p50),
        String(s.p99),
        s.cpuUsPerRequest === undefined ? '–' : s.cpuUsPerRequest.toFixed(1),
        mb(s.peakRss),
        String(s.errors),
        String(s.unexpected),
        statusCounts(s.statuses),
        ...(server.server === 'petkit' ? ratioCells(ratio, baseline) : empty),
      ]);
    }
  }
  return markdownTable(
    [
      'scenario',
      'server',
      'req/s',
      'p50 ms',
      'p99 ms',
      'CPU µs/req',
      'RSS MB',
      'errors',
      'unexpected',
      'statuses',
      'petkit/Prism-silent',
      'petkit/ceiling (work-matched)',
      'petkit/ceiling (precomputed)',
      'journal (CPU over --journal-limit 0)',
      ...(baseline ? ['petkit/baseline'] : []),
    ],
    rows,
  );
}

/** A scenario's slices whose work-matched ceiling's CPU an answer is further apart than this: the machine's speed moved. */
export const UNSTEADY_SPREAD = 1.15;

/**
 * How fast the machine was: the work-matched ceiling's CPU an answer per scenario (on a machine
 * busy with others' work every server pays more per answer, and petkit's ratios come closer to 1:
 * compare runs whose ceilings took about the same), and each scenario during which it moved from
 * slice to slice by more than UNSTEADY_SPREAD (its ratios are less sure). Empty without that ceiling.
 */
export function machineNote(report: BenchReport): string {
  const ceiling = report.servers.find((s) => s.server === 'ceiling-work');
  if (ceiling === undefined || !ceiling.ran) return '';
  const speeds: string[] = [];
  const moved: string[] = [];
  for (const scenario of SCENARIOS) {
    const s = ceiling.scenarios.find((x) => x.scenario === scenario.id);
    if (s?.cpuUsPerRequest === undefined) continue;
    speeds.push(`${scenario.id} ${s.cpuUsPerRequest.toFixed(1)} µs`);
    const slices = (s.slices ?? []).flatMap((slice) =>
      slice.cpuUsPerRequest === undefined ? [] : [slice.cpuUsPerRequest],
    );
    const low = Math.min(...slices);
    const high = Math.max(...slices);
    if (slices.length > 1 && high > UNSTEADY_SPREAD * low)
      moved.push(
        `The machine's speed moved during ${scenario.id}: the work-matched ceiling took ${low.toFixed(1)} to ${high.toFixed(1)} µs of CPU an answer from slice to slice (${(high / low).toFixed(2)}×); its ratios are less sure than the others'.`,
      );
  }
  if (speeds.length === 0) return '';
  return [
    `The work-matched ceiling's CPU an answer (the machine's speed): ${speeds.join(', ')}.`,
    ...moved,
  ].join('\n');
}

/**
 * What the journal costs: side by side, scenario by scenario, and its highest (the target's reading),
 * when the run drove both at once; petkit against the work-matched ceiling side by side, and its
 * lowest; the journal over the whole run's slices in turns (pooledJournalCost). Empty without them.
 */
export function journalNote(report: BenchReport): string {
  const lines: string[] = [];
  const read = report.ratios.flatMap((row) =>
    row.journal?.sideBySide === undefined ? [] : [{ scenario: row.scenario, cost: row.journal.sideBySide }],
  );
  const highest = read.reduce<(typeof read)[number] | undefined>(
    (top, r) => (top === undefined || r.cost.ratio > top.cost.ratio ? r : top),
    undefined,
  );
  if (highest !== undefined) {
    lines.push(
      `The journal side by side (petkit and --journal-limit 0 driven at once, their difference in CPU an answer over --journal-limit 0's alone): ${read.map((r) => `${r.scenario} ${times(r.cost.ratio, 3)}`).join(', ')}; the highest ${times(highest.cost.ratio, 3)} (${highest.scenario}, 95 % ${times(highest.cost.low, 3)} to ${times(highest.cost.high, 3)}).`,
    );
  }
  const ceiling = report.ratios.flatMap((row) =>
    row.ceilingSideBySide === undefined ? [] : [{ scenario: row.scenario, read: row.ceilingSideBySide }],
  );
  const lowest = ceiling.reduce<(typeof ceiling)[number] | undefined>(
    (low, r) => (low === undefined || r.read.ratio < low.read.ratio ? r : low),
    undefined,
  );
  if (lowest !== undefined) {
    lines.push(
      `petkit against the work-matched ceiling side by side (the ceiling's CPU an answer alone over the same plus petkit's extra, both driven at once): ${ceiling.map((r) => `${r.scenario} ${times(r.read.ratio, 3)}`).join(', ')}; the lowest ${times(lowest.read.ratio, 3)} (${lowest.scenario}, 95 % ${times(lowest.read.low, 3)} to ${times(lowest.read.high, 3)}).`,
    );
  }
  const pooled = pooledJournalCost(report.servers);
  if (pooled !== undefined) {
    lines.push(
      `The journal over every scenario: ${times(pooled.ratio, 3)} of --journal-limit 0's CPU an answer (the geometric mean of ${pooled.pairs} slices' ratios; 95 % ${times(pooled.low, 3)} to ${times(pooled.high, 3)}).`,
    );
  }
  return lines.join('\n');
}

export function serverTable(report: BenchReport): string {
  return markdownTable(
    ['server', 'start to first answer', 'peak RSS (VmHWM)', 'note'],
    report.servers.map((s) =>
      s.ran
        ? [s.label, `${int(s.startToFirstAnswerMs)} ms`, `${mb(s.peakRss)} MB`, '']
        : [s.label, '–', '–', `not run: ${s.reason}`],
    ),
  );
}

export function contractTable(report: BenchReport): string {
  const c = report.contract;
  return markdownTable(
    ['contract run against petkit mock', 'wall', 'requests sent', 'req/s', 'exit'],
    [
      c.ran
        ? [
            'petkit contract (defaults)',
            `${(c.wallMs / 1000).toFixed(2)} s`,
            c.requests === undefined ? '–' : int(c.requests),
            c.rps === undefined ? '–' : int(c.rps),
            String(c.exitCode),
          ]
        : [`not run: ${c.reason}`, '–', '–', '–', '–'],
    ],
  );
}

export function fullReport(report: BenchReport): string {
  const { machine, options } = report;
  const speed = machineNote(report);
  const journal = journalNote(report);
  return [
    `petkit bench, ${report.date}: ${machine.cpus} (${machine.cores} cores), ${machine.memoryGb} GB, Node ${machine.node}, ${machine.os}`,
    `${options.connections} connections, ${options.duration} s per scenario after a ${options.warmup} s warm-up`,
    '',
    loadTable(report),
    '',
    ...(speed === '' ? [] : [speed, '']),
    ...(journal === '' ? [] : [journal, '']),
    serverTable(report),
    '',
    contractTable(report),
  ].join('\n');
}

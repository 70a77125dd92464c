// Markdown tables of a BenchReport: what the bench prints, and the performance table of the docs.
import type { BenchReport, RatioRow } from './report.js';
import { SCENARIOS } from './scenarios.js';

const MB = 1024 * 1024;

export function markdownTable(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const mb = (bytes: number | undefined) => (bytes === undefined ? '–' : (bytes / MB).toFixed(0));
const times = (n: number | undefined, digits: number) => (n === undefined ? '–' : `${n.toFixed(digits)}×`);

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
    `${times(row?.overCeiling, 2)}${cpu(row?.cpuOverCeiling, 2)}`,
    `${times(row?.overPrecomputed, 2)}${cpu(row?.cpuOverPrecomputed, 2)}`,
    journalCell(row),
    ...(baseline ? [`${times(row?.overBaseline, 2)}${cpu(row?.cpuOverBaseline, 2)}`] : []),
  ];
}

/** `1.03× (slices 1.01× to 1.06×, median 1.03×)`: what the journal costs, and how far its slices stray. */
function journalCell(row: RatioRow | undefined): string {
  const journal = row?.journal;
  if (journal === undefined) return '–';
  const { slices } = journal;
  return slices === undefined
    ? times(journal.ratio, 2)
    : `${times(journal.ratio, 2)} (slices ${times(slices.min, 2)} to ${times(slices.max, 2)}, median ${times(slices.median, 2)})`;
}

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
        s.cpuUsPerRequest === undefined ? '–' : s.cpuUsPerRequest.toFixed(0),
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
  return [
    `petkit bench, ${report.date}: ${machine.cpus} (${machine.cores} cores), ${machine.memoryGb} GB, Node ${machine.node}, ${machine.os}`,
    `${options.connections} connections, ${options.duration} s per scenario after a ${options.warmup} s warm-up`,
    '',
    loadTable(report),
    '',
    serverTable(report),
    '',
    contractTable(report),
  ].join('\n');
}

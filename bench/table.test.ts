import { describe, expect, it } from 'vitest';
import type { BenchReport } from './report.js';
import { loadTable, markdownTable } from './table.js';

const report: BenchReport = {
  date: '2026-11-22T00:00:00.000Z',
  machine: { cpus: 'CPU', cores: 2, memoryGb: 24, node: '20.20.2', os: 'Linux' },
  options: { connections: 50, duration: 10, warmup: 2 },
  servers: [
    {
      server: 'petkit',
      label: 'petkit mock',
      ran: true,
      pid: 1,
      startToFirstAnswerMs: 120,
      peakRss: 70 * 1024 * 1024,
      scenarios: [
        {
          scenario: 'list-20',
          requests: 250_000,
          seconds: 10,
          rps: 25_000.4,
          p50: 1,
          p99: 4,
          errors: 0,
          unexpected: 0,
          statuses: { '200': 250_000 },
          peakRss: 65 * 1024 * 1024,
          cpuUsPerRequest: 41.6,
        },
      ],
    },
    { server: 'prism', label: 'Prism', ran: false, reason: 'exited' },
  ],
  ratios: [
    {
      scenario: 'list-20',
      overPrismSilent: 10.44,
      overCeiling: 0.625,
      cpuOverPrismSilent: 7.5,
      cpuOverCeiling: 0.6,
      overPrecomputed: 0.5,
      cpuOverPrecomputed: 0.45,
      journal: { ratio: 1.034, slices: { median: 1.028, min: 1.006, max: 1.061 } },
    },
  ],
  contract: { ran: false, reason: 'stub' },
};

describe('the bench tables', () => {
  it("shows the journal's cost whole, or with its slices' range and median when the results have them", () => {
    const row = (journal: NonNullable<BenchReport['ratios'][number]['journal']> | undefined) =>
      loadTable({ ...report, ratios: report.ratios.map((r) => ({ ...r, journal })) })
        .split('\n')[2]
        ?.split(' | ')
        .at(-1);
    expect(row({ ratio: 1.052 })).toBe('1.05× |');
    expect(row(undefined)).toBe('– |');
  });

  it('draws a Markdown table with a header rule', () => {
    expect(markdownTable(['a', 'b'], [['1', '2']])).toBe('| a | b |\n| --- | --- |\n| 1 | 2 |');
  });

  it('puts req/s, latency, memory and the ratios on petkit’s row, and skips servers that did not run', () => {
    expect(loadTable(report).split('\n')[2]).toBe(
      '| list-20 | petkit mock | 25,000 | 1 | 4 | 42 | 65 | 0 | 0 | 200: 250,000 | 10.4× (CPU 7.5×) | 0.63× (CPU 0.60×) | 0.50× (CPU 0.45×) | 1.03× (slices 1.01× to 1.06×, median 1.03×) |',
    );
    expect(loadTable(report).split('\n')).toHaveLength(3);
  });

  it('adds a petkit/baseline column when a baseline build ran (--baseline DIR)', () => {
    const [petkit] = report.servers;
    if (petkit === undefined || !petkit.ran) throw new Error('no petkit row');
    const withBaseline: BenchReport = {
      ...report,
      servers: [
        ...report.servers,
        { ...petkit, server: 'petkit-baseline', label: 'petkit mock, baseline build' },
      ],
      ratios: report.ratios.map((row) => ({ ...row, overBaseline: 0.98, cpuOverBaseline: 1.02 })),
    };
    const lines = loadTable(withBaseline).split('\n');
    expect(lines[0]).toMatch(
      /\| petkit\/ceiling \(precomputed\) \| journal \(CPU over --journal-limit 0\) \| petkit\/baseline \|$/,
    );
    expect(lines[2]).toMatch(/\| 0\.50× \(CPU 0\.45×\) \| 1\.03× \(slices .*\) \| 0\.98× \(CPU 1\.02×\) \|$/);
    expect(lines[3]).toMatch(
      /^\| list-20 \| petkit mock, baseline build \| .* \| {2}\| {2}\| {2}\| {2}\| {2}\|$/,
    );
  });
});

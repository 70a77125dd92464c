import { describe, expect, it } from 'vitest';
import type { BenchReport } from './report.js';
import { fullReport, journalNote, loadTable, machineNote, markdownTable } from './table.js';

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
    // Three digits: 1.052 is over 5 %, which 1.05× would hide.
    expect(row({ ratio: 1.052 })).toBe('1.052× |');
    expect(row(undefined)).toBe('– |');
    expect(
      row({
        ratio: 1.034,
        slices: { median: 1.028, min: 1.006, max: 1.061 },
        interval: { low: 0.998, high: 1.071 },
      }),
    ).toBe('1.034× (slices 1.006× to 1.061×, median 1.028×; 95 % 0.998× to 1.071×) |');
    const sideBySide = {
      ratio: 1.0123,
      low: 1.0041,
      high: 1.0206,
      extraUs: 0.62,
      together: 1.009,
      windows: 10,
    };
    expect(row({ ratio: 1.034, sideBySide })).toBe(
      '1.012× side by side, +0.6 µs an answer, 95 % 1.004× to 1.021×; in turns 1.034× |',
    );
    expect(
      row({
        ratio: 0.97,
        slices: { median: 0.98, min: 0.9, max: 1.1 },
        sideBySide: { ...sideBySide, ratio: 0.995, low: 0.99, high: 1.0, extraUs: -0.25 },
      }),
    ).toBe(
      '0.995× side by side, −0.3 µs an answer, 95 % 0.990× to 1.000×; in turns 0.970× (slices 0.900× to 1.100×, median 0.980×) |',
    );
  });

  it("names the pairs of processes the journal's side-by-side reading came from, and each pair's own, when more than one", () => {
    const cell = (
      sideBySide: NonNullable<NonNullable<BenchReport['ratios'][number]['journal']>['sideBySide']>,
    ) =>
      loadTable({
        ...report,
        ratios: report.ratios.map((r) => ({ ...r, journal: { ratio: 1.034, sideBySide } })),
      })
        .split('\n')[2]
        ?.split(' | ')
        .at(-1);
    const sideBySide = {
      ratio: 1.0312,
      low: 1.0201,
      high: 1.0423,
      extraUs: 1.94,
      together: 1.02,
      windows: 30,
    };
    expect(cell({ ...sideBySide, pairs: 3, pairRatios: [1.0241, 1.0449, 1.0251] })).toBe(
      '1.031× side by side over 3 pairs of processes (1.024×, 1.045×, 1.025×), +1.9 µs an answer, 95 % 1.020× to 1.042×; in turns 1.034× |',
    );
    // A pair that gave no window reads –; without each pair's own, only how many.
    expect(cell({ ...sideBySide, pairs: 2, pairRatios: [1.0241, Number.NaN] })).toBe(
      '1.031× side by side over 2 pairs of processes (1.024×, –), +1.9 µs an answer, 95 % 1.020× to 1.042×; in turns 1.034× |',
    );
    expect(cell({ ...sideBySide, pairs: 3 })).toBe(
      '1.031× side by side over 3 pairs of processes, +1.9 µs an answer, 95 % 1.020× to 1.042×; in turns 1.034× |',
    );
    // One pair (--journal-pairs 1) reads as before.
    expect(cell({ ...sideBySide, pairs: 1, pairRatios: [1.0312] })).toBe(
      '1.031× side by side, +1.9 µs an answer, 95 % 1.020× to 1.042×; in turns 1.034× |',
    );
  });

  it('draws a Markdown table with a header rule', () => {
    expect(markdownTable(['a', 'b'], [['1', '2']])).toBe('| a | b |\n| --- | --- |\n| 1 | 2 |');
  });

  it('puts req/s, latency, memory and the ratios on petkit’s row, and skips servers that did not run', () => {
    expect(loadTable(report).split('\n')[2]).toBe(
      '| list-20 | petkit mock | 25,000 | 1 | 4 | 41.6 | 65 | 0 | 0 | 200: 250,000 | 10.4× (CPU 7.5×) | 0.63× (CPU 0.600×) | 0.50× (CPU 0.45×) | 1.034× (slices 1.006× to 1.061×, median 1.028×) |',
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
    expect(lines[2]).toMatch(
      /\| 0\.50× \(CPU 0\.45×\) \| 1\.034× \(slices .*\) \| 0\.98× \(CPU 1\.02×\) \|$/,
    );
    expect(lines[3]).toMatch(
      /^\| list-20 \| petkit mock, baseline build \| .* \| {2}\| {2}\| {2}\| {2}\| {2}\|$/,
    );
    const sideBySide: BenchReport = {
      ...withBaseline,
      ratios: withBaseline.ratios.map((row) => ({
        ...row,
        baselineSideBySide: { ratio: 1.0123, low: 1.001, high: 1.0236, extraUs: -0.5, windows: 10 },
      })),
    };
    expect(loadTable(sideBySide).split('\n')[2]).toMatch(
      /\| 0\.98× \(CPU 1\.02×\); side by side 1\.012× \(95 % 1\.001× to 1\.024×\) \|$/,
    );
  });

  it("states the work-matched ceiling's CPU an answer, and each scenario during which it moved by more than 15 %", () => {
    const ceiling = (slices: number[]): BenchReport => ({
      ...report,
      servers: [
        ...report.servers,
        {
          server: 'ceiling-work',
          label: 'node:http ceiling, work-matched',
          ran: true,
          pid: 2,
          startToFirstAnswerMs: 90,
          peakRss: undefined,
          scenarios: ['list-20', 'mixed'].map((scenario) => ({
            scenario: scenario as 'list-20' | 'mixed',
            requests: 1,
            seconds: 1,
            rps: 1,
            p50: 0,
            p99: 0,
            errors: 0,
            unexpected: 0,
            statuses: {},
            peakRss: undefined,
            cpuUsPerRequest: scenario === 'mixed' ? 13.71 : 11.9,
            slices: (scenario === 'mixed' ? slices : [11.8, 12]).map((cpu) => ({
              rps: 1,
              cpuUsPerRequest: cpu,
            })),
          })),
        },
      ],
    });
    expect(machineNote(ceiling([13.2, 14.1, 13.9, 13.6]))).toBe(
      "The work-matched ceiling's CPU an answer (the machine's speed): list-20 11.9 µs, mixed 13.7 µs.",
    );
    const moved = machineNote(ceiling([13.2, 16.0, 13.9]));
    expect(moved.split('\n')).toEqual([
      "The work-matched ceiling's CPU an answer (the machine's speed): list-20 11.9 µs, mixed 13.7 µs.",
      "The machine's speed moved during mixed: the work-matched ceiling took 13.2 to 16.0 µs of CPU an answer from slice to slice (1.21×); its ratios are less sure than the others'.",
    ]);
    expect(fullReport(ceiling([13.2, 16.0]))).toContain(moved);
    // Without the ceiling (--servers petkit,prism) there is nothing to say.
    expect(machineNote(report)).toBe('');
    expect(fullReport(report)).not.toContain('ceiling took');
  });

  it("states the journal's cost over every scenario's slices, when both petkit rows ran", () => {
    const row = (server: 'petkit' | 'petkit-no-journal', cpus: number[]) => ({
      server,
      label: server,
      ran: true as const,
      pid: 3,
      startToFirstAnswerMs: 100,
      peakRss: undefined,
      scenarios: [
        {
          scenario: 'mixed' as const,
          requests: 1,
          seconds: 1,
          rps: 1,
          p50: 0,
          p99: 0,
          errors: 0,
          unexpected: 0,
          statuses: {},
          peakRss: undefined,
          cpuUsPerRequest: 20,
          slices: cpus.map((cpu) => ({ rps: 1, cpuUsPerRequest: cpu })),
        },
      ],
    });
    // Pairs 1.05 three times: the mean 1.05, no spread.
    const both: BenchReport = {
      ...report,
      servers: [row('petkit', [21, 21, 21]), row('petkit-no-journal', [20, 20, 20])],
    };
    const note =
      "The journal over every scenario: 1.050× of --journal-limit 0's CPU an answer (the geometric mean of 3 slices' ratios; 95 % 1.050× to 1.050×).";
    expect(journalNote(both)).toBe(note);
    expect(fullReport(both)).toContain(note);
    expect(journalNote(report)).toBe('');
    expect(fullReport(report)).not.toContain('The journal over');
  });

  it("adds the ceiling's side-by-side reading to petkit's cell and its lowest to the note", () => {
    const base = report.ratios[0] as BenchReport['ratios'][number];
    const read: BenchReport = {
      ...report,
      ratios: [
        { ...base, ceilingSideBySide: { ratio: 0.9123, low: 0.9011, high: 0.9236, extraUs: 4, windows: 10 } },
      ],
    };
    expect(loadTable(read).split('\n')[2]).toContain(
      '| 0.63× (CPU 0.600×); side by side 0.912× (95 % 0.901× to 0.924×) |',
    );
    expect(journalNote(read)).toBe(
      "petkit against the work-matched ceiling side by side (the ceiling's CPU an answer alone over the same plus petkit's extra, both driven at once): list-20 0.912×; the lowest 0.912× (list-20, 95 % 0.901× to 0.924×).",
    );
    // Read over three pairs of processes (--ceiling-pairs): each pair's own beside the figure.
    const overPairs: BenchReport = {
      ...report,
      ratios: [
        {
          ...base,
          ceilingSideBySide: {
            ratio: 0.9123,
            low: 0.9011,
            high: 0.9236,
            extraUs: 4,
            windows: 30,
            pairs: 3,
            pairRatios: [0.9051, 0.9212, Number.NaN],
          },
        },
      ],
    };
    expect(loadTable(overPairs).split('\n')[2]).toContain(
      '| 0.63× (CPU 0.600×); side by side 0.912× over 3 pairs of processes (0.905×, 0.921×, –) (95 % 0.901× to 0.924×) |',
    );
  });

  it('leads the journal note with the side-by-side reading of each scenario and its highest', () => {
    const cost = (ratio: number) => ({
      ratio,
      low: ratio - 0.01,
      high: ratio + 0.01,
      extraUs: 1,
      together: 1,
      windows: 10,
    });
    const base = report.ratios[0] as BenchReport['ratios'][number];
    const read: BenchReport = {
      ...report,
      ratios: [
        { ...base, scenario: 'list-20', journal: { ratio: 1.1, sideBySide: cost(1.021) } },
        { ...base, scenario: 'create', journal: { ratio: 0.9, sideBySide: cost(1.043) } },
        { ...base, scenario: 'get', journal: { ratio: 1 } },
      ],
    };
    expect(journalNote(read)).toBe(
      "The journal side by side (petkit and --journal-limit 0 driven at once, their difference in CPU an answer over --journal-limit 0's alone): list-20 1.021×, create 1.043×; the highest 1.043× (create, 95 % 1.033× to 1.053×).",
    );
  });
});

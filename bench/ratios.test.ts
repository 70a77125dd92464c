import { describe, expect, it } from 'vitest';
import {
  computeRatios,
  journalCost,
  meanInterval,
  overPetkitSideBySide,
  pairDifferenceRatios,
  pooledJournalCost,
  sideBySideCost,
} from './ratios.js';
import type { ScenarioResult, ServerResult } from './report.js';
import type { ScenarioId } from './scenarios.js';
import type { ServerId } from './servers.js';
import { mergeSideBySide, type SideBySideFigures } from './side-by-side.js';

const MB = 1024 * 1024;

function figures(scenario: ScenarioId, rps: number, extra: Partial<ScenarioResult> = {}): ScenarioResult {
  return {
    scenario,
    requests: rps * 10,
    seconds: 10,
    rps,
    p50: 1,
    p99: 3,
    errors: 0,
    unexpected: 0,
    statuses: { '200': rps * 10 },
    peakRss: 60 * MB,
    cpuUsPerRequest: 40,
    ...extra,
  };
}

function server(
  id: ServerId,
  scenarios: ScenarioResult[],
  extra: { start?: number; peak?: number } = {},
): ServerResult {
  return {
    server: id,
    label: id,
    ran: true,
    pid: 1,
    startToFirstAnswerMs: extra.start ?? 100,
    peakRss: extra.peak ?? 80 * MB,
    scenarios,
  };
}

const ids: ScenarioId[] = ['list-20', 'create', 'no-key-401'];

describe('computeRatios', () => {
  it('divides petkit’s req/s by Prism-silent’s and by the work-matched ceiling’s, scenario by scenario', () => {
    const servers = [
      server('petkit', [
        figures('list-20', 30_000),
        figures('create', 20_000),
        figures('no-key-401', 36_000),
      ]),
      server('prism-silent', [
        figures('list-20', 3_000),
        figures('create', 2_500),
        figures('no-key-401', 3_600),
      ]),
      server('ceiling-work', [
        figures('list-20', 40_000),
        figures('create', 40_000),
        figures('no-key-401', 40_000),
      ]),
    ];
    expect(computeRatios(servers, ids).map((r) => [r.scenario, r.overPrismSilent, r.overCeiling])).toEqual([
      ['list-20', 10, 0.75],
      ['create', 8, 0.5],
      ['no-key-401', 10, 0.9],
    ]);
  });

  it('leaves a ratio out when a server did not run', () => {
    const servers: ServerResult[] = [
      server('petkit', [figures('list-20', 30_000)]),
      { server: 'prism-silent', label: 'p', ran: false, reason: 'exited' },
    ];
    expect(computeRatios(servers, ['list-20'])).toEqual([
      {
        scenario: 'list-20',
        overPrismSilent: undefined,
        overCeiling: undefined,
        cpuOverPrismSilent: undefined,
        cpuOverCeiling: undefined,
        overPrecomputed: undefined,
        cpuOverPrecomputed: undefined,
      },
    ]);
  });

  it('divides the others’ CPU time per answer by petkit’s', () => {
    const servers = [
      server('petkit', [figures('get', 30_000, { cpuUsPerRequest: 50 })]),
      server('prism-silent', [figures('get', 3_000, { cpuUsPerRequest: 350 })]),
      server('ceiling-work', [figures('get', 40_000, { cpuUsPerRequest: 25 })]),
      server('ceiling', [figures('get', 50_000, { cpuUsPerRequest: 20 })]),
    ];
    const [row] = computeRatios(servers, ['get']);
    expect(row?.cpuOverPrismSilent).toBe(7);
    expect(row?.cpuOverCeiling).toBe(0.5);
    expect(row?.overPrecomputed).toBe(0.6);
    expect(row?.cpuOverPrecomputed).toBe(0.4);
  });

  it('compares petkit with a baseline build of it (--baseline DIR) when one ran', () => {
    const servers = [
      server('petkit', [figures('get', 30_000, { cpuUsPerRequest: 40 })]),
      server('petkit-baseline', [figures('get', 31_500, { cpuUsPerRequest: 38 })]),
    ];
    const [row] = computeRatios(servers, ['get']);
    expect(row?.overBaseline).toBeCloseTo(30_000 / 31_500);
    expect(row?.cpuOverBaseline).toBe(0.95);
    expect(computeRatios([servers[0] as ServerResult], ['get'])[0]).not.toHaveProperty('overBaseline');
  });
});

describe('journalCost', () => {
  const withSlices = (cpu: number, slices: (number | undefined)[], scenario: ScenarioId = 'mixed') =>
    figures(scenario, 40_000, {
      cpuUsPerRequest: cpu,
      slices: slices.map((cpuUsPerRequest) => ({ rps: 40_000, cpuUsPerRequest })),
    });
  it("divides petkit's CPU per answer by --journal-limit 0's, whole and slice by slice", () => {
    const cost = journalCost(withSlices(21, [20, 22, 21, 30]), withSlices(20, [20, 20, 20, 20]));
    expect(cost?.ratio).toBeCloseTo(1.05, 10);
    // Pairs 1.00, 1.10, 1.05, 1.50: the median of four is the mean of the middle two.
    expect(cost?.slices?.median).toBeCloseTo(1.075, 10);
    expect(cost?.slices?.min).toBeCloseTo(1, 10);
    expect(cost?.slices?.max).toBeCloseTo(1.5, 10);
    expect(
      journalCost(withSlices(21, [20, 22, 30]), withSlices(20, [20, 20, 20]))?.slices?.median,
    ).toBeCloseTo(1.1, 10);
  });
  it("gives the 95 % interval of the slices' geometric mean, from three pairs", () => {
    // Pairs 1.02, 1.04, 1.06, 1.08: logarithms' mean 0.0486, sd 0.0246, t(3) 3.182: ± 0.0391.
    const cost = journalCost(withSlices(21, [20.4, 20.8, 21.2, 21.6]), withSlices(20, [20, 20, 20, 20]));
    expect(cost?.interval?.low).toBeCloseTo(1.0092, 3);
    expect(cost?.interval?.high).toBeCloseTo(1.0917, 3);
    // The same pairs' spread over 16 slices: the interval narrows about fourfold.
    const many = Array.from({ length: 16 }, (_, i) => [20.4, 20.8, 21.2, 21.6][i % 4] as number);
    const narrow = journalCost(withSlices(21, many), withSlices(20, Array(16).fill(20)))?.interval;
    expect((narrow?.high ?? 0) - (narrow?.low ?? 0)).toBeLessThan(0.03);
    expect(narrow?.low).toBeGreaterThan(1.035);
    expect(journalCost(withSlices(21, [20, 22]), withSlices(20, [20, 20]))).not.toHaveProperty('interval');
  });
  it('gives an interval of the mean for three values or more', () => {
    expect(meanInterval([1, 2])).toBeUndefined();
    const interval = meanInterval([1, 2, 3]);
    // Mean 2, sd 1, t(2) 4.303: ± 2.484.
    expect(interval?.low).toBeCloseTo(2 - 4.303 / Math.sqrt(3), 10);
    expect(interval?.high).toBeCloseTo(2 + 4.303 / Math.sqrt(3), 10);
    expect(meanInterval([5, 5, 5])).toEqual({ low: 5, high: 5 });
  });
  it('pairs only the slices both have a CPU figure for, and gives none without both servers', () => {
    const cost = journalCost(withSlices(21, [20, undefined, 22]), withSlices(20, [20, 20, undefined]));
    expect(cost?.slices).toEqual({ median: 1, min: 1, max: 1 });
    expect(journalCost(figures('mixed', 1, { cpuUsPerRequest: 21 }), figures('mixed', 1))).toEqual({
      ratio: 21 / 40,
    });
    expect(journalCost(withSlices(21, [20]), undefined)).toBeUndefined();
  });
  it('is on each ratio row when petkit and --journal-limit 0 both ran', () => {
    const rows = computeRatios(
      [server('petkit', [withSlices(21, [21])]), server('petkit-no-journal', [withSlices(20, [20])])],
      ['mixed'],
    );
    expect(rows[0]?.journal?.ratio).toBeCloseTo(1.05, 10);
    expect(computeRatios([server('petkit', [withSlices(21, [21])])], ['mixed'])[0]?.journal).toBeUndefined();
  });
  it('pools every scenario’s slices into one figure for the run, with its interval', () => {
    // Two scenarios, three pairs each: ratios 1.1, 1.0, 0.9 and 1.05 (three times).
    const servers = [
      server('petkit', [withSlices(21, [22, 20, 18], 'mixed'), withSlices(21, [21, 21, 21], 'create')]),
      server('petkit-no-journal', [
        withSlices(20, [20, 20, 20], 'mixed'),
        withSlices(20, [20, 20, 20], 'create'),
      ]),
    ];
    const logs = [1.1, 1.0, 0.9, 1.05, 1.05, 1.05].map(Math.log);
    const mean = logs.reduce((sum, value) => sum + value, 0) / logs.length;
    const pooled = pooledJournalCost(servers);
    expect(pooled?.pairs).toBe(6);
    expect(pooled?.ratio).toBeCloseTo(Math.exp(mean), 10);
    const interval = meanInterval(logs);
    expect(pooled?.low).toBeCloseTo(Math.exp(interval?.low ?? 0), 10);
    expect(pooled?.high).toBeCloseTo(Math.exp(interval?.high ?? 0), 10);
    // A scenario --journal-limit 0 did not run adds nothing; fewer than three pairs, no figure.
    expect(pooledJournalCost([servers[0] as ServerResult])).toBeUndefined();
    expect(
      pooledJournalCost([
        server('petkit', [withSlices(21, [22, 20], 'mixed')]),
        server('petkit-no-journal', [withSlices(20, [20, 20], 'mixed')]),
      ]),
    ).toBeUndefined();
  });
});

describe('sideBySideCost', () => {
  const sideBySide = (pairs: [number, number][]) =>
    figures('mixed', 40_000, {
      cpuUsPerRequest: 53,
      journalSideBySide: {
        windows: pairs.map(([journal, none]) => ({
          cpuUsPerRequest: [journal, none] as const,
          answers: [10_000, 10_000] as const,
        })),
        unexpected: [0, 0],
        errors: [0, 0],
      },
    });
  const alone = figures('mixed', 40_000, { cpuUsPerRequest: 50 });

  it("sets the windows' mean difference against --journal-limit 0's CPU an answer alone, with its interval", () => {
    // Differences 1, 2, 3 µs: mean 2, sd 1, t(2) 4.303: 2 ± 2.484 µs, over 50 µs alone.
    const cost = sideBySideCost(
      sideBySide([
        [61, 60],
        [72, 70],
        [73, 70],
      ]),
      alone,
    );
    expect(cost?.extraUs).toBeCloseTo(2, 10);
    expect(cost?.ratio).toBeCloseTo(1.04, 10);
    expect(cost?.low).toBeCloseTo(1 + (2 - 4.303 / Math.sqrt(3)) / 50, 10);
    expect(cost?.high).toBeCloseTo(1 + (2 + 4.303 / Math.sqrt(3)) / 50, 10);
    // Together both paid more an answer (70 against 50 alone): their ratio dilutes the journal's 2 µs.
    expect(cost?.together).toBeCloseTo(206 / 200, 10);
    expect(cost?.windows).toBe(3);
  });

  it('reads a machine whose speed moves from window to window as well as a steady one', () => {
    // The same 3 µs in every window, the windows' CPU an answer 40 to 90: no spread left.
    const cost = sideBySideCost(
      sideBySide([
        [43, 40],
        [93, 90],
        [63, 60],
        [53, 50],
      ]),
      alone,
    );
    expect(cost?.ratio).toBeCloseTo(1.06, 10);
    expect(cost?.low).toBeCloseTo(1.06, 10);
    expect(cost?.high).toBeCloseTo(1.06, 10);
  });

  it('gives none with fewer than three windows or without the CPU an answer alone, and rides on journalCost', () => {
    const three = sideBySide([
      [51, 50],
      [51, 50],
      [51, 50],
    ]);
    expect(
      sideBySideCost(
        sideBySide([
          [51, 50],
          [51, 50],
        ]),
        alone,
      ),
    ).toBeUndefined();
    expect(sideBySideCost(three, figures('mixed', 1, { cpuUsPerRequest: undefined }))).toBeUndefined();
    expect(sideBySideCost(figures('mixed', 1), alone)).toBeUndefined();
    expect(journalCost(three, alone)?.sideBySide?.ratio).toBeCloseTo(1.02, 10);
    expect(journalCost(figures('mixed', 1), alone)).not.toHaveProperty('sideBySide');
  });
});

describe('the journal read over several pairs of processes', () => {
  const windowsOf = (pairs: [number, number][]) =>
    pairs.map(([journal, none]) => ({
      cpuUsPerRequest: [journal, none] as const,
      answers: [10_000, 10_000] as const,
    }));
  const onePair = (pairs: [number, number][]): SideBySideFigures => ({
    windows: windowsOf(pairs),
    unexpected: [0, 0],
    errors: [0, 0],
  });
  const petkit = (journalSideBySide: SideBySideFigures | undefined) =>
    figures('mixed', 40_000, { cpuUsPerRequest: 53, ...(journalSideBySide ? { journalSideBySide } : {}) });
  const alone = figures('mixed', 40_000, { cpuUsPerRequest: 50 });

  it("reads each pair's own cost beside the one over all the windows, and how many pairs there were", () => {
    // Pairs whose windows differ by 1, 2 and 3 µs, and 2, 2 and 5 µs: over 50 µs alone.
    const merged = mergeSideBySide([
      onePair([
        [61, 60],
        [72, 70],
        [73, 70],
      ]),
      onePair([
        [42, 40],
        [42, 40],
      ]),
      onePair([[85, 80]]),
    ]);
    const cost = sideBySideCost(petkit(merged), alone);
    expect(cost?.windows).toBe(6);
    expect(cost?.pairs).toBe(3);
    // The figure over all the windows stays the mean of their differences: 15 / 6 = 2.5 µs.
    expect(cost?.extraUs).toBeCloseTo(2.5, 10);
    expect(cost?.ratio).toBeCloseTo(1.05, 10);
    expect(cost?.pairRatios).toHaveLength(3);
    const [first, second, third] = cost?.pairRatios ?? [];
    expect(first).toBeCloseTo(1.04, 10);
    expect(second).toBeCloseTo(1.04, 10);
    expect(third).toBeCloseTo(1.1, 10);
    // And so on its ratio row.
    const rows = computeRatios(
      [server('petkit', [petkit(merged)]), server('petkit-no-journal', [alone])],
      ['mixed'],
    );
    expect(rows[0]?.journal?.sideBySide?.pairRatios).toEqual(cost?.pairRatios);
  });

  it('says no pairs for figures of one pair that were not merged (results written before)', () => {
    const cost = sideBySideCost(
      petkit(
        onePair([
          [51, 50],
          [52, 50],
          [53, 50],
        ]),
      ),
      alone,
    );
    expect(cost?.ratio).toBeCloseTo(1.04, 10);
    expect(cost).not.toHaveProperty('pairs');
    expect(cost).not.toHaveProperty('pairRatios');
  });

  it("gives NaN for a pair that gave no window, and no pairs' ratios when their counts do not add up", () => {
    const windows = windowsOf([
      [51, 50],
      [53, 50],
      [55, 50],
    ]);
    const ratios = pairDifferenceRatios(windows, [2, 0, 1], 50);
    expect(ratios?.[0]).toBeCloseTo(1.04, 10);
    expect(ratios?.[1]).toBeNaN();
    expect(ratios?.[2]).toBeCloseTo(1.1, 10);
    expect(pairDifferenceRatios(windows, [2, 2], 50)).toBeUndefined();
    expect(pairDifferenceRatios(windows, undefined, 50)).toBeUndefined();
    const handEdited = sideBySideCost(
      petkit({ windows, unexpected: [0, 0], errors: [0, 0], pairs: 2, pairWindows: [1, 1] }),
      alone,
    );
    expect(handEdited?.pairs).toBe(2);
    expect(handEdited).not.toHaveProperty('pairRatios');
  });
});

describe('overPetkitSideBySide', () => {
  it("reads the ceiling's CPU an answer alone over the same plus petkit's extra in the windows", () => {
    const windows = [
      [70, 60],
      [50, 40],
      [90, 80],
    ].map(([petkit, ceiling]) => ({
      cpuUsPerRequest: [petkit as number, ceiling as number] as const,
      answers: [10_000, 10_000] as const,
    }));
    const petkit = figures('list-20', 1, {
      ceilingSideBySide: { windows, unexpected: [0, 0], errors: [0, 0] },
    });
    // petkit 10 µs over the ceiling's 40 alone, in every window: 40 / 50.
    const read = overPetkitSideBySide({ windows }, figures('list-20', 1, { cpuUsPerRequest: 40 }));
    expect(read?.ratio).toBeCloseTo(0.8, 10);
    expect(read?.low).toBeCloseTo(0.8, 10);
    expect(read?.high).toBeCloseTo(0.8, 10);
    expect(read?.extraUs).toBeCloseTo(10, 10);
    expect(read).not.toHaveProperty('pairs');
    expect(overPetkitSideBySide(undefined, figures('list-20', 1))).toBeUndefined();
    expect(
      overPetkitSideBySide({ windows }, figures('list-20', 1, { cpuUsPerRequest: undefined })),
    ).toBeUndefined();
    const rows = computeRatios(
      [server('petkit', [petkit]), server('ceiling-work', [figures('list-20', 1, { cpuUsPerRequest: 40 })])],
      ['list-20'],
    );
    expect(rows[0]?.ceilingSideBySide?.ratio).toBeCloseTo(0.8, 10);
    // The same with a baseline build (--baseline DIR): its row's side-by-side reading.
    const withBaseline = computeRatios(
      [
        server('petkit', [
          figures('list-20', 1, { baselineSideBySide: { windows, unexpected: [0, 0], errors: [0, 0] } }),
        ]),
        server('petkit-baseline', [figures('list-20', 1, { cpuUsPerRequest: 40 })]),
      ],
      ['list-20'],
    );
    expect(withBaseline[0]?.baselineSideBySide?.ratio).toBeCloseTo(0.8, 10);
    expect(withBaseline[0]?.ceilingSideBySide).toBeUndefined();
  });

  it('reads each pair of processes on its own when the windows came from several', () => {
    const window = (petkit: number, ceiling: number) => ({
      cpuUsPerRequest: [petkit, ceiling] as const,
      answers: [10_000, 10_000] as const,
    });
    // Against 40 µs alone: the first pair's petkit 10 µs over the ceiling, the second's 30.
    const windows = [window(50, 40), window(60, 50), window(70, 40), window(80, 50)];
    const read = overPetkitSideBySide(
      { windows, pairs: 2, pairWindows: [2, 2] },
      figures('list-20', 1, { cpuUsPerRequest: 40 }),
    );
    expect(read?.pairs).toBe(2);
    const [first, second] = read?.pairRatios ?? [];
    expect(first).toBeCloseTo(40 / 50, 10);
    expect(second).toBeCloseTo(40 / 70, 10);
    // Over every window: 20 µs extra.
    expect(read?.ratio).toBeCloseTo(40 / 60, 10);
    // Counts that do not add up to the windows (results edited by hand): the pairs, not their readings.
    const handEdited = overPetkitSideBySide(
      { windows, pairs: 2, pairWindows: [1, 2] },
      figures('list-20', 1, { cpuUsPerRequest: 40 }),
    );
    expect(handEdited?.pairs).toBe(2);
    expect(handEdited).not.toHaveProperty('pairRatios');
  });

  it('gives no upper bound, not a negative one, when the interval of the cost reaches 0', () => {
    // Three windows far apart: petkit's extra 30, −35 and 35 µs over the ceiling's 40 alone.
    const windows = [
      [70, 40],
      [5, 40],
      [75, 40],
    ].map(([petkit, ceiling]) => ({
      cpuUsPerRequest: [petkit as number, ceiling as number] as const,
      answers: [10_000, 10_000] as const,
    }));
    const read = overPetkitSideBySide({ windows }, figures('list-20', 1, { cpuUsPerRequest: 40 }));
    expect(read?.low).toBeGreaterThan(0);
    expect(read?.low).toBeLessThan(read?.ratio ?? 0);
    expect(read?.high).toBe(Number.POSITIVE_INFINITY);
  });
});

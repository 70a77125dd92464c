import { describe, expect, it } from 'vitest';
import type { ContractResult, ScenarioResult, ServerResult } from './report.js';
import type { ScenarioId } from './scenarios.js';
import type { ServerId } from './servers.js';
import { computeRatios, evaluateTargets } from './targets.js';

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

const contract: ContractResult = { ran: true, wallMs: 2100, requests: 700, rps: 333, exitCode: 0 };
const ids: ScenarioId[] = ['list-20', 'create', 'no-key-401'];

describe('computeRatios', () => {
  it('divides petkit’s req/s by Prism-silent’s and by the ceiling’s, scenario by scenario', () => {
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
      server('ceiling', [
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
      },
    ]);
  });

  it('divides the others’ CPU time per answer by petkit’s', () => {
    const servers = [
      server('petkit', [figures('get', 30_000, { cpuUsPerRequest: 50 })]),
      server('prism-silent', [figures('get', 3_000, { cpuUsPerRequest: 350 })]),
      server('ceiling', [figures('get', 40_000, { cpuUsPerRequest: 25 })]),
    ];
    const [row] = computeRatios(servers, ['get']);
    expect(row?.cpuOverPrismSilent).toBe(7);
    expect(row?.cpuOverCeiling).toBe(0.5);
  });
});

describe('evaluateTargets', () => {
  const others = [
    server('prism-silent', [
      figures('list-20', 2_000),
      figures('create', 2_000),
      figures('no-key-401', 2_000),
    ]),
    server('ceiling', [figures('list-20', 40_000), figures('create', 40_000), figures('no-key-401', 40_000)]),
  ];

  it('marks each target met or missed, naming the worst scenario', () => {
    const petkit = server(
      'petkit',
      [figures('list-20', 30_000), figures('create', 16_000, { p99: 7 }), figures('no-key-401', 36_000)],
      { start: 300, peak: 90 * MB },
    );
    const servers = [petkit, ...others];
    const targets = evaluateTargets(servers, computeRatios(servers, ids), contract);
    expect(targets.map((t) => [t.value, t.verdict])).toEqual([
      ['lowest 0.40 (create)', 'missed'],
      ['lowest 8.0 (create)', 'missed'],
      ['highest 7 ms (create)', 'missed'],
      ['300 ms', 'missed'],
      ['90 MB', 'met'],
      ['2.10 s', 'met'],
    ]);
  });

  it('does not count a fast run as met when petkit answered with unexpected statuses', () => {
    const petkit = server('petkit', [
      figures('list-20', 38_000),
      figures('create', 38_000),
      figures('no-key-401', 38_000, { unexpected: 5 }),
    ]);
    const servers = [petkit, ...others];
    const [ceiling, prism, p99, start] = evaluateTargets(servers, computeRatios(servers, ids), contract);
    expect(ceiling?.verdict).toBe('missed');
    expect(ceiling?.value).toContain('unexpected answers or errors in no-key-401');
    expect(prism?.verdict).toBe('missed');
    expect(p99?.verdict).toBe('missed');
    expect(start?.verdict).toBe('met');
  });

  it('says "not measured" for what a run could not measure', () => {
    const servers: ServerResult[] = [
      { server: 'petkit', label: 'petkit', ran: false, reason: 'not built' },
      ...others,
    ];
    const targets = evaluateTargets(servers, computeRatios(servers, ids), { ran: false, reason: 'stub' });
    expect(targets.every((t) => t.verdict === 'not measured')).toBe(true);
  });
});

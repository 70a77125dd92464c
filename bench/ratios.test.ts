import { describe, expect, it } from 'vitest';
import { computeRatios } from './ratios.js';
import type { ScenarioResult, ServerResult } from './report.js';
import type { ScenarioId } from './scenarios.js';
import type { ServerId } from './servers.js';

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

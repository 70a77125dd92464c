import { afterEach, describe, expect, it } from 'vitest';
import { testServers } from '../test/support/listen.js';
import { createCeilingListener } from './ceiling.js';
import { type LoadFigures, mergeSlices, runLoad, turnOrder } from './load.js';
import { SCENARIOS, type ScenarioId } from './scenarios.js';

const servers = testServers();
const serve = servers.serve;
afterEach(servers.closeAll);

function scenario(id: ScenarioId) {
  const found = SCENARIOS.find((s) => s.id === id);
  if (found === undefined) throw new Error(`no scenario ${id}`);
  return found;
}

describe('runLoad', () => {
  it('counts every answer of the mixed workload by status, none unexpected from the ceiling', async () => {
    const origin = await serve(createCeilingListener());
    const figures = await runLoad(origin, '/v1', scenario('mixed'), {
      connections: 2,
      duration: 10,
      amount: 200,
    });
    expect(figures.requests).toBe(200);
    expect(figures.unexpected).toBe(0);
    expect(figures.errors).toBe(0);
    expect(Object.keys(figures.statuses).sort()).toEqual(['200', '201', '400', '401']);
    expect(figures.statuses['401']).toBe(20);
  });

  it('drives a server for the time asked, not to the next whole second', async () => {
    const origin = await serve(createCeilingListener());
    const figures = await runLoad(origin, '/v1', scenario('get'), { connections: 1, duration: 0.3 });
    // autocannon's default once-a-second sample ended every run at a whole second: 1 s for 0.3 s.
    expect(figures.seconds).toBeGreaterThanOrEqual(0.3);
    expect(figures.seconds).toBeLessThan(0.9);
  });

  it('counts a status the scenario does not expect as unexpected', async () => {
    const origin = await serve((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{}');
    });
    const figures = await runLoad(origin, '', scenario('list-20'), {
      connections: 1,
      duration: 10,
      amount: 20,
    });
    expect(figures.unexpected).toBe(20);
  });

  it('counts a 429 to the no-key scenario as unexpected: the bench keys file lifts the anonymous limits', async () => {
    let seen = 0;
    const origin = await serve((req, res) => {
      seen += 1;
      req.resume();
      res.writeHead(seen <= 5 ? 401 : 429, { 'content-type': 'application/json' });
      res.end('{}');
    });
    const figures = await runLoad(origin, '', scenario('no-key-401'), {
      connections: 1,
      duration: 10,
      amount: 20,
    });
    expect(figures.statuses).toEqual({ '401': 5, '429': 15 });
    expect(figures.unexpected).toBe(15);
  });
});

describe('turnOrder', () => {
  it('drives the servers as given, then reversed, so each neighbour comes before the other as often', () => {
    const servers = ['petkit', 'no-journal', 'ceiling'];
    const orders = [0, 1, 2, 3].map((slice) => turnOrder(servers, slice));
    expect(orders).toEqual([servers, [...servers].reverse(), servers, [...servers].reverse()]);
    const precedes = (a: string, b: string) =>
      orders.filter((order) => order.indexOf(a) + 1 === order.indexOf(b)).length;
    expect(precedes('petkit', 'no-journal')).toBe(precedes('no-journal', 'petkit'));
    expect(servers).toEqual(['petkit', 'no-journal', 'ceiling']);
  });
});

describe('mergeSlices', () => {
  const slice = (over: Partial<LoadFigures>): LoadFigures => ({
    requests: 100,
    seconds: 2,
    rps: 50,
    p50: 1,
    p99: 3,
    errors: 0,
    unexpected: 0,
    statuses: { '200': 100 },
    peakRss: 80_000_000,
    cpuUsPerRequest: 20,
    ...over,
  });

  it('sums counts and time, weighs CPU by requests, and keeps the highest percentiles and memory', () => {
    const merged = mergeSlices([
      slice({}),
      slice({
        requests: 300,
        seconds: 2,
        p50: 2,
        p99: 7,
        errors: 1,
        unexpected: 2,
        statuses: { '200': 298, '500': 2 },
        peakRss: 90_000_000,
        cpuUsPerRequest: 40,
      }),
    ]);
    expect(merged).toEqual({
      requests: 400,
      seconds: 4,
      rps: 100,
      p50: 2,
      p99: 7,
      errors: 1,
      unexpected: 2,
      statuses: { '200': 398, '500': 2 },
      peakRss: 90_000_000,
      cpuUsPerRequest: 35,
    });
  });

  it('leaves CPU unknown when a slice could not read it, and one slice as it is', () => {
    expect(mergeSlices([slice({}), slice({ cpuUsPerRequest: undefined })]).cpuUsPerRequest).toBeUndefined();
    const one = slice({ p99: 9 });
    expect(mergeSlices([one])).toBe(one);
    expect(() => mergeSlices([])).toThrow(/at least one slice/);
  });
});

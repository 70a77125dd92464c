import { afterEach, describe, expect, it } from 'vitest';
import { testServers } from '../test/support/listen.js';
import { readCpuNsSync } from './cpu.js';
import { SCENARIOS } from './scenarios.js';
import { mergeSideBySide, runSideBySide, type SideBySideFigures } from './side-by-side.js';

const servers = testServers();
const serve = servers.serve;
afterEach(servers.closeAll);

const list20 = SCENARIOS.find((s) => s.id === 'list-20');
if (list20 === undefined) throw new Error('no list-20 scenario');

/**
 * Two servers in this process whose "CPU" is a counter each answer moves by a known cost (30 µs and
 * 10 µs), read as the processes 1 and 2: what the windows read is what the answers cost, whatever
 * the machine does meanwhile.
 */
async function pair(status: [number, number] = [200, 200]) {
  const spent = [0, 0];
  const origins = await Promise.all(
    [30_000, 10_000].map((costNs, i) =>
      serve((req, res) => {
        req.resume();
        spent[i] = (spent[i] ?? 0) + costNs;
        res.writeHead(status[i] ?? 200, { 'content-type': 'application/json' });
        res.end('[]');
      }),
    ),
  );
  const targets = [
    { origin: origins[0] as string, prefix: '/v1', pid: 1 },
    { origin: origins[1] as string, prefix: '/v1', pid: 2 },
  ] as const;
  return { targets, readCpuNs: (pid: number) => spent[pid - 1] };
}

describe('runSideBySide', () => {
  it("reads each window's CPU an answer of both servers, driven at once", async () => {
    const { targets, readCpuNs } = await pair();
    const figures = await runSideBySide(targets, list20, {
      connections: 2,
      windows: 3,
      windowMs: 150,
      settleMs: 50,
      readCpuNs,
    });
    expect(figures.windows).toHaveLength(3);
    for (const window of figures.windows) {
      expect(window.answers[0]).toBeGreaterThan(0);
      expect(window.answers[1]).toBeGreaterThan(0);
      // An answer on its way when the window closed is counted by the server, not yet by the client:
      // a window of a hundred or more answers reads within a few per cent.
      expect(window.cpuUsPerRequest[0]).toBeGreaterThan(27);
      expect(window.cpuUsPerRequest[0]).toBeLessThan(33);
      expect(window.cpuUsPerRequest[1]).toBeGreaterThan(9);
      expect(window.cpuUsPerRequest[1]).toBeLessThan(11);
    }
    expect(figures.unexpected).toEqual([0, 0]);
    expect(figures.errors).toEqual([0, 0]);
  });

  it('counts the answers a server gives with a status the scenario does not expect', async () => {
    const { targets, readCpuNs } = await pair([200, 404]);
    const figures = await runSideBySide(targets, list20, {
      connections: 1,
      windows: 1,
      windowMs: 100,
      settleMs: 0,
      readCpuNs,
    });
    expect(figures.unexpected[0]).toBe(0);
    expect(figures.unexpected[1]).toBeGreaterThan(0);
  });

  it('keeps no window in which a server could not be read', async () => {
    const { targets } = await pair();
    const figures = await runSideBySide(targets, list20, {
      connections: 1,
      windows: 2,
      windowMs: 50,
      settleMs: 0,
      readCpuNs: (pid) => (pid === 1 ? 1 : undefined),
    });
    expect(figures.windows).toEqual([]);
  });
});

describe('mergeSideBySide', () => {
  const pair = (cpus: [number, number][], unexpected: [number, number], errors: [number, number]) =>
    ({
      windows: cpus.map((cpu) => ({ cpuUsPerRequest: cpu, answers: [1_000, 1_000] as const })),
      unexpected,
      errors,
    }) satisfies SideBySideFigures;

  it("concatenates the pairs' windows in order, sums their unexpected answers and errors, and counts each pair's windows", () => {
    const first = pair(
      [
        [21, 20],
        [22, 20],
      ],
      [0, 1],
      [2, 0],
    );
    const second = pair([[31, 30]], [3, 0], [0, 0]);
    const third = pair(
      [
        [41, 40],
        [42, 40],
        [43, 40],
      ],
      [1, 1],
      [0, 5],
    );
    expect(mergeSideBySide([first, second, third])).toEqual({
      windows: [...first.windows, ...second.windows, ...third.windows],
      unexpected: [4, 2],
      errors: [2, 5],
      pairs: 3,
      pairWindows: [2, 1, 3],
    });
  });

  it('says one pair as one, keeps a pair that gave no window, and gives nothing for no pairs', () => {
    const one = pair([[21, 20]], [0, 0], [0, 0]);
    expect(mergeSideBySide([one])).toEqual({ ...one, pairs: 1, pairWindows: [1] });
    const empty = pair([], [0, 0], [1, 1]);
    expect(mergeSideBySide([one, empty])).toMatchObject({ pairs: 2, pairWindows: [1, 0], errors: [1, 1] });
    expect(mergeSideBySide([])).toBeUndefined();
  });
});

describe('readCpuNsSync', () => {
  it("reads this process's CPU to the nanosecond, rising as it works, and nothing for a process gone", () => {
    const before = readCpuNsSync(process.pid);
    let x = 0;
    for (let i = 0; i < 5_000_000; i += 1) x = (x + i * 7) % 1_000_003;
    const after = readCpuNsSync(process.pid);
    expect(x).toBeGreaterThanOrEqual(0);
    expect(before).toBeGreaterThan(0);
    expect((after ?? 0) - (before ?? 0)).toBeGreaterThan(0);
    // Not rounded to /proc/PID/stat's 10 ms ticks.
    expect((before ?? 0) % 10_000_000).not.toBe(0);
    expect(readCpuNsSync(2 ** 22 + 1)).toBeUndefined();
  });
});

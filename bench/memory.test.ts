import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseProcStat, readCpuMs, readTreeCpuMs } from './cpu.js';
import { parseProcStatus, readMemory } from './memory.js';

describe('process memory', () => {
  it('reads VmRSS and VmHWM from /proc/PID/status text, in bytes', () => {
    const text = 'Name:\tnode\nVmPeak:\t  999 kB\nVmHWM:\t   81920 kB\nVmRSS:\t   40960 kB\nThreads:\t7\n';
    expect(parseProcStatus(text)).toEqual({ rss: 40960 * 1024, peak: 81920 * 1024 });
  });

  it('gives undefined for a status without the figures, or a process that is gone', async () => {
    expect(parseProcStatus('Name:\tkthreadd\n')).toBeUndefined();
    expect(await readMemory(2 ** 31 - 1)).toBeUndefined();
  });
});

describe('process CPU time', () => {
  it('adds user and system time from /proc/PID/stat, in ms, even with spaces in the command name', () => {
    const line = '4242 (node my server) S 1 4242 4242 0 -1 4194560 5000 0 0 0 250 40 0 0 20 0 11 0 100 0\n';
    expect(parseProcStat(line)).toBe(2900);
  });

  it('reads this process’s own CPU time', async () => {
    expect(await readCpuMs(process.pid)).toBeGreaterThan(0);
  });

  it('counts a child’s CPU time in its parent’s tree (the shared mode: replicas, the database’s backends)', async () => {
    // A child that spins until it has used 200 ms of CPU, then waits to be read.
    const spin = 'while (process.cpuUsage().user < 200000); setInterval(() => {}, 1000)';
    const child = spawn(process.execPath, ['-e', spin], { stdio: 'ignore' });
    try {
      const pid = child.pid as number;
      let childCpu = 0;
      while (childCpu < 200) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        childCpu = (await readCpuMs(pid)) ?? 0;
      }
      const own = (await readCpuMs(process.pid)) as number;
      const tree = (await readTreeCpuMs([process.pid])) as number;
      expect(tree).toBeGreaterThanOrEqual(own + childCpu);
      expect(await readTreeCpuMs([process.pid, 2 ** 31 - 1])).toBeUndefined();
    } finally {
      child.kill('SIGKILL');
    }
  });
});

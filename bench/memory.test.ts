import { describe, expect, it } from 'vitest';
import { parseProcStat, readCpuMs } from './cpu.js';
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
});

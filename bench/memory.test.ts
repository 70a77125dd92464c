import { describe, expect, it } from 'vitest';
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

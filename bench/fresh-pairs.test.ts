import { describe, expect, it } from 'vitest';
import { type FreshPairSteps, readFreshPairs } from './fresh-pairs.js';

/** Processes named by their pair and place ("2a", "2b"), what happened to them in order, and a pair's figures. */
function steps(fault: { start?: string; read?: number; stop?: string } = {}) {
  const events: string[] = [];
  const failures: [number, string][] = [];
  let pair = 1;
  const starter = (place: string) => async () => {
    if (place === 'a') pair += 1;
    const name = `${pair}${place}`;
    if (name === fault.start) throw new Error(`${name} did not start`);
    events.push(`start ${name}`);
    return name;
  };
  const given: FreshPairSteps<string, string> = {
    start: [starter('a'), starter('b')],
    read: async (processes, number) => {
      if (number === fault.read) throw new Error(`${processes[1]} died while driven`);
      events.push(`read ${processes.join('+')}`);
      return `figures of pair ${number}`;
    },
    stop: async (process) => {
      events.push(`stop ${process}`);
      if (process === fault.stop) throw new Error('gone already');
    },
    failed: (number, error) => failures.push([number, (error as Error).message]),
  };
  return { given, events, failures };
}

describe('readFreshPairs', () => {
  it('starts, reads and stops each pair in turn, the next started only once the last is stopped', async () => {
    const { given, events, failures } = steps();
    expect(await readFreshPairs(2, 3, given)).toEqual(['figures of pair 2', 'figures of pair 3']);
    expect(events).toEqual([
      'start 2a',
      'start 2b',
      'read 2a+2b',
      'stop 2a',
      'stop 2b',
      'start 3a',
      'start 3b',
      'read 3a+3b',
      'stop 3a',
      'stop 3b',
    ]);
    expect(failures).toEqual([]);
  });

  it('stops the process that started when the other did not, and reads no further pair', async () => {
    const { given, events, failures } = steps({ start: '3b' });
    expect(await readFreshPairs(2, 5, given)).toEqual(['figures of pair 2']);
    expect(events.slice(5)).toEqual(['start 3a', 'stop 3a']);
    expect(failures).toEqual([[3, '3b did not start']]);
  });

  it('stops both processes of a pair that failed while driven, keeping the pairs read before', async () => {
    const { given, events, failures } = steps({ read: 2 });
    expect(await readFreshPairs(2, 4, given)).toEqual([]);
    expect(events).toEqual(['start 2a', 'start 2b', 'stop 2a', 'stop 2b']);
    expect(failures).toEqual([[2, '2b died while driven']]);
  });

  it('goes on past a process that was gone when stopped (its stop failed)', async () => {
    const { given, failures } = steps({ stop: '2b' });
    expect(await readFreshPairs(2, 3, given)).toEqual(['figures of pair 2', 'figures of pair 3']);
    expect(failures).toEqual([]);
  });

  it('reads nothing when no further pair is asked for', async () => {
    const { given, events } = steps();
    expect(await readFreshPairs(2, 1, given)).toEqual([]);
    expect(events).toEqual([]);
  });
});

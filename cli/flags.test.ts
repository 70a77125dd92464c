import { describe, expect, it } from 'vitest';
import { checkedArgv, integerFlag, UsageError } from './flags.js';

describe('integerFlag', () => {
  it('reads an integer, and nothing when the flag was not given', () => {
    expect(integerFlag('--seed', '42')).toBe(42);
    expect(integerFlag('--seed', '-3')).toBe(-3);
    expect(integerFlag('--seed', ' 7 ')).toBe(7);
    expect(integerFlag('--seed', undefined)).toBeUndefined();
  });

  it('refuses what is not an integer, naming the flag and the value', () => {
    for (const raw of ['abc', '1.5', '1e3', '', '0x10']) {
      expect(() => integerFlag('--seed', raw)).toThrow(UsageError);
      expect(() => integerFlag('--seed', raw)).toThrow(`--seed must be an integer, got "${raw}".`);
    }
  });

  it('refuses a value out of its range, saying the range', () => {
    const port = { min: 0, max: 65535 };
    expect(integerFlag('--port', '0', port)).toBe(0);
    expect(integerFlag('--port', '65535', port)).toBe(65535);
    expect(() => integerFlag('--port', '65536', port)).toThrow(
      '--port must be an integer from 0 to 65535, got "65536".',
    );
    expect(() => integerFlag('--port', '-1', port)).toThrow(/from 0 to 65535/);
    expect(() => integerFlag('--port', 'abc', port)).toThrow(/from 0 to 65535, got "abc"/);
  });
});

describe('checkedArgv', () => {
  const FLAGS = {
    port: { type: 'string' },
    keys: { type: 'string' },
    'control-origin': { type: 'string', multiple: true },
    'no-control': { type: 'boolean' },
  } as const;

  it('refuses a flag of one value given two, rather than keep the last without a word', () => {
    expect(() => checkedArgv(['--keys', 'team.json', '--keys', 'mine.json'], FLAGS)).toThrow(
      new UsageError('--keys is given twice ("team.json", then "mine.json"); give it once.'),
    );
    expect(() => checkedArgv(['--port=4010', '--port', '4020'], FLAGS)).toThrow(
      '--port is given twice ("4010", then "4020"); give it once.',
    );
  });

  it('takes the same value twice, a repeatable flag many times, and a boolean again', () => {
    expect(checkedArgv(['--port', '0', '--port=0'], FLAGS)).toEqual(['--port=0', '--port=0']);
    expect(
      checkedArgv(['--control-origin', 'http://a.test', '--control-origin', 'http://b.test'], FLAGS),
    ).toHaveLength(2);
    expect(checkedArgv(['--no-control', '--no-control'], FLAGS)).toEqual(['--no-control', '--no-control']);
  });
});

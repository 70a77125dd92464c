import { describe, expect, it } from 'vitest';
import { checkedArgv, integerFlag, UsageError } from './flags.js';

describe('integerFlag', () => {
  it('reads an integer, and nothing when the flag was not given', () => {
    expect(integerFlag('--seed', '42')).toBe(42);
    expect(integerFlag('--seed', '-3')).toBe(-3);
    expect(integerFlag('--seed', undefined)).toBeUndefined();
  });

  it('refuses what is not an integer, naming the flag and the value', () => {
    for (const raw of ['abc', '1.5', '1e3', '', '0x10']) {
      expect(() => integerFlag('--seed', raw)).toThrow(UsageError);
      expect(() => integerFlag('--seed', raw)).toThrow(`--seed must be an integer, got "${raw}".`);
    }
  });

  it('refuses white space around the digits, and a number past what is exact, rather than guess', () => {
    // `--port ' 80'` (a quoting slip in a script) was read as port 80.
    for (const raw of [' 7', '7 ', ' 7 ', '\t7', '7\n', '1 000', '99999999999999999999']) {
      expect(() => integerFlag('--seed', raw)).toThrow(
        new UsageError(`--seed must be an integer, got "${raw}".`),
      );
    }
    expect(() => integerFlag('--port', ' 80', { min: 0, max: 65535 })).toThrow(
      new UsageError('--port must be an integer from 0 to 65535, got " 80".'),
    );
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
  const FLAGS = { port: { type: 'string' }, keys: { type: 'string' } } as const;

  it('refuses a flag that names a file given two, rather than keep the last without a word', () => {
    expect(() => checkedArgv(['--keys', 'team.json', '--keys=mine.json'], FLAGS, ['keys'])).toThrow(
      new UsageError('--keys is given twice ("team.json", then "mine.json"); give it once.'),
    );
    expect(checkedArgv(['--keys', 'k.json', '--keys', 'k.json'], FLAGS, ['keys'])).toHaveLength(2);
  });

  it("keeps another flag's last value, so a script's default can be overridden", () => {
    expect(checkedArgv(['--port', '0', '--port', '4020'], FLAGS, ['keys'])).toEqual([
      '--port=0',
      '--port=4020',
    ]);
  });
});

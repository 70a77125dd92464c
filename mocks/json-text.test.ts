import { describe, expect, it } from 'vitest';
import { readJsonText } from './json-text.js';

/** How deep arrays nest in `value`, counted without recursion (so as deep as JSON.parse reads). */
function depthOf(value: unknown): number {
  let depth = 0;
  let at = value;
  while (Array.isArray(at)) {
    depth += 1;
    [at] = at;
  }
  return depth;
}

describe('readJsonText', () => {
  it('reads valid JSON', () => {
    expect(readJsonText('{"keys": [1, 2]}')).toEqual({ value: { keys: [1, 2] } });
  });
  it('skips a leading byte-order mark, as a request body\'s is (it was "not valid JSON at line 1, column 1")', () => {
    expect(readJsonText('\uFEFF{"keys": [1, 2]}')).toEqual({ value: { keys: [1, 2] } });
    expect(readJsonText('\uFEFF{"keys": [1,]}')).toEqual({
      fault: 'is not valid JSON at line 1, column 13: a trailing comma before ]',
    });
  });
  it.each([
    [
      '{\n  "keys": [\n    {"key": "secret-1"},\n  ]\n}',
      'is not valid JSON at line 4, column 3: a trailing comma before ]',
    ],
    ['{"key": "secret-1",}', 'is not valid JSON at line 1, column 20: a trailing comma before }'],
    [
      "{'key': 'secret-1'}",
      'is not valid JSON at line 1, column 2: a single quote (JSON takes double quotes)',
    ],
    ['{"key": "secret-1"\n "plan": "free"}', 'is not valid JSON at line 2, column 2: a comma was expected'],
    [
      '{"key": "secret-1" // a comment\n}',
      'is not valid JSON at line 1, column 20: a comment, which JSON does not allow',
    ],
    ['{"key": "secret-1"', 'is not valid JSON at line 1, column 19: a closing } was expected'],
    ['{"key": "secret-1"}}', 'is not valid JSON at line 1, column 20: the end of the file was expected'],
    ['  \n', 'is empty'],
  ])('says where %j is not JSON, by line and column, quoting none of it', (text, fault) => {
    expect(readJsonText(text)).toEqual({ fault });
    expect(fault).not.toContain('secret');
  });

  it('refuses a name given twice in one object, by both places, where JSON.parse kept the last', () => {
    expect(
      readJsonText('{"keys":[{"key":"k1","plan":"free"}],\n "keys":[{"key":"k2","plan":"pro"}]}'),
    ).toEqual({
      fault:
        'has a name twice in one object, at line 1, column 2 and line 2, column 2: JSON would keep the last; give it once',
    });
    // Escaped, it is the same name; in two objects, or as a value, it is not twice.
    expect(readJsonText('{"a":{"k\\u0065y":1,"key":2}}')).toMatchObject({
      fault: expect.stringContaining('a name twice in one object, at line 1, column 7 and line 1, column 20'),
    });
    expect(readJsonText('[{"key":1},{"key":2}]')).toEqual({ value: [{ key: 1 }, { key: 2 }] });
    expect(readJsonText('{"a":"key","b":["key","key"],"key":{"a":1}}')).toEqual({
      value: { a: 'key', b: ['key', 'key'], key: { a: 1 } },
    });
    expect(readJsonText('{"a\\"b":1,"a\\\\":2,"c":"}{,"}')).toEqual({
      value: { 'a"b': 1, 'a\\': 2, c: '}{,' },
    });
  });

  it('reads JSON nested 20,000 deep, as JSON.parse does', () => {
    const read = readJsonText(`${'['.repeat(20_000)}${']'.repeat(20_000)}`);
    expect('value' in read && depthOf(read.value)).toBe(20_000);
  });

  it.each([
    [
      'not closed',
      `${'['.repeat(20_000)}${']'.repeat(19_999)}`,
      'is not valid JSON at line 1, column 40000: a closing ] was expected',
    ],
    [
      'closed by the wrong bracket',
      `${'['.repeat(20_000)}}`,
      'is not valid JSON at line 1, column 20001: a closing ] was expected',
    ],
    [
      'with a trailing comma at its deepest',
      `${'[1,'.repeat(20_000)}]`,
      'is not valid JSON at line 1, column 60001: a trailing comma before ]',
    ],
    [
      'objects, one missing its colon',
      `${'{"a":'.repeat(20_000)}{"b" 1}${'}'.repeat(20_000)}`,
      'is not valid JSON at line 1, column 100006: a colon was expected',
    ],
  ])('says where JSON nested 20,000 deep is not valid: %s', (_, text, fault) => {
    expect(readJsonText(text)).toEqual({ fault });
  });
});

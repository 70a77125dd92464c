import { describe, expect, it } from 'vitest';
import { readJsonText } from './json-text.js';

describe('readJsonText', () => {
  it('reads valid JSON', () => {
    expect(readJsonText('{"keys": [1, 2]}')).toEqual({ value: { keys: [1, 2] } });
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
});

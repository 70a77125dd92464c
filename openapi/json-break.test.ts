import fc from 'fast-check';
import { expect, test } from 'vitest';
import { around, jsonBreak } from './json-break.js';

const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

test('a JSON text has no break; any text breaks exactly when JSON.parse refuses it', () => {
  fc.assert(fc.property(fc.json(), (text) => jsonBreak(text) === undefined));
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string(),
        fc.json().map((t) => t.slice(0, -1)),
        fc.jsonValue().map((v) => `${JSON.stringify(v)} x`),
      ),
      (text) => {
        expect(jsonBreak(text) === undefined).toBe(parses(text));
      },
    ),
    { numRuns: 2000 },
  );
  for (const text of [
    '[1,]',
    '{"a":1,}',
    '01',
    '-',
    '1.',
    '1e',
    '"\\x"',
    '"\u0001"',
    'tru',
    '[1 2]',
    '{"a" 1}',
    '\uFEFF[]',
    ' [ ] ',
    '[[[]]]',
    '{"a":{"b":[1,{"c":null}]}}',
  ])
    expect(jsonBreak(text) === undefined, text).toBe(parses(text));
});

test('the break: line, column, byte, what was expected, and whether the text ended there', () => {
  expect(jsonBreak('<html>')).toEqual({
    index: 0,
    line: 1,
    column: 1,
    byte: 0,
    expected: 'a JSON value',
    ended: false,
  });
  expect(jsonBreak('{\n  "a": 1,\n  "b": tru\n}')).toMatchObject({
    line: 3,
    column: 11,
    expected: 'the rest of true',
  });
  expect(jsonBreak('["é", x]')).toMatchObject({ index: 6, column: 7, byte: 7 });
  expect(jsonBreak('[{"id":1,"name":"Bis')).toMatchObject({
    index: 20,
    byte: 20,
    ended: true,
    expected: 'the rest of a string',
  });
  expect(jsonBreak('[1]]')).toMatchObject({ index: 3, expected: 'nothing more after the JSON value' });
  expect(jsonBreak('['.repeat(100_000))).toMatchObject({ ended: true });
});

test('around: a few characters each side, cut marked', () => {
  expect(around('abcdefghij', 5, 2)).toBe('…defg…');
  expect(around('abc', 1, 5)).toBe('abc');
});

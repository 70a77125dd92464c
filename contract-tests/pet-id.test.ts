import { expect, test } from 'vitest';
import { jsonText, withExactIds } from './pet-id.js';

test('ids past 2^53 kept exact as bigints; other members as JSON.parse reads them', () => {
  const text =
    '[{"id":9007199254740993,"name":"a"},{"id":9007199254740994,"categoryId":9007199254740995},{"id":3}]';
  expect(withExactIds(text, JSON.parse(text))).toEqual([
    { id: 9007199254740993n, name: 'a' },
    { id: 9007199254740994n, categoryId: 9007199254740996 },
    { id: 3 },
  ]);
  expect(jsonText(withExactIds(text, JSON.parse(text)))).toBe(
    '[{"id":9007199254740993,"name":"a"},{"id":9007199254740994,"categoryId":9007199254740996},{"id":3}]',
  );
});

test("a string of the body's own that reads as a mark is left as it is, and the ids still exact", () => {
  const text = '{"id":9007199254740993,"name":"\\u0000petkit0:0","note":"\\u0000"}';
  expect(withExactIds(text, JSON.parse(text))).toEqual({
    id: 9007199254740993n,
    name: '\u0000petkit0:0',
    note: '\u0000',
  });
});

test('an id past 2^53 spelled with a zero fraction or an exponent is exact too', () => {
  const text =
    '[{"id":9007199254740993.0},{"id":9.007199254740995e15},{"id":90071992547409970E-1},{"id":1.5e300}]';
  expect(withExactIds(text, JSON.parse(text))).toEqual([
    { id: 9007199254740993n },
    { id: 9007199254740995n },
    { id: 9007199254740997n },
    { id: 1.5e300 },
  ]);
});

test('an id past 2^53 in an exponent alone is found', () => {
  const text = '{"id":9.007199254740993e15}';
  expect(withExactIds(text, JSON.parse(text))).toEqual({ id: 9007199254740993n });
});

import { expect, test } from 'vitest';
import { memberLiteral } from './phase.js';

test('memberLiteral reads a top-level member number as it is written', () => {
  expect(memberLiteral('{"id":31,"name":"B","categoryId":3.0}', 'categoryId')).toBe('3.0');
  expect(memberLiteral('{ "categoryId" : 30E-1 , "id": 1 }', 'categoryId')).toBe('30E-1');
  expect(memberLiteral('{"categoryId":3}', 'categoryId')).toBe('3');
  // Not a nested one, nor a name or a value that only looks like it.
  expect(
    memberLiteral(
      '{"a":{"categoryId":9.0},"b":[1,{"categoryId":8}],"c":null,"name":"\\"categoryId\\":7.0","categoryId":-3}',
      'categoryId',
    ),
  ).toBe('-3');
  expect(memberLiteral('{"ok":true,"categoryId":"3"}', 'categoryId')).toBeUndefined();
  expect(memberLiteral('{"id":1}', 'categoryId')).toBeUndefined();
});

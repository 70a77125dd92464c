import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { duplicateName } from './duplicate-names.js';

describe('duplicateName', () => {
  it('finds the first object that names a member twice, with its pointer', () => {
    expect(duplicateName('{"id":999999,"id":1,"name":"Rex"}')).toEqual({ pointer: '', name: 'id' });
    expect(duplicateName('[{"id":1},{"id":2,"name":"a","name":"b"}]')).toEqual({
      pointer: '/1',
      name: 'name',
    });
    expect(duplicateName('{"a/b":{"c~d":[0,{"x":1,"x":2}]}}')).toEqual({
      pointer: '/a~1b/c~0d/1',
      name: 'x',
    });
    // An object of many names (kept in a Set past the first 16): the one named again last.
    const many = Array.from({ length: 40 }, (_, i) => `"k${i}":${i}`).join(',');
    expect(duplicateName(`{${many}}`)).toBeUndefined();
    expect(duplicateName(`{${many},"k2":0}`)).toEqual({ pointer: '', name: 'k2' });
    expect(duplicateName(`{${many},"k39":0}`)).toEqual({ pointer: '', name: 'k39' });
    // The same name written with an escape is the same name.
    expect(duplicateName('{"ab":1,"a\\u0062":2}')).toEqual({ pointer: '', name: 'ab' });
  });

  it('says nothing of names that are unique in each object, whatever their values hold', () => {
    for (const json of [
      '[{"id":1,"name":"Rex"},{"id":2,"name":"Rex"}]',
      '{"x":"{\\"x\\":1,","y":{"x":[1,2,{"x":3}]}}',
      '{"a":"\\\\","b":"\\""}',
      '"id"',
      '[]',
      '{}',
      '{"":1,"\\u0000":2}',
    ])
      expect(duplicateName(json), json).toBeUndefined();
  });

  it('agrees with a parse of the text on every JSON value: none for JSON.stringify, which writes each name once', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(duplicateName(JSON.stringify(value))).toBeUndefined();
      }),
    );
  });

  it('finds a name written twice into any object of any JSON value', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 }),
        fc.jsonValue(),
        (object, other) => {
          const [name] = Object.keys(object);
          const json = JSON.stringify(object);
          const twice = `{${JSON.stringify(name)}:${JSON.stringify(other)},${json.slice(1)}`;
          expect(duplicateName(JSON.stringify([twice.length, JSON.parse(twice)]))).toBeUndefined();
          expect(duplicateName(`[0,${twice}]`)?.pointer).toBe('/1');
        },
      ),
    );
  });
});

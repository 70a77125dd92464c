import { describe, expect, it } from 'vitest';
import { escapeToken, pointerOf, pointerOfRef, tokensOf, valueAt } from './json-pointer.js';

describe('JSON Pointer', () => {
  const doc = { paths: { '/pets/{petId}': { get: 1 } }, 'a~b': [10, 20] };

  it('escapes ~ and / in a token, and follows an escaped pointer back to the value', () => {
    expect(escapeToken('/pets/{petId}')).toBe('~1pets~1{petId}');
    expect(escapeToken('a~b')).toBe('a~0b');
    expect(valueAt(doc, `/paths/${escapeToken('/pets/{petId}')}/get`)).toBe(1);
    expect(valueAt(doc, `/${escapeToken('a~b')}/1`)).toBe(20);
    expect(valueAt(doc, '')).toBe(doc);
  });

  it('splits a pointer into its tokens and joins them back', () => {
    expect(tokensOf('/paths/~1pets~1{petId}/get')).toEqual(['paths', '/pets/{petId}', 'get']);
    expect(tokensOf('')).toEqual([]);
    expect(pointerOf(['a~b', '/x', '0'])).toBe('/a~0b/~1x/0');
    expect(pointerOf(tokensOf('/a~0b/~1x/0'))).toBe('/a~0b/~1x/0');
  });

  it('answers undefined where nothing is', () => {
    expect(valueAt(doc, '/paths/none/get')).toBeUndefined();
    expect(valueAt(doc, '/a~0b/0/deeper')).toBeUndefined();
  });

  it("reads a local $ref's fragment, percent-decoded, and refuses any other", () => {
    expect(pointerOfRef('#/components/schemas/Pet')).toBe('/components/schemas/Pet');
    expect(pointerOfRef('#/paths/~1pets~1%7BpetId%7D')).toBe('/paths/~1pets~1{petId}');
    expect(() => pointerOfRef('other.yaml#/Pet')).toThrow(/Only local \$refs/);
  });
});

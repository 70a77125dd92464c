import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeFaultIn, type Fault, quoteValue } from './faults.js';
import { loadSpec } from './load.js';

/** A -0 through JSON.stringify, which writes it 0: a string only it could be, replaced after. */
const MINUS_ZERO = '\u0000-0';

/**
 * What quoteValue said before it was bounded: the whole value through JSON.stringify, then cut; and a
 * -0 as -0, as JSON.parse read it.
 */
function quotedWhole(value: unknown): string {
  const written = JSON.stringify(value, (_key, member: unknown) =>
    Object.is(member, -0) ? MINUS_ZERO : member,
  );
  const text = written?.replaceAll(JSON.stringify(MINUS_ZERO), '-0') ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

const nested = (depth: number): unknown => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);
const nestedObject = (depth: number): unknown => JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);

/**
 * `value` behind a Proxy that counts the members read, at every depth: how much of the value a
 * quote walked (JSON.stringify reads every member; a bounded quote reads a few).
 */
function counted(value: unknown): { value: unknown; reads: () => number } {
  let reads = 0;
  const wrap = (node: unknown): unknown =>
    typeof node === 'object' && node !== null
      ? new Proxy(node, {
          get(target, key, receiver) {
            if (typeof key === 'string' && key !== 'length' && key !== 'toJSON') reads += 1;
            return wrap(Reflect.get(target, key, receiver));
          },
        })
      : node;
  return { value: wrap(value), reads: () => reads };
}

const typeFault = (instancePath: string): Fault => ({
  instancePath,
  schemaPath: '#/type',
  keyword: 'type',
  params: { type: 'string' },
  message: 'must be string',
});

describe('quoteValue', () => {
  it('quotes a value as JSON, cut short past 60 characters, as it always has', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6, stringUnit: 'binary' }), (value) => {
        expect(quoteValue(value)).toBe(quotedWhole(value));
      }),
      { numRuns: 300, seed: 7 },
    );
    for (const value of [undefined, Number.NaN, [undefined, () => 1], { a: undefined, b: 1 }, 'x'.repeat(80)])
      expect(quoteValue(value)).toBe(quotedWhole(value));
  });

  it('quotes an array nested 8,000 deep in 60 characters (JSON.stringify overflowed the stack)', () => {
    expect(quoteValue(nested(8_000))).toBe(`${'['.repeat(57)}...`);
    expect(quoteValue(nestedObject(8_000))).toBe(`${'{"a":'.repeat(11)}{"...`);
    expect(quoteValue(nested(100_000))).toHaveLength(60);
  });

  it('reads only the members it quotes, however deep or wide the value', () => {
    const wideArray = counted(Array.from({ length: 100_000 }, (_, i) => i));
    expect(quoteValue(wideArray.value)).toHaveLength(60);
    expect(wideArray.reads()).toBeLessThanOrEqual(61);

    const wideObject = counted(Object.fromEntries(Array.from({ length: 4_000 }, (_, i) => [`k${i}`, i])));
    expect(quoteValue(wideObject.value)).toMatch(/^\{"k0":0,"k1":1,.*\.\.\.$/);
    expect(wideObject.reads()).toBeLessThanOrEqual(61);

    const deep = counted(nested(5_000));
    expect(quoteValue(deep.value)).toHaveLength(60);
    expect(deep.reads()).toBeLessThanOrEqual(61);
  });

  it('quotes -0 as -0, as it was sent (JSON.parse keeps it), not as the 0 JSON.stringify writes', () => {
    expect(quoteValue(-0)).toBe('-0');
    expect(quoteValue(0)).toBe('0');
    expect(quoteValue([-0, 0, { a: -0 }])).toBe('[-0,0,{"a":-0}]');
    const detail = describeFaultIn(JSON.parse('{"name":"Rex","categoryId":-0}'))({
      instancePath: '/categoryId',
      schemaPath: '#/properties/categoryId/minimum',
      keyword: 'minimum',
      params: { comparison: '>=', limit: 1 },
      message: 'must be >= 1',
    });
    expect(detail).toEqual({ path: '/categoryId', message: 'must be >= 1; got -0' });
  });

  it('quotes the start of a long string or member name', () => {
    expect(quoteValue('é'.repeat(1_000_000))).toBe(`"${'é'.repeat(56)}...`);
    expect(quoteValue({ ['k'.repeat(100_000)]: 1 })).toBe(`{"${'k'.repeat(55)}...`);
  });
});

describe('describeFaultIn', () => {
  it('describes a fault in a value nested 8,000 deep, or 4,000 keys wide, in a bounded message', () => {
    for (const received of [nested(8_000), nestedObject(8_000), Array(8_000).fill(nested(10))]) {
      const detail = describeFaultIn({ name: received, categoryId: 1 })(typeFault('/name'));
      expect(detail.path).toBe('/name');
      expect(detail.message).toMatch(/^must be string; got .{57}\.\.\.$/);
    }
    const wide = Object.fromEntries(Array.from({ length: 4_000 }, (_, i) => [`k${i}`, [i]]));
    expect(describeFaultIn(wide)(typeFault('')).message.length).toBeLessThanOrEqual(80);
  });
});

describe('operation.validateRequest (the mock and the proxy both check with it)', () => {
  it('refuses a body nested 8,000 deep, as a whole or as a field, with a short message', async () => {
    const createPet = loadSpec().operation('createPet');
    for (const value of [
      nested(8_000),
      { name: nested(8_000), categoryId: 1 },
      { name: 'Rex', categoryId: nested(8_000) },
    ]) {
      const verdict = await createPet.validateRequest({
        pathParams: {},
        query: undefined,
        readBody: async () => ({ value }),
      });
      expect(verdict.kind).toBe('invalid');
      if (verdict.kind !== 'invalid') continue;
      expect(verdict.message.length).toBeLessThanOrEqual(140);
      for (const detail of verdict.details) expect(detail.message.length).toBeLessThanOrEqual(100);
    }
  });
});

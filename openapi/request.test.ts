import { describe, expect, it } from 'vitest';
import { loadSpec, type RequestParts } from './index.js';
import { MAX_DETAILS, sentNumber } from './request.js';

const spec = loadSpec();
const listPets = spec.operation('listPets');
const createPet = spec.operation('createPet');
const getPet = spec.operation('getPet');

function request(
  query: string,
  options: { path?: Record<string, string> | null; body?: () => unknown } = {},
): RequestParts<string> & { bodyReads: number } {
  const parts = {
    pathParams: options.path === undefined ? {} : options.path,
    query: query === '' ? undefined : new URLSearchParams(query),
    bodyReads: 0,
    async readBody() {
      parts.bodyReads += 1;
      const value = options.body?.();
      return typeof value === 'string' ? { refusal: value } : { value };
    },
  };
  return parts;
}

describe('operation.validateRequest', () => {
  it('reads the parameters as their schemas say, an absent one as its default', async () => {
    expect(await listPets.validateRequest(request('status=sold'))).toEqual({
      kind: 'valid',
      params: { limit: 20, status: 'sold' },
      body: undefined,
    });
    expect(await getPet.validateRequest(request('', { path: { petId: '42' } }))).toMatchObject({
      kind: 'valid',
      params: { petId: 42 },
    });
  });

  it('says where the first fault is, in a sentence and as JSON Pointers', async () => {
    expect(await listPets.validateRequest(request('limit=101&status=adopted'))).toEqual({
      kind: 'invalid',
      where: 'query',
      message: 'Invalid query: /limit must be <= 100; got 101 (and 1 more).',
      details: [
        { path: '/limit', message: 'must be <= 100; got 101' },
        { path: '/status', message: 'must be one of "available", "pending", "sold"; got "adopted"' },
      ],
    });
    expect(await listPets.validateRequest(request('limit=1&limit=2'))).toMatchObject({
      message: 'Invalid query: /limit must be given once, not 2 times.',
    });
    expect(await getPet.validateRequest(request('', { path: { petId: 'abc' } }))).toMatchObject({
      where: 'path',
      details: [{ path: '/petId', message: 'must be integer; got "abc"' }],
    });
  });

  it('a path whose percent-encoding does not decode is invalid', async () => {
    expect(await getPet.validateRequest(request('', { path: null }))).toEqual({
      kind: 'invalid',
      where: 'path',
      message: 'Invalid path: its percent-encoding does not decode.',
      details: [{ path: '', message: 'is not valid percent-encoding' }],
    });
  });

  it('reads the body only when the operation takes one, and checks it', async () => {
    const list = request('');
    await listPets.validateRequest(list);
    expect(list.bodyReads).toBe(0);
    const pet = { name: 'Mochi', categoryId: 1 };
    expect(await createPet.validateRequest(request('', { body: () => pet }))).toEqual({
      kind: 'valid',
      params: {},
      body: pet,
    });
    expect(await createPet.validateRequest(request('', { body: () => ({ name: '' }) }))).toMatchObject({
      kind: 'invalid',
      where: 'body',
      message: 'Invalid body: /categoryId is required (and 1 more).',
    });
  });

  it('names an unknown property by its first characters, however long it is', async () => {
    const name = `k${'x'.repeat(16_000)}`;
    const refused = await createPet.validateRequest(
      request('', { body: () => ({ name: 'Rex', categoryId: 1, [name]: 1 }) }),
    );
    const shown = `/k${'x'.repeat(56)}...`;
    expect(refused).toMatchObject({
      message: `Invalid body: ${shown} is not an allowed property.`,
      details: [{ path: shown, message: 'is not an allowed property' }],
    });
  });

  it('lists the first 20 faults in details, and counts the others in the message', async () => {
    /** A pet with `unknown` properties it does not allow (name and categoryId there): as many faults. */
    const withUnknown = (unknown: number) => () => ({
      name: 'Rex',
      categoryId: 1,
      ...Object.fromEntries(Array.from({ length: unknown }, (_, i) => [`x${i}`, i])),
    });
    const twenty = await createPet.validateRequest(request('', { body: withUnknown(20) }));
    expect(twenty).toMatchObject({ message: 'Invalid body: /x0 is not an allowed property (and 19 more).' });
    expect(twenty.kind === 'invalid' && twenty.details).toHaveLength(20);
    const many = await createPet.validateRequest(request('', { body: withUnknown(5_000) }));
    expect(many).toMatchObject({
      message: 'Invalid body: /x0 is not an allowed property (and 4999 more; details lists the first 20).',
    });
    expect(many.kind === 'invalid' && many.details.map((d) => d.path)).toEqual(
      Array.from({ length: 20 }, (_, i) => `/x${i}`),
    );
  });

  it("lists as many faults as the Error schema's details maxItems allows", () => {
    const error = spec.document.components?.schemas?.Error as
      | { properties?: { details?: { maxItems?: number } } }
      | undefined;
    expect(error?.properties?.details?.maxItems).toBe(MAX_DETAILS);
  });

  it("passes on the caller's reason a body could not be read", async () => {
    expect(await createPet.validateRequest(request('', { body: () => 'too large' }))).toEqual({
      kind: 'refused',
      refusal: 'too large',
    });
  });
});

describe('spec.matchPath', () => {
  it('finds the path by its shape, with its operations and decoded parameters', () => {
    const found = spec.matchPath('/pets/a%20b');
    expect(found?.path.template).toBe('/pets/{petId}');
    expect([...(found?.path.operations.keys() ?? [])]).toEqual(['GET']);
    expect(found?.params).toEqual({ petId: 'a b' });
    expect(spec.matchPath('/pets')?.path.operations.get('POST')?.id).toBe('createPet');
    expect(spec.matchPath('/pets/1/x')).toBeUndefined();
  });

  it('matches a path whose parameters do not decode, with null parameters', () => {
    expect(spec.matchPath('/pets/%E0%A4%A')).toMatchObject({
      path: { template: '/pets/{petId}' },
      params: null,
    });
  });
});

describe('sentNumber', () => {
  it('reads a top-level member’s number as written, the last one where the body repeats it', () => {
    expect(sentNumber('{"name":"Rex","categoryId":9223372036854775807}', '/categoryId')).toBe(
      '9223372036854775807',
    );
    expect(sentNumber('{"categoryId": 1, "categoryId" : -2.5e3}', '/categoryId')).toBe('-2.5e3');
    expect(sentNumber('{"name":"categoryId: 7"}', '/categoryId')).toBeUndefined();
    expect(sentNumber('{"a":{"b":1}}', '/a/b')).toBeUndefined();
    expect(sentNumber('{"a":1}', '')).toBeUndefined();
  });

  it('matches a name with the characters of a pattern as written, not as a pattern', () => {
    expect(sentNumber('{"a.b":1,"axb":2}', '/a.b')).toBe('1');
    expect(sentNumber('{"(x)+":3}', '/(x)+')).toBe('3');
    expect(sentNumber('{"[":4}', '/[')).toBe('4');
  });

  it('answers the same for each body and name, one call after another and past the names it keeps', () => {
    // The second text is shorter than where a match in the first ended: nothing carries over.
    const long = '{"padding":"..............................","categoryId":11}';
    expect(sentNumber(long, '/categoryId')).toBe('11');
    expect(sentNumber('{"categoryId":12}', '/categoryId')).toBe('12');
    expect(sentNumber('{"name":""}', '/categoryId')).toBeUndefined();
    // More names than are kept compiled (a client's own member names): each still read right.
    for (let round = 0; round < 2; round += 1)
      for (let i = 0; i < 200; i += 1) expect(sentNumber(`{"m${i}":${i},"x":0}`, `/m${i}`)).toBe(String(i));
  });
});

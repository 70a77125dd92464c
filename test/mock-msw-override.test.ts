// petkit/msw's override: one operation's answer replaced in front of the mock's handlers, typed from
// openapi.yaml (the @ts-expect-error lines are type errors; `npm run typecheck` fails if one is not),
// and checked at run time for callers without types.
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMock } from '../mocks/index.js';
import { createHandlers, OverrideError, override } from '../mocks/msw.js';

const BASE = 'https://api.example.test/v1';
const mock = createMock({ seed: 42 });
const server = setupServer(...createHandlers({ mock, baseUrl: BASE }));
const KEY = { authorization: 'Bearer demo-free' };

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  mock.reset();
});
afterAll(() => server.close());

describe('override', () => {
  it('answers one operation as given, the others from the mock', async () => {
    server.use(
      override(
        'getPet',
        { status: 404, body: { code: 'not_found', message: 'Adopted already.', status: 404 } },
        { baseUrl: BASE },
      ),
    );
    const pet = await fetch(`${BASE}/pets/1`, { headers: KEY });
    expect(pet.status).toBe(404);
    expect(pet.headers.get('content-type')).toBe('application/json');
    expect(await pet.json()).toEqual({ code: 'not_found', message: 'Adopted already.', status: 404 });
    expect((await fetch(`${BASE}/pets?limit=2`, { headers: KEY })).status).toBe(200);
  });
  it('answers from a function of the request and its path parameters', async () => {
    server.use(
      override(
        'getPet',
        ({ params, request }) => ({
          status: 200,
          body: { id: Number(params.petId), name: request.headers.get('x-name') ?? 'Rex', categoryId: 1 },
        }),
        { baseUrl: BASE },
      ),
    );
    const res = await fetch(`${BASE}/pets/7`, { headers: { ...KEY, 'x-name': 'Mochi' } });
    expect(await res.json()).toEqual({ id: 7, name: 'Mochi', categoryId: 1 });
  });
  it('answers once with once: true, then the mock answers again', async () => {
    server.use(override('listPets', { status: 200, body: [] }, { baseUrl: BASE, once: true }));
    expect(await (await fetch(`${BASE}/pets`, { headers: KEY })).json()).toEqual([]);
    expect(await (await fetch(`${BASE}/pets`, { headers: KEY })).json()).toHaveLength(20);
  });
  it('refuses, as a type error and at run time, a status not documented or a body off its schema', () => {
    // @ts-expect-error getPet documents no 201
    expect(() => override('getPet', { status: 201, body: { id: 1, name: 'Rex', categoryId: 1 } })).toThrow(
      new OverrideError("override('getPet'): 201 is not a documented JSON answer of getPet."),
    );
    // @ts-expect-error a Pet's name is a string
    expect(() => override('getPet', { status: 200, body: { id: 1, name: 7, categoryId: 1 } })).toThrow(
      "override('getPet'): the 200 body departs from openapi.yaml: /name must be string.",
    );
    // @ts-expect-error listPets answers an array of pets
    expect(() => override('listPets', { status: 200, body: { id: 1, name: 'Rex', categoryId: 1 } })).toThrow(
      OverrideError,
    );
    // @ts-expect-error no such operation
    expect(() => override('deletePet', { status: 204, body: null })).toThrow();
  });
});

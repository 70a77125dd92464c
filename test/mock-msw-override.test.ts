// petkit/msw's override: one operation's answer replaced in front of the mock's handlers, typed from
// openapi.yaml (the @ts-expect-error lines are type errors; `npm run typecheck` fails if one is not),
// and checked at run time for callers without types.
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { errorBody, FORCED_CODES } from '../mocks/errors.js';
import { createMock } from '../mocks/index.js';
import { createHandlers, OverrideError, override } from '../mocks/msw.js';
import { EXPOSED_HEADERS } from '../mocks/responses.js';
import { checkResponse } from '../mocks/test-helpers.js';
import { loadSpec, type OperationId } from '../openapi/index.js';

const BASE = 'https://api.example.test/v1';
const mock = createMock({ seed: 42 });
const server = setupServer(...createHandlers({ mock, baseUrl: BASE }));
const KEY = { authorization: 'Bearer demo-free' };
const NOW = Date.parse('2030-01-01T00:00:30Z');
const spec = loadSpec();

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
  it("answers a HEAD of the operation as its GET, without the body, not with the mock's 200", async () => {
    const body = { code: 'rate_limited', message: 'Slow down.', status: 429 };
    server.use(override('listPets', { status: 429, body }, { baseUrl: BASE }));
    const head = await fetch(`${BASE}/pets`, { method: 'HEAD', headers: KEY });
    expect(head.status).toBe(429);
    expect(head.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(await head.text()).toBe('');
    // The mock counted nothing: the override answered it.
    expect(mock.journal).toEqual([]);
    // getPet's HEAD is still the mock's.
    expect((await fetch(`${BASE}/pets/1`, { method: 'HEAD', headers: KEY })).status).toBe(200);
  });
  it('answers once with once: true, then the mock answers again', async () => {
    server.use(override('listPets', { status: 200, body: [] }, { baseUrl: BASE, once: true }));
    expect(await (await fetch(`${BASE}/pets`, { headers: KEY })).json()).toEqual([]);
    expect(await (await fetch(`${BASE}/pets`, { headers: KEY })).json()).toHaveLength(20);
  });
  it('refuses, as a type error and at run time, a status not documented or a body off its schema', () => {
    // @ts-expect-error getPet documents no 201
    expect(() => override('getPet', { status: 201, body: { id: 1, name: 'Rex', categoryId: 1 } })).toThrow(
      new OverrideError(
        "override('getPet'): 201 is not a documented JSON answer of getPet; it documents 200, 400, 401, 404, 429, 500, 503.",
      ),
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
    expect(thrown(() => override('deletePet', { status: 204, body: null }))).toEqual(
      new OverrideError(
        "override('deletePet'): openapi.yaml has no operation 'deletePet'; its operations are listPets, createPet, getPet.",
      ),
    );
  });
});

/** What a call threw: an OverrideError, or the test fails saying what came instead. */
function thrown(call: () => unknown): OverrideError {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(OverrideError);
    return error as OverrideError;
  }
  throw new Error('it threw nothing');
}

describe('override from JavaScript, without its types', () => {
  const pets = { status: 200, body: [] };
  /** override() as a JavaScript caller reaches it: any arguments at all. */
  const untyped = override as (...args: unknown[]) => unknown;
  it.each([
    [
      'an answer that is null',
      ['listPets', null],
      'an answer is an object { status, body, headers? }; got null.',
    ],
    [
      'an answer that is a status alone',
      ['listPets', 200],
      'an answer is an object { status, body, headers? }; got 200.',
    ],
    [
      "MSW's Response in place of an answer",
      ['listPets', new Response('[]')],
      "an answer is an object { status, body, headers? }, not a Response (MSW's http.get(...) answers a Response of your own).",
    ],
    [
      'an answer with a key of no meaning',
      ['listPets', { ...pets, header: { 'Retry-After': 5 } }],
      "an answer has no key 'header'; its keys are status, body and headers.",
    ],
    [
      'an answer with no status',
      ['listPets', { body: [] }],
      'the answer has no status; listPets documents 200, 400, 401, 429, 500, 503.',
    ],
    [
      'a status the operation does not document',
      ['listPets', { status: 418, body: {} }],
      '418 is not a documented JSON answer of listPets; it documents 200, 400, 401, 429, 500, 503.',
    ],
    ['an answer with no body', ['listPets', { status: 200 }], 'the 200 answer has no body.'],
    [
      'headers that are null',
      ['listPets', { ...pets, headers: null }],
      'the 200 headers are an object of names to strings or numbers; got null.',
    ],
    [
      'a header name that is not one',
      ['listPets', { ...pets, headers: { 'X Trace': 'a' } }],
      "'X Trace' is not a header name: a name is letters, digits and !#$%&'*+-.^_`|~, no spaces nor colons.",
    ],
    [
      'a header with no value',
      ['listPets', { ...pets, headers: { 'X-Trace': undefined } }],
      'the 200 header X-Trace is undefined; a header is a string or a number.',
    ],
    [
      'a header value with a line break',
      ['listPets', { ...pets, headers: { 'X-Trace': 'a\r\nSet-Cookie: x=1' } }],
      "the 200 header X-Trace is 'a\r\nSet-Cookie: x=1'; a header's value has no line break nor NUL.",
    ],
    [
      'a clock that is not a function',
      ['listPets', pets, { now: 5 }],
      'options.now is a function that returns ms since the epoch; got number.',
    ],
    [
      'once that is not a boolean',
      ['listPets', pets, { once: 'yes' }],
      'options.once is true or false; got string.',
    ],
    [
      'a relative base URL with no page',
      ['listPets', pets, { baseUrl: '/api/v1' }],
      "baseUrl '/api/v1' is relative, and there is no page here to resolve it against, so it would match no request: give its origin ('https://api.example.test/api/v1'), or '*/api/v1' for any origin.",
    ],
  ])('refuses %s when the override is made, with an OverrideError', (_, args, message) => {
    const operation = String(args[0]);
    expect(thrown(() => untyped(...args))).toEqual(new OverrideError(`override('${operation}'): ${message}`));
  });

  it.each([
    [
      'a status listPets does not document',
      () => ({ status: 418, body: {} }),
      "override('listPets'): the answer its function returned is refused: 418 is not a documented JSON answer of listPets; it documents 200, 400, 401, 429, 500, 503.",
    ],
    [
      'a body off its schema',
      () => ({ status: 200, body: [{ id: 1 }] }),
      "override('listPets'): the answer its function returned is refused: the 200 body departs from openapi.yaml: /0/name is required.",
    ],
    [
      'nothing (a block body with no return)',
      () => {
        ({ status: 200, body: [] });
      },
      "override('listPets'): its function returned undefined, not an answer { status, body, headers? } (an arrow function returns an object in parentheses: () => ({ status, body })).",
    ],
  ])(
    'answers a function that returns %s with a documented 500 internal_error saying so, no stack trace',
    async (_, resolver, message) => {
      const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      try {
        server.use(untyped('listPets', resolver, { baseUrl: BASE }) as ReturnType<typeof override>);
        const res = await checkResponse('GET', `${BASE}/pets`, await fetch(`${BASE}/pets`, { headers: KEY }));
        expect(res.status).toBe(500);
        expect(res.json).toEqual({ code: 'internal_error', message, status: 500 });
        expect(res.headers.get('x-ratelimit-limit')).toBe('60');
        expect(logged).not.toHaveBeenCalled();
      } finally {
        logged.mockRestore();
      }
    },
  );
});

describe('override of an error status', () => {
  const limited = errorBody('rate_limited');
  it('answers a 429 completely: Retry-After, the window spent, the headers a browser app may read', async () => {
    server.use(override('listPets', { status: 429, body: limited }, { baseUrl: BASE, now: () => NOW }));
    const res = await fetch(`${BASE}/pets`, { headers: KEY });
    expect(res.status).toBe(429);
    expect(Object.fromEntries(res.headers)).toMatchObject({
      // As the mock's own 429 for demo-free at NOW: the Free plan's 60 a minute, until the minute's end.
      'retry-after': '30',
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(NOW / 1000 + 30),
      'access-control-allow-origin': '*',
      'access-control-expose-headers': EXPOSED_HEADERS,
    });
    expect(await res.json()).toEqual(limited);
  });
  it('answers every documented status of every operation as openapi.yaml says, given only the body', async () => {
    const bodies: Record<string, unknown> = {
      'listPets 200': [],
      'createPet 201': { id: 51, name: 'Rex', categoryId: 1 },
      'getPet 200': { id: 1, name: 'Rex', categoryId: 1 },
    };
    const answered: string[] = [];
    for (const operation of spec.operations) {
      for (const key of operation.responses.keys()) {
        const status = Number(key);
        const code = FORCED_CODES.get(status);
        const body =
          bodies[`${operation.id} ${status}`] ?? (code === undefined ? undefined : errorBody(code));
        if (body === undefined) throw new Error(`no body for ${operation.id} ${status} in this test`);
        const answer = { status, body } as never;
        server.use(override(operation.id as OperationId, answer, { baseUrl: BASE, once: true }));
        const url = `${BASE}${operation.expand({ petId: 1 })}`;
        const init =
          operation.method === 'POST' ? { method: 'POST', headers: KEY, body: '{}' } : { headers: KEY };
        const res = await checkResponse(operation.method, url, await fetch(url, init));
        expect(res.status).toBe(status);
        answered.push(`${operation.id} ${status}`);
      }
    }
    expect(answered).toHaveLength(22);
  });
  it("carries the headers of the mock's own answer when that status is forced (Prefer: code=)", async () => {
    const forcedMock = createMock({ seed: 42, clock: () => NOW });
    for (const operation of spec.operations) {
      for (const [status, code] of FORCED_CODES) {
        if (!operation.responses.has(String(status))) continue;
        forcedMock.reset();
        const path = `${spec.basePath}${operation.expand({ petId: 1 })}`;
        const forced = await forcedMock.request(path, {
          method: operation.method,
          headers: { ...KEY, prefer: `code=${status}`, 'content-type': 'application/json' },
          ...(operation.method === 'POST' ? { body: '{}' } : {}),
        });
        const answer = { status, body: errorBody(code) } as never;
        server.use(
          override(operation.id as OperationId, answer, { baseUrl: BASE, once: true, now: () => NOW }),
        );
        const overridden = await fetch(`${BASE}${operation.expand({ petId: 1 })}`, {
          method: operation.method,
          headers: KEY,
          ...(operation.method === 'POST' ? { body: '{}' } : {}),
        });
        const { 'preference-applied': _, ...mockHeaders } = Object.fromEntries(forced.headers);
        expect(Object.fromEntries(overridden.headers), `${operation.id} ${status}`).toEqual(mockHeaders);
      }
    }
  });
  it('says who is refused on a 401: the challenge of RFC 6750, for a missing or a wrong key', async () => {
    server.use(override('createPet', { status: 401, body: errorBody('missing_api_key') }, { baseUrl: BASE }));
    const missing = await fetch(`${BASE}/pets`, { method: 'POST', body: '{}' });
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="pets"');
    server.use(override('listPets', { status: 401, body: errorBody('invalid_api_key') }, { baseUrl: BASE }));
    const wrong = await fetch(`${BASE}/pets`, { headers: KEY });
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer realm="pets", error="invalid_token"');
  });
  it('takes the headers given, typed from openapi.yaml, and fills the rest to agree with them', async () => {
    server.use(
      override(
        'listPets',
        { status: 429, body: limited, headers: { 'Retry-After': 5, 'X-RateLimit-Limit': 300 } },
        { baseUrl: BASE, now: () => NOW },
      ),
    );
    const res = await fetch(`${BASE}/pets`, { headers: KEY });
    expect(Object.fromEntries(res.headers)).toMatchObject({
      'retry-after': '5',
      'x-ratelimit-limit': '300',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(NOW / 1000 + 5),
    });
  });
  it('refuses, as a type error and at run time, a documented header off its schema', () => {
    expect(() =>
      // @ts-expect-error Retry-After is a number of seconds
      override('listPets', { status: 429, body: limited, headers: { 'Retry-After': 'soon' } }),
    ).toThrow(
      new OverrideError(
        `override('listPets'): the 429 header Retry-After departs from openapi.yaml: "soon" must be integer.`,
      ),
    );
    expect(() =>
      override('listPets', { status: 429, body: limited, headers: { 'retry-after': -1 } }),
    ).toThrow(OverrideError);
  });
});

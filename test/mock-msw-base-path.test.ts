// petkit/msw's handlers and overrides for an API under another base path than /v1: the Location of a
// 201 and getPet's Link name the path the app calls (/api/v1/pets/51), not the contract's /v1, which
// the app's base URL does not serve.
import { setupServer } from 'msw/node';
import { createMock } from 'petkit';
import { createHandlers, override } from 'petkit/msw';
import { describe, expect, it, onTestFinished } from 'vitest';

const KEY = { authorization: 'Bearer demo-free' };
const create = {
  method: 'POST',
  headers: { ...KEY, 'content-type': 'application/json' },
  body: '{"name":"Rex","categoryId":1}',
};

function serve(...handlers: Parameters<typeof setupServer>) {
  const server = setupServer(...handlers);
  server.listen({ onUnhandledRequest: 'error' });
  onTestFinished(() => server.close());
  return server;
}

describe('petkit/msw under another base path', () => {
  it.each([
    ['https://api.example.test/api/v1', 'https://api.example.test/api/v1', '/api/v1'],
    ['https://api.example.test/', 'https://api.example.test', ''],
    ['http://localhost:*/v2/', 'http://localhost:3000/v2', '/v2'],
    ['*/v1', 'http://any.test/v1', '/v1'],
  ])('baseUrl %s: Location and Link name the path the app calls', async (baseUrl, calls, path) => {
    const mock = createMock({ seed: 42 });
    serve(...createHandlers({ mock, baseUrl }));
    const created = await fetch(`${calls}/pets`, create);
    expect(created.status).toBe(201);
    const location = created.headers.get('location');
    expect(location).toBe(`${path}/pets/51`);
    // The Location is one the app can follow, as it calls the API.
    const followed = await fetch(new URL(location as string, calls), { headers: KEY });
    expect(await followed.json()).toMatchObject({ id: 51, name: 'Rex' });
    expect(followed.headers.get('link')).toBe(`<${path}/pets>; rel="successor-version"`);
    // The journal keeps what the core answered, at the contract's path.
    expect(mock.journal.at(-1)?.path).toBe('/v1/pets/51');
  });

  it('names the paths the app calls in a 404 route_not_found, not the contract’s /v1', async () => {
    const mock = createMock({ seed: 42 });
    serve(...createHandlers({ mock, baseUrl: 'https://api.example.test/api/v1' }));
    const res = await fetch('https://api.example.test/api/v1/v1/pet', { headers: KEY });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      code: 'route_not_found',
      message:
        'No route GET /api/v1/v1/pet. The routes: GET /api/v1/pets, POST /api/v1/pets, GET /api/v1/pets/{petId}.',
      status: 404,
    });
    serve(...createHandlers({ mock, baseUrl: 'https://root.example.test' }));
    const rooted = await fetch('https://root.example.test/nope', { headers: KEY });
    expect((await rooted.json()).message).toBe(
      'No route GET /nope. The routes: GET /pets, POST /pets, GET /pets/{petId}.',
    );
  });

  it('ends the wait of a request its app aborted, as at /v1: nothing left in flight', async () => {
    const mock = createMock({ seed: 42 });
    serve(...createHandlers({ mock, baseUrl: 'https://api.example.test/api/v1' }));
    const leaving = new AbortController();
    const pending = fetch('https://api.example.test/api/v1/pets', {
      headers: { ...KEY, prefer: 'delay=10000' },
      signal: leaving.signal,
    });
    while (mock.inFlight === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    leaving.abort();
    await pending.catch(() => undefined);
    const until = Date.now() + 2_000;
    while (mock.inFlight > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(mock.inFlight).toBe(0);
  });

  it('fills in Location and Link of an override at its base path too', async () => {
    const baseUrl = 'https://api.example.test/api/v1';
    serve(
      override('createPet', { status: 201, body: { id: 7, name: 'Rex', categoryId: 1 } }, { baseUrl }),
      override(
        'getPet',
        { status: 404, body: { code: 'not_found', message: 'Gone.', status: 404 } },
        { baseUrl },
      ),
    );
    const created = await fetch(`${baseUrl}/pets`, create);
    expect(created.headers.get('location')).toBe('/api/v1/pets/7');
    const gone = await fetch(`${baseUrl}/pets/7`, { headers: KEY });
    expect(gone.headers.get('link')).toBe('</api/v1/pets>; rel="successor-version"');
    const root = 'https://root.example.test';
    serve(
      override(
        'getPet',
        { status: 404, body: { code: 'not_found', message: 'Gone.', status: 404 } },
        { baseUrl: root },
      ),
    );
    expect((await fetch(`${root}/pets/7`, { headers: KEY })).headers.get('link')).toBe(
      '</pets>; rel="successor-version"',
    );
  });
});

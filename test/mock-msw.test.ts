// The mock as MSW handlers under setupServer, driven with plain fetch.
import { getResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMock, startServer } from '../mocks/index.js';
import { createHandlers, handlers, override } from '../mocks/msw.js';
import { checkResponse } from '../mocks/test-helpers.js';

const mock = createMock({ seed: 42 });
const msw = setupServer(...createHandlers({ mock, baseUrl: 'https://api.example.test/v1' }), ...handlers);
const KEY = { authorization: 'Bearer demo-free' };

beforeAll(() => msw.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mock.reset());
afterAll(() => msw.close());

async function checkedFetch(url: string, init: RequestInit = {}) {
  const res = await fetch(url, init);
  return checkResponse(init.method ?? 'GET', new URL(url).pathname, res);
}

describe('createHandlers with setupServer', () => {
  it('lists pets at the given base URL', async () => {
    const res = await checkedFetch('https://api.example.test/v1/pets?limit=5', { headers: KEY });
    expect(res.status).toBe(200);
    expect(res.json).toHaveLength(5);
  });
  it('answers 413 to a body over 16 KiB, whole or streamed without end, as the server does', async () => {
    const json = { ...KEY, 'content-type': 'application/json' };
    // The request's body reaches the handler through MSW's interceptor, which keeps a branch of it:
    // the read stopped at the cap used to wait for its cancel, which never came, and the fetch hung.
    const whole = await checkedFetch('https://api.example.test/v1/pets', {
      method: 'POST',
      headers: json,
      body: `{"name":"${'x'.repeat(17_000)}","categoryId":1}`,
    });
    expect(whole.status).toBe(413);
    expect(whole.json).toMatchObject({ code: 'payload_too_large' });
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(65_536).fill(0x20));
      },
    });
    const streamed = await checkedFetch('https://api.example.test/v1/pets', {
      method: 'POST',
      headers: json,
      body: endless,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    // Read no further than the cap asks (and what the streams buffer ahead).
    expect(pulled).toBeLessThan(8);
  });
  it('creates and fetches a pet, and resets through the control API', async () => {
    const created = await checkedFetch('https://api.example.test/v1/pets', {
      method: 'POST',
      headers: { ...KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Mochi', categoryId: 1 }),
    });
    expect(created.status).toBe(201);
    expect((await checkedFetch('https://api.example.test/v1/pets/51', { headers: KEY })).json).toEqual(
      created.json,
    );
    await fetch('https://api.example.test/__petkit/reset', { method: 'POST' });
    expect((await checkedFetch('https://api.example.test/v1/pets/51', { headers: KEY })).status).toBe(404);
  });
  it('answers 401 without a key and forces responses with Prefer', async () => {
    expect((await checkedFetch('https://api.example.test/v1/pets')).status).toBe(401);
    const forced = await checkedFetch('https://api.example.test/v1/pets', {
      headers: { ...KEY, prefer: 'code=500' },
    });
    expect(forced.status).toBe(500);
  });
  it('maps a base URL with another path onto the API', async () => {
    const other = setupServer(...createHandlers({ mock, baseUrl: 'http://localhost:3000/api/v1' }));
    msw.close();
    other.listen({ onUnhandledRequest: 'error' });
    try {
      // The app calls /api/v1/pets/1; the contract's path is /v1/pets/1.
      const res = await checkResponse(
        'GET',
        '/v1/pets/1',
        await fetch('http://localhost:3000/api/v1/pets/1', { headers: KEY }),
      );
      expect(res.status).toBe(200);
    } finally {
      other.close();
      msw.listen({ onUnhandledRequest: 'error' });
    }
  });
  it('the ready handlers answer /v1 on any origin', async () => {
    const res = await checkedFetch('http://anything.test/v1/pets?limit=2', { headers: KEY });
    expect(res.json).toHaveLength(2);
  });
  it('makes a mock of its own for each spread of the ready handlers, none kept by the module', async () => {
    const [first, second] = [[...handlers], [...handlers]];
    const created = await getResponse(
      first,
      new Request('http://any.test/v1/pets', {
        method: 'POST',
        headers: { ...KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Mochi', categoryId: 1 }),
      }),
    );
    expect(created?.status).toBe(201);
    const pet51 = () => new Request('http://any.test/v1/pets/51', { headers: KEY });
    expect((await getResponse(first, pet51()))?.status).toBe(200);
    expect((await getResponse(second, pet51()))?.status).toBe(404);
  });
  it('gives byte-identical pets through MSW and through the server for the same seed', async () => {
    const server = await startServer({ port: 0, seed: 42 });
    try {
      msw.close();
      const overSocket = await (await fetch(`${server.url}/pets?limit=100`, { headers: KEY })).text();
      msw.listen({ onUnhandledRequest: 'error' });
      const throughMsw = await (
        await fetch('https://api.example.test/v1/pets?limit=100', { headers: KEY })
      ).text();
      expect(JSON.parse(throughMsw)).toHaveLength(50);
      expect(throughMsw).toBe(overSocket);
    } finally {
      await server.close();
    }
  });
});

describe('createHandlers at every shape of base URL', () => {
  /**
   * What the handlers answer to a GET: its status and JSON, or undefined when none of them answers.
   * An API answer is held to the contract at `contractPath`, the path the core answered.
   */
  async function get(list: ReturnType<typeof createHandlers>, url: string, contractPath?: string) {
    const res = await getResponse(list, new Request(url, { headers: KEY }));
    if (res === undefined) return undefined;
    if (contractPath === undefined) return { status: res.status, json: await res.json() };
    // getPet's Link names the successor where the app calls the API (`</api/v1/pets>`); the contract
    // describes it at /v1, so it is held to the contract as the contract's path says it.
    const appPath = new URL(url).pathname;
    const base = appPath.slice(
      0,
      appPath.length - (new URL(contractPath, url).pathname.length - '/v1'.length),
    );
    const link = res.headers.get('link');
    if (link !== null) {
      expect(link).toBe(`<${base}/pets>; rel="successor-version"`);
      res.headers.set('link', '</v1/pets>; rel="successor-version"');
    }
    const checked = await checkResponse('GET', contractPath, res);
    return { status: checked.status, json: checked.json };
  }
  it.each([
    ['https://api.example.test', 'https://api.example.test/pets', 'https://api.example.test/__petkit'],
    ['https://api.example.test/', 'https://api.example.test/pets', 'https://api.example.test/__petkit'],
    ['https://api.example.test/v1', 'https://api.example.test/v1/pets', 'https://api.example.test/__petkit'],
    [
      'https://api.example.test/api/v1/',
      'https://api.example.test/api/v1/pets',
      'https://api.example.test/api/__petkit',
    ],
    ['http://localhost:*/api', 'http://localhost:3000/api/pets', 'http://localhost:3000/__petkit'],
    // MSW read the port's * after a digit as a parameter with no name, and threw on every request.
    ['http://127.0.0.1:*/v1', 'http://127.0.0.1:5173/v1/pets', 'http://127.0.0.1:5173/__petkit'],
    ['http://[::1]:*/v1', 'http://[::1]:5173/v1/pets', 'http://[::1]:5173/__petkit'],
    ['https://*.example.test/v1', 'https://api.example.test/v1/pets', 'https://api.example.test/__petkit'],
    // As the request's URL has them: its default port dropped, its path percent-encoded (they matched nothing).
    [
      'https://api.example.test:443/v1',
      'https://api.example.test/v1/pets',
      'https://api.example.test/__petkit',
    ],
    ['https://API.example.test/v1', 'https://api.example.test/v1/pets', 'https://api.example.test/__petkit'],
    // Characters MSW's pattern syntax reads: matched literally (`/(v1)` was a group, and matched nothing).
    [
      'https://api.example.test/(v1)',
      'https://api.example.test/(v1)/pets',
      'https://api.example.test/__petkit',
    ],
    [
      'https://api.example.test/v1+beta',
      'https://api.example.test/v1+beta/pets',
      'https://api.example.test/__petkit',
    ],
    [
      'https://api.example.test/café/v1',
      'https://api.example.test/caf%C3%A9/v1/pets',
      'https://api.example.test/caf%C3%A9/__petkit',
    ],
    ['*/v1', 'http://any.test/v1/pets', 'http://any.test/__petkit'],
    ['*/v1/', 'http://any.test/v1/pets', 'http://any.test/__petkit'],
    ['*', 'http://any.test/pets', 'http://any.test/__petkit'],
  ])('baseUrl %s: lists pets at %s, the control API at %s', async (baseUrl, pets, control) => {
    const own = createMock({ seed: 42 });
    const list = createHandlers({ mock: own, baseUrl });
    const listed = await get(list, `${pets}?limit=2`, '/v1/pets?limit=2');
    expect(listed).toEqual({ status: 200, json: expect.any(Array) });
    expect(listed?.json).toHaveLength(2);
    expect(await get(list, `${pets}/1`, '/v1/pets/1')).toMatchObject({ status: 200, json: { id: 1 } });
    expect(await get(list, `${control}/health`)).toMatchObject({
      status: 200,
      json: { status: 'ok', pets: 50 },
    });
  });
  it('leaves to the handlers after it a path that only contains its base path (*/v1 is /v1 on any origin)', async () => {
    const list = createHandlers({ mock, baseUrl: '*/v1' });
    expect(await get(list, 'http://any.test/api/v1/pets')).toBeUndefined();
    expect(await get(list, 'http://any.test/api/__petkit/health')).toBeUndefined();
  });
  it('resolves a relative base URL against the page, as MSW does', async () => {
    vi.stubGlobal('location', new URL('http://localhost:5173/app/index.html'));
    try {
      const rooted = createHandlers({ mock, baseUrl: '/api/v1' });
      expect(await get(rooted, 'http://localhost:5173/api/v1/pets/1', '/v1/pets/1')).toMatchObject({
        status: 200,
      });
      expect(await get(rooted, 'http://localhost:5173/api/__petkit/health')).toMatchObject({ status: 200 });
      expect(await get(rooted, 'http://elsewhere.test/api/v1/pets/1')).toBeUndefined();
      const beside = createHandlers({ mock, baseUrl: 'api/v1' });
      expect(await get(beside, 'http://localhost:5173/app/api/v1/pets/1', '/v1/pets/1')).toMatchObject({
        status: 200,
      });
    } finally {
      vi.unstubAllGlobals();
    }
  });
  it('refuses a relative base URL where there is no page, and a wildcard in the path, saying what to give', () => {
    expect(() => createHandlers({ baseUrl: '/api/v1' })).toThrow(
      new TypeError(
        "petkit/msw: baseUrl '/api/v1' is relative, and there is no page here to resolve it against, so it would match no request: give its origin ('https://api.example.test/api/v1'), or '*/api/v1' for any origin.",
      ),
    );
    expect(() => override('listPets', { status: 200, body: [] }, { baseUrl: 'api/v1' })).toThrow(TypeError);
    expect(() => createHandlers({ baseUrl: 'https://api.example.test/*/v1' })).toThrow(
      /wildcard in its path/,
    );
    // Each was told it is relative, and to give 'https://api.example.test/localhost:3000/v1'.
    expect(() => createHandlers({ baseUrl: 'localhost:3000/v1' })).toThrow(
      new TypeError(
        "petkit/msw: baseUrl 'localhost:3000/v1' has no scheme: give 'http://localhost:3000/v1' (or https).",
      ),
    );
    expect(() => createHandlers({ baseUrl: 'ftp://api.example.test/v1' })).toThrow(
      new TypeError(
        "petkit/msw: baseUrl 'ftp://api.example.test/v1' is a ftp: URL, which no request of the app's matches: give the API's http(s) URL ('https://api.example.test/v1'), or '*/v1' for any origin.",
      ),
    );
    expect(() => override('listPets', { status: 200, body: [] }, { baseUrl: 'javascript:alert(1)' })).toThrow(
      /is a javascript: URL/,
    );
  });
  it("overrides an operation under a base path with characters of MSW's pattern syntax", async () => {
    const baseUrl = 'https://api.example.test/(v1)';
    const pet = override(
      'getPet',
      ({ params }) => ({ status: 200, body: { id: Number(params.petId), name: 'Rex', categoryId: 1 } }),
      { baseUrl },
    );
    const res = await getResponse(
      [pet],
      new Request('https://api.example.test/(v1)/pets/3', { headers: KEY }),
    );
    expect(await res?.json()).toEqual({ id: 3, name: 'Rex', categoryId: 1 });
  });
  it("overrides an operation of an API at its origin's root", async () => {
    const list = [
      override('listPets', { status: 200, body: [] }, { baseUrl: 'https://api.example.test/' }),
      ...createHandlers({ mock, baseUrl: 'https://api.example.test/' }),
    ];
    expect(await get(list, 'https://api.example.test/pets')).toEqual({ status: 200, json: [] });
    expect(await get(list, 'https://api.example.test/pets/1')).toMatchObject({
      status: 200,
      json: { id: 1 },
    });
  });
});

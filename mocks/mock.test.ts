import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERRORS } from './errors.js';
import { memoryState } from './memory-state.js';
import { createMock } from './mock.js';
import type { MockState } from './state.js';
import { checkedRequest, withKey } from './test-helpers.js';

const NOW = Date.UTC(2030, 0, 1, 12, 0, 30);
const fresh = (options: Parameters<typeof createMock>[0] = {}) =>
  createMock({ clock: () => NOW, ...options });
const FREE = 'demo-free';
const details = (json: unknown) => (json as { details?: { path: string }[] }).details?.map((d) => d.path);
const code = (json: unknown) => (json as { code: string }).code;

describe('listPets parameters', () => {
  it.each(['0', '101', '-1', '1.5', 'abc', ''])('answers 400 for limit=%s', async (limit) => {
    const res = await checkedRequest(fresh(), `/v1/pets?limit=${limit}`, withKey(FREE));
    expect(res.status).toBe(400);
    expect(code(res.json)).toBe('validation_failed');
    expect(details(res.json)).toEqual(['/limit']);
  });
  it('quotes limit=-0 as sent, not as the 0 it reads as', async () => {
    const res = await checkedRequest(fresh(), '/v1/pets?limit=-0', withKey(FREE));
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      message: 'Invalid query: /limit must be >= 1; got -0.',
      details: [{ path: '/limit', message: 'must be >= 1; got -0' }],
    });
    const both = await checkedRequest(fresh(), '/v1/pets?status=adopted&limit=-0', withKey(FREE));
    expect((both.json as { details: unknown[] }).details).toContainEqual({
      path: '/limit',
      message: 'must be >= 1; got -0',
    });
  });
  it('says a + in the query string is a space, for limit=+5 told got " 5"', async () => {
    const res = await checkedRequest(fresh(), '/v1/pets?status=available&limit=+5', withKey(FREE));
    expect(res.status).toBe(400);
    const note = ' (a + in a query string is a space: send %2B for a plus sign)';
    expect(res.json).toMatchObject({
      message: `Invalid query: /limit must be integer; got " 5"${note}.`,
      details: [{ path: '/limit', message: `must be integer; got " 5"${note}` }],
    });
    // A space sent as %20 is quoted as it is, with no word of a plus.
    const spaced = await checkedRequest(fresh(), '/v1/pets?limit=%205', withKey(FREE));
    expect((spaced.json as { message: string }).message).toBe(
      'Invalid query: /limit must be integer; got " 5".',
    );
  });
  it('says a query value whose percent-encoding does not decode so, with what was sent, not only U+FFFD', async () => {
    const res = await checkedRequest(fresh(), '/v1/pets?limit=1&status=%E0%A4%A', withKey(FREE));
    expect(res.status).toBe(400);
    const note = ' (its percent-encoding "%E0%A4%A" does not decode as UTF-8)';
    const fault = 'must be one of "available", "pending", "sold"; got "\uFFFD%A"';
    expect(res.json).toMatchObject({
      message: `Invalid query: /status ${fault}${note}.`,
      details: [{ path: '/status', message: `${fault}${note}` }],
    });
    const limit = await checkedRequest(fresh(), '/v1/pets?limit=%FF', withKey(FREE));
    expect((limit.json as { message: string }).message).toBe(
      'Invalid query: /limit must be integer; got "\uFFFD" (its percent-encoding "%FF" does not decode as UTF-8).',
    );
    // Percent-encoding that decodes is quoted decoded, with no note.
    const decodes = await checkedRequest(fresh(), '/v1/pets?status=%C3%A9', withKey(FREE));
    expect((decodes.json as { message: string }).message).toBe(
      'Invalid query: /status must be one of "available", "pending", "sold"; got "\u00e9".',
    );
  });
  it('answers 400 for status=adopted, naming /status', async () => {
    const res = await checkedRequest(fresh(), '/v1/pets?status=adopted', withKey(FREE));
    expect(res.status).toBe(400);
    expect(details(res.json)).toEqual(['/status']);
  });
  it('lists every faulty parameter at once', async () => {
    const res = await checkedRequest(fresh(), '/v1/pets?status=adopted&limit=0', withKey(FREE));
    expect(details(res.json)?.sort()).toEqual(['/limit', '/status']);
  });
  it('answers 400 for a parameter given twice, rather than pick one', async () => {
    const res = await checkedRequest(fresh(), '/v1/pets?limit=10&limit=200', withKey(FREE));
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      code: 'validation_failed',
      message: 'Invalid query: /limit must be given once, not 2 times.',
      details: [{ path: '/limit', message: 'must be given once, not 2 times' }],
    });
  });
  it('says "Invalid body: must be object" and what came, for a body that is not an object', async () => {
    const res = await checkedRequest(fresh(), '/v1/pets', {
      method: 'POST',
      headers: { Authorization: `Bearer ${FREE}`, 'Content-Type': 'application/json' },
      body: '[]',
    });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      message: 'Invalid body: must be object; got [].',
      details: [{ path: '' }],
    });
  });
  it('returns 20 pets by default, in ascending id order', async () => {
    const res = await checkedRequest(fresh(), '/v1/pets', withKey(FREE));
    const ids = (res.json as { id: number }[]).map((p) => p.id);
    expect(ids).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });
  it('respects limit and filters by status', async () => {
    const mock = fresh();
    const all = (await checkedRequest(mock, '/v1/pets?limit=100', withKey(FREE))).json as {
      status: string;
    }[];
    expect(all).toHaveLength(50);
    const sold = (await checkedRequest(mock, '/v1/pets?limit=100&status=sold', withKey(FREE))).json as {
      status: string;
    }[];
    expect(sold.length).toBeGreaterThan(0);
    expect(sold).toEqual(all.filter((p) => p.status === 'sold'));
    expect((await checkedRequest(mock, '/v1/pets?limit=3', withKey(FREE))).json).toHaveLength(3);
  });
});

describe('a path beside the API', () => {
  it('points /__petkit, without its last /, at the page /__petkit/', async () => {
    const res = await checkedRequest(fresh(), '/__petkit', withKey(FREE));
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({
      code: 'route_not_found',
      message:
        "No route GET /__petkit; the API is under /v1, and the mock's page at /__petkit/ (with the last /).",
    });
    const other = await checkedRequest(fresh(), '/elsewhere', withKey(FREE));
    expect((other.json as { message: string }).message).toBe(
      'No route GET /elsewhere; the API is under /v1.',
    );
  });
});

describe('getPet', () => {
  it.each(['abc', '1.5', '99999999999999999999'])('answers 400 for petId %s', async (id) => {
    const res = await checkedRequest(fresh(), `/v1/pets/${id}`, withKey(FREE));
    expect(res.status).toBe(400);
    expect([...new Set(details(res.json))]).toEqual(['/petId']);
  });
  it('answers 400, not a crash, for a petId whose percent-encoding does not decode', async () => {
    const res = await checkedRequest(fresh(), '/v1/pets/%E0%A4%A', withKey(FREE));
    expect(res.status).toBe(400);
    expect(code(res.json)).toBe('validation_failed');
  });
  it.each(['1.0', '1e0', '01', '+1'])(
    'answers 400 for petId=%s: an integer is written as one',
    async (id) => {
      const res = await checkedRequest(fresh(), `/v1/pets/${id}`, withKey(FREE));
      expect(res.status).toBe(400);
      expect(details(res.json)).toEqual(['/petId']);
    },
  );
  it('names an unknown int64 id exactly as sent, not rounded', async () => {
    const res = await checkedRequest(fresh(), '/v1/pets/9223372036854775806', withKey(FREE));
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ message: 'No pet has id 9223372036854775806.' });
  });
  it('answers 404 not_found for an unknown pet', async () => {
    const res = await checkedRequest(fresh(), '/v1/pets/4242', withKey(FREE));
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ code: 'not_found', message: 'No pet has id 4242.' });
  });
  it('carries Sunset, Deprecation and Link on every status', async () => {
    const mock = fresh();
    for (const [path, init, status] of [
      ['/v1/pets/1', withKey(FREE), 200],
      ['/v1/pets/4242', withKey(FREE), 404],
      ['/v1/pets/abc', withKey(FREE), 400],
      ['/v1/pets/1', {}, 401],
      ['/v1/pets/1', withKey(FREE, { headers: { prefer: 'code=500' } }), 500],
    ] as const) {
      const res = await checkedRequest(mock, path, init);
      expect(res.status).toBe(status);
      expect(res.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
      expect(res.headers.get('deprecation')).toBe('@1735689600');
      expect(res.headers.get('link')).toBe('</v1/pets>; rel="successor-version"');
    }
  });
});

describe('createPet', () => {
  const post = (body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    withKey(FREE, { method: 'POST', body, headers });

  it('creates a pet: 201, Location, and getPet returns it with the name exactly as sent', async () => {
    const mock = fresh();
    const created = await checkedRequest(
      mock,
      '/v1/pets',
      withKey(FREE, { json: { name: '  Rex ', categoryId: 2 } }),
    );
    expect(created.status).toBe(201);
    expect(created.json).toEqual({ id: 51, name: '  Rex ', categoryId: 2 });
    expect(created.headers.get('location')).toBe('/v1/pets/51');
    const fetched = await checkedRequest(mock, '/v1/pets/51', withKey(FREE));
    expect(fetched.json).toEqual(created.json);
  });
  it('reads JSON under any case of application/json and any parameters, skips a BOM, keeps the last of a key given twice', async () => {
    const mock = fresh();
    const bodies: [string, Record<string, string>][] = [
      ['{"name":"A","categoryId":1}', { 'content-type': 'APPLICATION/JSON' }],
      ['{"name":"B","categoryId":1}', { 'content-type': 'application/json; charset=latin1' }],
      ['\uFEFF{"name":"C","categoryId":1}', { 'content-type': 'application/json' }],
      ['{"name":"x","name":"D","categoryId":1}', { 'content-type': 'application/json' }],
    ];
    const names: unknown[] = [];
    for (const [body, headers] of bodies) {
      const res = await checkedRequest(mock, '/v1/pets', post(body, headers));
      expect(res.status).toBe(201);
      names.push((res.json as { name: string }).name);
    }
    expect(names).toEqual(['A', 'B', 'C', 'D']);
  });
  it('accepts a name of 100 characters (emoji count as one) and rejects 0 or 101', async () => {
    const mock = fresh();
    const ok = await checkedRequest(
      mock,
      '/v1/pets',
      withKey(FREE, { json: { name: '🐶'.repeat(100), categoryId: 1 } }),
    );
    expect(ok.status).toBe(201);
    for (const name of ['', 'x'.repeat(101)]) {
      const res = await checkedRequest(mock, '/v1/pets', withKey(FREE, { json: { name, categoryId: 1 } }));
      expect(res.status).toBe(400);
      expect(details(res.json)).toEqual(['/name']);
    }
  });
  it('rejects a categoryId below 1 or beyond int64', async () => {
    const mock = fresh();
    for (const body of [
      '{"name":"Rex","categoryId":0}',
      '{"name":"Rex","categoryId":99999999999999999999}',
    ]) {
      const res = await checkedRequest(mock, '/v1/pets', post(body));
      expect(res.status).toBe(400);
      expect(details(res.json)).toContain('/categoryId');
    }
  });
  it('quotes a categoryId as it was sent: -0 as -0 (below 1, refused), not as the 0 JSON.parse made of it', async () => {
    const mock = fresh();
    for (const [sent, rule] of [
      ['-0', 'must be >= 1'],
      ['-0.0', 'must be >= 1'],
      ['0e5', 'must be >= 1'],
      ['-0E+0', 'must be >= 1'],
      ['0.50', 'must be integer'],
    ] as const) {
      const res = await checkedRequest(mock, '/v1/pets', post(`{"name":"Rex","categoryId":${sent}}`));
      expect(res.status, sent).toBe(400);
      const json = res.json as { message: string; details: { path: string; message: string }[] };
      expect(json.details[0], sent).toEqual({ path: '/categoryId', message: `${rule}; got ${sent}` });
      expect(json.message).toMatch(
        new RegExp(`^Invalid body: /categoryId ${rule}; got ${sent.replace(/[.+]/g, '\\$&')}[ .]`),
      );
    }
    // The same number as it prints is left as it is.
    const res = await checkedRequest(mock, '/v1/pets', post('{"name":"Rex","categoryId":0}'));
    expect((res.json as { message: string }).message).toBe('Invalid body: /categoryId must be >= 1; got 0.');
  });
  it('refuses a categoryId beyond 2^53-1 rather than store it rounded', async () => {
    const res = await checkedRequest(fresh(), '/v1/pets', {
      method: 'POST',
      headers: { Authorization: `Bearer ${FREE}`, 'Content-Type': 'application/json' },
      body: '{"name":"Rex","categoryId":9007199254740993}',
    });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: 'validation_failed', details: [{ path: '/categoryId' }] });
  });
  it('rejects unknown properties, an id among them', async () => {
    const res = await checkedRequest(
      fresh(),
      '/v1/pets',
      withKey(FREE, { json: { id: 7, name: 'Rex', categoryId: 1, x: 1 } }),
    );
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: 'validation_failed' });
    expect(details(res.json)?.sort()).toEqual(['/id', '/x']);
  });
  it('lists at most 20 faults in details, and says in the message how many more there were', async () => {
    // 2,100 unknown properties in under 16 KiB, and name and categoryId missing: 2,102 faults.
    const json = Object.fromEntries(Array.from({ length: 2_100 }, (_, i) => [i.toString(36), 0]));
    const res = await checkedRequest(fresh(), '/v1/pets', withKey(FREE, { json }));
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      code: 'validation_failed',
      message: 'Invalid body: /name is required (and 2101 more; details lists the first 20).',
    });
    const unknown = Object.keys(json)
      .slice(0, 18)
      .map((k) => `/${k}`);
    expect(details(res.json)).toEqual(['/name', '/categoryId', ...unknown]);
    expect(res.text.length).toBeLessThan(2_000);
  });
  it('lists missing fields with JSON Pointer paths', async () => {
    const res = await checkedRequest(fresh(), '/v1/pets', withKey(FREE, { json: {} }));
    expect(res.json).toMatchObject({ message: 'Invalid body: /name is required (and 1 more).' });
    expect(details(res.json)?.sort()).toEqual(['/categoryId', '/name']);
  });
  it.each(['{"name":', '', '   ', 'null x'])('answers 400 malformed_json for the body %j', async (body) => {
    const res = await checkedRequest(fresh(), '/v1/pets', post(body));
    expect(res.status).toBe(400);
    expect(code(res.json)).toBe('malformed_json');
  });
  it('answers 400 malformed_json, not a 500, when the body stream fails before its end', async () => {
    const failing = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"name":'));
        controller.error(new Error('client went away'));
      },
    });
    const res = await fresh().handle(
      new Request('http://localhost/v1/pets', {
        method: 'POST',
        headers: { authorization: `Bearer ${FREE}`, 'content-type': 'application/json' },
        body: failing,
        duplex: 'half',
      } as RequestInit),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: 'malformed_json',
      message: 'The body could not be read to its end: its stream failed.',
      status: 400,
    });
  });
  it('answers 400 malformed_json for a POST with no body at all', async () => {
    const res = await checkedRequest(fresh(), '/v1/pets', withKey(FREE, { method: 'POST' }));
    expect(code(res.json)).toBe('malformed_json');
  });
  it('answers 415 for a body that is not application/json, and accepts a charset parameter', async () => {
    const mock = fresh();
    const body = '{"name":"Rex","categoryId":1}';
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonx']) {
      const res = await checkedRequest(mock, '/v1/pets', post(body, { 'content-type': type }));
      expect(res.status).toBe(415);
      expect(code(res.json)).toBe('unsupported_media_type');
    }
    const ok = await checkedRequest(
      mock,
      '/v1/pets',
      post(body, { 'content-type': 'Application/JSON; charset=utf-8' }),
    );
    expect(ok.status).toBe(201);
  });
  it('answers 413 for a body over 16 KiB', async () => {
    const res = await checkedRequest(
      fresh(),
      '/v1/pets',
      post(`{"name":"${'x'.repeat(16 * 1024)}","categoryId":1}`),
    );
    expect(res.status).toBe(413);
    expect(code(res.json)).toBe('payload_too_large');
  });
  it('stops reading a streamed body once it passes 16 KiB', async () => {
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(4096).fill(32));
        if (pulled === 1000) controller.close();
      },
    });
    const init = withKey(FREE, {
      method: 'POST',
      body: stream,
      headers: { 'content-type': 'application/json' },
    });
    const res = await checkedRequest(fresh(), '/v1/pets', { ...init, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
    expect(pulled).toBeLessThan(10);
  });
  it('answers 507 store_full when the store is full, and keeps every pet', async () => {
    const mock = fresh({ pets: 2, maxPets: 3 });
    expect(
      (await checkedRequest(mock, '/v1/pets', withKey(FREE, { json: { name: 'A', categoryId: 1 } }))).status,
    ).toBe(201);
    const full = await checkedRequest(
      mock,
      '/v1/pets',
      withKey(FREE, { json: { name: 'B', categoryId: 1 } }),
    );
    expect(full.status).toBe(507);
    expect(code(full.json)).toBe('store_full');
    expect((await checkedRequest(mock, '/v1/pets', withKey(FREE))).json).toHaveLength(3);
  });
});

describe('auth', () => {
  it('answers 401 missing_api_key with WWW-Authenticate when no key is sent', async () => {
    const res = await checkedRequest(fresh(), '/v1/pets');
    expect(res.status).toBe(401);
    expect(code(res.json)).toBe('missing_api_key');
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="pets"');
  });
  it('answers 401 invalid_api_key with error="invalid_token" for a wrong key', async () => {
    const mock = fresh();
    for (const key of ['demo-fre', 'demo-freee', 'nope', 'x'.repeat(600)]) {
      const res = await checkedRequest(mock, '/v1/pets', withKey(key));
      expect(res.status).toBe(401);
      expect(code(res.json)).toBe('invalid_api_key');
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="pets", error="invalid_token"');
    }
  });
  it('answers 401 for another scheme, and takes the Bearer scheme in any case', async () => {
    const mock = fresh();
    const basic = await checkedRequest(mock, '/v1/pets', {
      headers: { authorization: 'Basic ZGVtby1mcmVlOg==' },
    });
    expect(basic.status).toBe(401);
    const token = await checkedRequest(mock, '/v1/pets', { headers: { authorization: 'Token demo-free' } });
    expect(token.status).toBe(401);
    const lower = await checkedRequest(mock, '/v1/pets', { headers: { authorization: 'bEaReR demo-free' } });
    expect(lower.status).toBe(200);
  });
  it('checks auth before validation and lookup, so a 401 leaks nothing', async () => {
    const mock = fresh();
    expect((await checkedRequest(mock, '/v1/pets?limit=0', withKey('wrong'))).status).toBe(401);
    expect((await checkedRequest(mock, '/v1/pets/4242', withKey('wrong'))).status).toBe(401);
    expect((await checkedRequest(mock, '/v1/pets/1', withKey('wrong'))).status).toBe(401);
    const post = withKey('wrong', {
      method: 'POST',
      body: 'not json',
      headers: { 'content-type': 'text/plain' },
    });
    expect((await checkedRequest(mock, '/v1/pets', post)).status).toBe(401);
  });
});

describe('routes', () => {
  it('answers 404 route_not_found with rate-limit headers, before auth', async () => {
    const mock = fresh();
    for (const path of ['/v1/nope', '/v1/pets/1/owner', '/v2/pets', '/', '/v1']) {
      const res = await checkedRequest(mock, path);
      expect(res.status).toBe(404);
      expect(code(res.json)).toBe('route_not_found');
      expect(res.headers.get('x-ratelimit-limit')).toBe('60');
    }
  });
  it('lists the routes when a path under /v1 matches none', async () => {
    const res = await checkedRequest(fresh(), '/v1/pets/', withKey(FREE));
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({
      code: 'route_not_found',
      message: 'No route GET /v1/pets/. The routes: GET /v1/pets, POST /v1/pets, GET /v1/pets/{petId}.',
    });
  });
  it('answers 405 method_not_allowed with Allow and rate-limit headers', async () => {
    const mock = fresh();
    const res = await checkedRequest(mock, '/v1/pets', withKey(FREE, { method: 'DELETE' }));
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    const put = await checkedRequest(mock, '/v1/pets/1', withKey(FREE, { method: 'PUT', body: '{}' }));
    expect(put.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(put.headers.get('x-ratelimit-remaining')).toBe('58');
  });
  it('repeats at most 60 characters of a path or method it has no route for', async () => {
    const mock = fresh();
    const method = 'X'.repeat(15_000);
    const rows: [path: string, init: RequestInit, message: string][] = [
      [
        `/v1/${'a'.repeat(15_000)}`,
        withKey(FREE),
        `No route GET /v1/${'a'.repeat(53)}.... The routes: GET /v1/pets, POST /v1/pets, GET /v1/pets/{petId}.`,
      ],
      [`/${'b'.repeat(15_000)}`, {}, `No route GET /${'b'.repeat(56)}...; the API is under /v1.`],
      ['/nope', { method }, `No route ${'X'.repeat(57)}... /nope; the API is under /v1.`],
      [
        '/v1/pets',
        withKey(FREE, { method }),
        `${'X'.repeat(57)}... is not allowed here; use GET, HEAD, POST, OPTIONS.`,
      ],
      [`/__petkit/${'c'.repeat(15_000)}`, {}, `No control route /__petkit/${'c'.repeat(47)}....`],
      ['/__petkit/health', { method }, `${'X'.repeat(57)}... is not allowed here; use GET, HEAD, OPTIONS.`],
    ];
    for (const [path, init, message] of rows) {
      const res = await checkedRequest(mock, path, init);
      expect(res.json).toMatchObject({ message });
      expect(res.text.length).toBeLessThan(300);
    }
  });
  it('answers HEAD like GET, without a body', async () => {
    const res = await checkedRequest(fresh(), '/v1/pets', withKey(FREE, { method: 'HEAD' }));
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('59');
  });
});

describe('CORS', () => {
  it('answers a preflight with the allowed methods and headers, uncounted', async () => {
    const mock = fresh();
    const res = await checkedRequest(mock, '/v1/pets', {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST, OPTIONS');
    expect(res.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type, Prefer');
    const next = await checkedRequest(mock, '/v1/pets', withKey(FREE));
    expect(next.headers.get('x-ratelimit-remaining')).toBe('59');
  });
  it('exposes the headers a browser app needs to read', async () => {
    const res = await checkedRequest(fresh(), '/v1/pets', withKey(FREE));
    const exposed = res.headers.get('access-control-expose-headers')?.split(', ') ?? [];
    for (const name of [
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'Retry-After',
      'Location',
      'Sunset',
      'Deprecation',
    ]) {
      expect(exposed).toContain(name);
    }
  });
});

describe('an unexpected failure', () => {
  /** The in-memory state, its store's reads throwing as an engine's bug would. */
  const failingState = (): MockState => {
    const state = memoryState(100_000);
    const fail = (): never => {
      throw new TypeError('a bug in the store');
    };
    return { ...state, store: { ...state.store, list: fail, get: fail } };
  };

  it('answers 500 internal_error with the rate-limit headers the limit step decided, and getPet its deprecation headers', async () => {
    const errors: string[] = [];
    const logger = { info: () => undefined, error: (line: string) => errors.push(line) };
    const mock = fresh({ state: failingState(), logger });
    const list = await checkedRequest(mock, '/v1/pets', withKey(FREE));
    expect(list.status).toBe(500);
    expect(code(list.json)).toBe('internal_error');
    expect(list.headers.get('x-ratelimit-limit')).toBe('60');
    expect(list.headers.get('x-ratelimit-remaining')).toBe('59');
    expect(list.headers.get('sunset')).toBeNull();
    const get = await checkedRequest(mock, '/v1/pets/1', withKey(FREE));
    expect(get.status).toBe(500);
    expect(get.headers.get('x-ratelimit-remaining')).toBe('58');
    expect(get.headers.get('x-ratelimit-reset')).toBe(String(Math.ceil(NOW / 60_000) * 60));
    expect(get.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    expect(get.headers.get('deprecation')).not.toBeNull();
    expect(get.headers.get('link')).toBe('</v1/pets>; rel="successor-version"');
    expect(mock.journal.map((e) => [e.operationId, e.status])).toEqual([
      ['listPets', 500],
      ['getPet', 500],
    ]);
    expect(errors).toEqual([
      'petkit mock: GET /v1/pets failed: TypeError: a bug in the store',
      'petkit mock: GET /v1/pets/1 failed: TypeError: a bug in the store',
    ]);
  });
});

describe('the Error registry', () => {
  it('holds exactly the codes openapi.yaml lists', () => {
    expect(Object.keys(ERRORS)).toEqual([
      'missing_api_key',
      'invalid_api_key',
      'validation_failed',
      'malformed_json',
      'unsupported_media_type',
      'payload_too_large',
      'not_found',
      'route_not_found',
      'method_not_allowed',
      'rate_limited',
      'api_key_banned',
      'store_full',
      'internal_error',
      'state_unavailable',
      'request_header_too_large',
      'request_timeout',
      'expectation_failed',
      'http_version_not_supported',
      'host_not_allowed',
      'origin_not_allowed',
      'rule_not_found',
      'too_many_rules',
      'clock_refused',
    ]);
    const document = readFileSync(new URL('../openapi.yaml', import.meta.url), 'utf8');
    for (const code of Object.keys(ERRORS)) expect(document, code).toContain(`\`${code}\``);
  });
});

// The mock over a real socket: the node:http adapter, driven by supertest and fetch.
import { request as httpRequest } from 'node:http';
import request from 'supertest';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { type RunningServer, startServer } from '../mocks/index.js';
import { conformanceProblems } from '../mocks/test-helpers.js';
import { closedWithin, keptAliveGet } from './support/kept-alive.js';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: Parameters<typeof startServer>[0] = {}) {
  server = await startServer({ port: 0, ...options });
  return server;
}

/** Headers of an authorised JSON body sent chunked, with no declared length. */
const CHUNKED_JSON = {
  authorization: 'Bearer demo-free',
  'content-type': 'application/json',
  'transfer-encoding': 'chunked',
};

/** A POST to /v1/pets over a raw socket, for what fetch and supertest hide (chunking, Expect, aborts). */
function postRaw(origin: string, headers: Record<string, string>) {
  const { hostname, port } = new URL(origin);
  return httpRequest({ host: hostname, port, method: 'POST', path: '/v1/pets', headers });
}

function conforming(method: string, path: string, res: request.Response) {
  const headers = new Headers(res.headers as Record<string, string>);
  expect(conformanceProblems(method, path, res.status, headers, res.text)).toEqual([]);
  return res;
}

describe('startServer', () => {
  it('binds 127.0.0.1 and answers the API under /v1', async () => {
    const { url, origin } = await start();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const res = conforming(
      'GET',
      '/v1/pets',
      await request(origin).get('/v1/pets').set('Authorization', 'Bearer demo-free'),
    );
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(20);
    expect(res.headers['x-ratelimit-remaining']).toBe('59');
  });
  it('creates a pet and answers 201 with Location', async () => {
    const { origin } = await start();
    const res = conforming(
      'POST',
      '/v1/pets',
      await request(origin)
        .post('/v1/pets')
        .set('Authorization', 'Bearer demo-free')
        .send({ name: 'Rex', categoryId: 2 }),
    );
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe('/v1/pets/51');
  });
  it('counts requests without a key per client address', async () => {
    const { origin } = await start();
    const res = conforming('GET', '/v1/pets', await request(origin).get('/v1/pets'));
    expect(res.status).toBe(401);
    expect(server?.mock.journal[0]?.status).toBe(401);
    expect(res.headers['x-ratelimit-limit']).toBe('60');
  });
  it('answers 413 to a large streamed body and stops reading it', async () => {
    const { origin } = await start();
    let sent = 0;
    const status = await new Promise<number>((resolve, reject) => {
      const req = postRaw(origin, CHUNKED_JSON);
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      const chunk = Buffer.alloc(16 * 1024, 32);
      const pump = () => {
        while (sent < 64 * 1024 * 1024 && req.write(chunk)) sent += chunk.length;
        if (sent < 64 * 1024 * 1024) req.once('drain', pump);
      };
      pump();
    });
    expect(status).toBe(413);
    expect(sent).toBeLessThan(64 * 1024 * 1024);
  });
  it('says Connection: close on a 413 it cut off, so keep-alive clients do not reuse the socket', async () => {
    const { origin } = await start();
    const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const req = postRaw(origin, CHUNKED_JSON);
      req.on('response', (res) => {
        res.resume();
        resolve({ ...res.headers, status: res.statusCode });
      });
      req.on('error', reject);
      req.write(Buffer.alloc(20 * 1024, 32));
    });
    expect(headers).toMatchObject({ status: 413, connection: 'close' });
  });
  it('sends 100 Continue only when it wants the body: not before a 401', async () => {
    const { origin } = await start();
    const exchange = (auth: string | undefined) =>
      new Promise<{ continued: boolean; status: number }>((resolve, reject) => {
        let continued = false;
        const req = postRaw(origin, {
          ...(auth === undefined ? {} : { authorization: auth }),
          'content-type': 'application/json',
          'content-length': '27',
          expect: '100-continue',
        });
        req.on('continue', () => {
          continued = true;
          req.end('{"name":"Rex","categoryId":2}'.slice(0, 27));
        });
        req.on('response', (res) => {
          res.resume();
          resolve({ continued, status: res.statusCode ?? 0 });
          req.destroy();
        });
        req.on('error', reject);
      });
    expect(await exchange(undefined)).toEqual({ continued: false, status: 401 });
    expect(await exchange('Bearer demo-free')).toMatchObject({ continued: true });
  });
  it('journals a body cut off by the client as its fault, not a 500, and logs no error', async () => {
    const errors: string[] = [];
    const { origin, mock } = await start({
      logger: { info: () => undefined, error: (line) => errors.push(line) },
    });
    await new Promise<void>((resolve) => {
      const req = postRaw(origin, {
        authorization: 'Bearer demo-free',
        'content-type': 'application/json',
        'content-length': '100',
      });
      req.on('error', () => resolve());
      req.write('{"name":');
      setTimeout(() => req.destroy(), 50);
    });
    while (mock.journal.length === 0) await new Promise((r) => setTimeout(r, 5));
    expect(mock.journal[0]).toMatchObject({ method: 'POST', status: 400 });
    expect(errors).toEqual([]);
  });
  it('serves the same bytes as the core for the same seed', async () => {
    const { url, mock } = await start({ seed: 7 });
    const init = { headers: { authorization: 'Bearer demo-free' } };
    const overSocket = await (await fetch(`${url}/pets?limit=100`, init)).text();
    expect(overSocket).toBe(await (await mock.request('/v1/pets?limit=100', init)).text());
  });
  it('closes a kept-alive connection once its in-flight answer is written, so close() does not wait for the keep-alive timeout', async () => {
    const { origin } = await start({ timeouts: { keepAliveMs: 60_000 } });
    const get = keptAliveGet(origin, '/v1/pets/1', {
      authorization: 'Bearer demo-free',
      prefer: 'delay=200',
    });
    onTestFinished(get.done);
    while (server?.mock.inFlight === 0) await new Promise((r) => setImmediate(r));
    const closing = server?.close();
    expect(await get.answered).toBe(200);
    // Without closing that connection, close() waited the 60 s of the keep-alive timeout.
    expect(await closedWithin(closing, 2_000)).toBe('closed');
    server = undefined;
  });
  it('ends a delay whose client has gone: nothing is left waiting it out', async () => {
    const { url } = await start();
    const leaving = new AbortController();
    const pending = fetch(`${url}/pets`, {
      headers: { authorization: 'Bearer demo-free', prefer: 'delay=10000' },
      signal: leaving.signal,
    }).catch((error: unknown) => error);
    while (server?.mock.inFlight === 0) await new Promise((r) => setImmediate(r));
    leaving.abort();
    expect(await pending).toMatchObject({ name: 'AbortError' });
    // The client's socket closed: the 10 s wait ends and nothing is left in flight (the process of
    // `petkit mock` waited the whole delay out on SIGTERM, its timer still set).
    await expect.poll(() => server?.mock.inFlight, { timeout: 2_000, interval: 10 }).toBe(0);
  });
  it('finishes in-flight requests on close', async () => {
    const { url } = await start();
    const pending = fetch(`${url}/pets`, {
      headers: { authorization: 'Bearer demo-free', prefer: 'delay=300' },
    });
    while (server?.mock.inFlight === 0) await new Promise((r) => setImmediate(r));
    const closing = server?.close();
    const res = await pending;
    expect(res.status).toBe(200);
    await closing;
    server = undefined;
  });
});

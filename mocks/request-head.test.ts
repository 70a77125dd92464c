// What the mock refuses of a request's head before the core, alike at its three doors: the server's
// parser answers 431 request_header_too_large, and the server 417 to an Expect it does not serve;
// so, in process, do mock.request, mock.handle and MSW, which handed the core a request target or
// header of any size (megabytes went into the journal) and served `Expect: foo` 200.
import { request } from 'node:http';
import { setupServer } from 'msw/node';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { createMock } from './mock.js';
import { createHandlers } from './msw.js';
import { type RunningServer, startServer } from './node-server.js';
import { MAX_HEADER_BYTES, MAX_HEADER_LINES } from './request-head.js';

const KEY = { authorization: 'Bearer demo-free' };
let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** What the three doors answer to one request: the server's over a socket, then in process, then MSW's. */
async function threeDoors(path: string, headers: [string, string][]) {
  server = await startServer({ port: 0, host: '127.0.0.1' });
  const viaServer = await overHttp(server.origin, path, headers);
  const mock = createMock();
  const inProcess = await mock.request(path, { headers });
  const msw = setupServer(...createHandlers({ mock, baseUrl: 'https://api.example.test/v1' }));
  msw.listen({ onUnhandledRequest: 'error' });
  onTestFinished(() => msw.close());
  const viaMsw = await fetch(`https://api.example.test${path}`, { headers });
  const answers = [];
  for (const res of [viaServer, inProcess, viaMsw])
    answers.push({ status: res.status, body: await res.json(), limit: res.headers.get('x-ratelimit-limit') });
  return { answers, mock };
}

/**
 * A GET over node:http: undici's fetch sends no Expect ("expect header not supported"), and an answer
 * read as a Response, as the other doors give it.
 */
function overHttp(origin: string, path: string, headers: [string, string][]): Promise<Response> {
  return new Promise((resolve, reject) => {
    const sent = request(`${origin}${path}`, { headers: Object.fromEntries(headers) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const answered = new Headers();
        for (const [name, value] of Object.entries(res.headers))
          if (typeof value === 'string') answered.set(name, value);
        resolve(new Response(Buffer.concat(chunks), { status: res.statusCode ?? 0, headers: answered }));
      });
    });
    sent.on('error', reject);
    sent.end();
  });
}

const TOO_LARGE = {
  code: 'request_header_too_large',
  message: `The request line and headers are larger than ${MAX_HEADER_BYTES} bytes.`,
  status: 431,
};

describe('the limits of a request head, at every door', () => {
  it('answers a request target over 16 KiB 431, in process as the server does, and journals nothing', async () => {
    const { answers, mock } = await threeDoors(
      `/v1/pets?q=${'a'.repeat(MAX_HEADER_BYTES)}`,
      Object.entries(KEY),
    );
    for (const answer of answers) expect(answer).toEqual({ status: 431, body: TOO_LARGE, limit: null });
    expect(mock.journal).toEqual([]);
  });

  it('answers a header over 16 KiB 431 too, and one of megabytes alike', async () => {
    const { answers } = await threeDoors('/v1/pets', [
      ...Object.entries(KEY),
      ['x-big', 'b'.repeat(MAX_HEADER_BYTES)],
    ]);
    for (const answer of answers) expect(answer).toEqual({ status: 431, body: TOO_LARGE, limit: null });
    const mock = createMock();
    const huge = await mock.request('/v1/pets', {
      headers: { ...KEY, 'x-huge': 'h'.repeat(8 * 1024 * 1024) },
    });
    expect(huge.status).toBe(431);
    const target = await mock.handle(`http://localhost/v1/pets?q=${'q'.repeat(8 * 1024 * 1024)}`);
    expect(await target.json()).toEqual(TOO_LARGE);
    expect(mock.journal).toEqual([]);
  });

  it('answers more than 1,000 header fields 431, as the server answers more than 1,000 lines', async () => {
    const many = Array.from({ length: MAX_HEADER_LINES + 1 }, (_, i) => [`x-h${i}`, '1'] as [string, string]);
    const { answers } = await threeDoors('/v1/pets', [...Object.entries(KEY), ...many]);
    for (const answer of answers)
      expect(answer).toEqual({
        status: 431,
        body: {
          code: 'request_header_too_large',
          message: `The request has more than ${MAX_HEADER_LINES} header lines.`,
          status: 431,
        },
        limit: null,
      });
  });

  it('serves a request just within the limits at every door alike', async () => {
    const { answers } = await threeDoors(`/v1/pets?limit=1&q=${'a'.repeat(15_000)}`, Object.entries(KEY));
    for (const answer of answers) expect(answer).toMatchObject({ status: 200, limit: '60' });
  });

  it('answers an Expect other than 100-continue 417, in process as the server does', async () => {
    const { answers, mock } = await threeDoors('/v1/pets?limit=1', [
      ...Object.entries(KEY),
      ['expect', 'foo'],
    ]);
    for (const answer of answers)
      expect(answer).toEqual({
        status: 417,
        body: {
          code: 'expectation_failed',
          message: 'Expect: "foo" is not supported; only "100-continue" is.',
          status: 417,
        },
        limit: null,
      });
    expect(mock.journal).toEqual([]);
    // 100-continue (nothing to wait for in process) and an empty Expect are served.
    for (const value of ['100-continue', ''])
      expect((await mock.request('/v1/pets?limit=1', { headers: { ...KEY, expect: value } })).status).toBe(
        200,
      );
  });

  it('answers every refusal in process with exactly the headers it has always had: CORS, its type, the Date of the mock’s clock', async () => {
    const clock = () => Date.UTC(2030, 0, 2, 3, 4, 5);
    const mock = createMock({ clock });
    await mock.clock.change({ advanceSeconds: 60 });
    const many = Object.fromEntries(Array.from({ length: MAX_HEADER_LINES + 1 }, (_, i) => [`x-h${i}`, '1']));
    const requests: Request[] = [
      new Request(`http://localhost/v1/pets?q=${'a'.repeat(MAX_HEADER_BYTES)}`, { headers: KEY }),
      new Request('http://localhost/v1/pets', { headers: { ...KEY, 'x-big': 'b'.repeat(MAX_HEADER_BYTES) } }),
      new Request('http://localhost/v1/pets', { headers: { ...KEY, ...many } }),
      new Request('http://localhost/v1/pets', { headers: { ...KEY, expect: 'foo' } }),
      new Request('http://localhost/v1/pets', { method: 'HEAD', headers: { ...KEY, expect: 'foo' } }),
      new Request('http://localhost/v1/pets', {
        method: 'POST',
        headers: { ...KEY, expect: 'foo' },
        body: '{}',
      }),
    ];
    for (const request of requests) {
      for (const response of [await mock.handle(request.clone()), await mock.request(request.clone())]) {
        expect([...response.headers]).toEqual([
          ['access-control-allow-origin', '*'],
          [
            'access-control-expose-headers',
            'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, Location, Sunset, Deprecation, Link, WWW-Authenticate, Preference-Applied',
          ],
          ['content-type', 'application/json'],
          ['date', 'Wed, 02 Jan 2030 03:05:05 GMT'],
        ]);
        const text = await response.text();
        if (request.method === 'HEAD') expect(text).toBe('');
        else expect(JSON.parse(text)).toMatchObject({ status: response.status });
      }
    }
    expect(mock.journal).toEqual([]);
  });
});

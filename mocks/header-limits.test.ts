// The limits of a request's head, held alike by the three doors: the server's parser answers 431
// request_header_too_large before the core, and so, in process, do mock.request, mock.handle and MSW,
// which handed the core a request target or header of any size (megabytes went into the journal).
import { setupServer } from 'msw/node';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { MAX_HEADER_BYTES, MAX_HEADER_LINES } from './header-limits.js';
import { createMock } from './mock.js';
import { createHandlers } from './msw.js';
import { type RunningServer, startServer } from './node-server.js';

const KEY = { authorization: 'Bearer demo-free' };
let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** What the three doors answer to one request: the server's over a socket, then in process, then MSW's. */
async function threeDoors(path: string, headers: [string, string][]) {
  server = await startServer({ port: 0, host: '127.0.0.1' });
  const viaServer = await fetch(`${server.origin}${path}`, { headers });
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
});

// petkit/msw's handlers and overrides, for a request outside their base path that their pattern's `*`
// still spans: MSW must see it as unhandled (its onUnhandledRequest), not as handled and let through
// to the network, which `onUnhandledRequest: 'error'` is there to forbid. A server on 127.0.0.1 stands
// in for the network, so that a request let through is seen, not sent to a name that may resolve.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { createHandlers, override } from 'petkit/msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let network: Server;
let origin: string;
const reached: string[] = [];

beforeAll(async () => {
  network = createServer((req, res) => {
    reached.push(req.url ?? '');
    res.end('the network');
  });
  await new Promise<void>((resolve) => network.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(network.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => network.close(() => resolve())));

/** The URLs MSW called unhandled, and what the app's fetch got, for one request through `handlers`. */
async function through(handlers: Parameters<typeof setupServer>, url: string) {
  const unhandled: string[] = [];
  reached.length = 0;
  const msw = setupServer(...handlers);
  // A callback that only records: MSW then lets the request through, to the server above.
  msw.listen({ onUnhandledRequest: (request) => void unhandled.push(request.url) });
  try {
    const res = await fetch(url, { headers: { Authorization: 'Bearer demo-free' } });
    return { unhandled, status: res.status, reached: [...reached] };
  } finally {
    msw.close();
  }
}

describe('petkit/msw outside its base path', () => {
  it("tells MSW that */v1's handlers do not handle /api/v1/pets, rather than letting it through unsaid", async () => {
    const url = `${origin}/api/v1/pets`;
    expect(await through(createHandlers({ baseUrl: '*/v1' }), url)).toEqual({
      unhandled: [url],
      status: 200,
      reached: ['/api/v1/pets'],
    });
    const control = `${origin}/api/__petkit/health`;
    expect((await through(createHandlers({ baseUrl: '*/v1' }), control)).unhandled).toEqual([control]);
  });

  it("answers on any port of 127.0.0.1 and leaves the app's own requests to its handlers", async () => {
    const own = http.get(`${origin}/own`, () => HttpResponse.json({ own: true }));
    const list = [own, ...createHandlers({ baseUrl: 'http://127.0.0.1:*/v1' })];
    // MSW read `127.0.0.1:*` as a parameter with no name, and answered every request 500, the stack its body.
    expect(await through(list, `${origin}/own`)).toEqual({ unhandled: [], status: 200, reached: [] });
    expect(await through(list, `${origin}/v1/pets?limit=1`)).toEqual({
      unhandled: [],
      status: 200,
      reached: [],
    });
    const elsewhere = `${origin}/x/v1/pets`;
    expect(await through(list, elsewhere)).toEqual({
      unhandled: [elsewhere],
      status: 200,
      reached: ['/x/v1/pets'],
    });
    const override127 = override('listPets', { status: 200, body: [] }, { baseUrl: 'http://127.0.0.1:*/v1' });
    expect(await through([override127], `${origin}/v1/pets`)).toEqual({
      unhandled: [],
      status: 200,
      reached: [],
    });
  });

  it('does so for an override, alone or in front of the handlers', async () => {
    const url = `${origin}/api/v1/pets`;
    const alone = override('listPets', { status: 200, body: [] }, { baseUrl: '*/v1' });
    expect((await through([alone], url)).unhandled).toEqual([url]);
    const inFront = override('listPets', { status: 200, body: [] }, { baseUrl: '*/v1' });
    expect((await through([inFront, ...createHandlers({ baseUrl: '*/v1' })], url)).unhandled).toEqual([url]);
  });

  it('still answers under its base path on any origin', async () => {
    const answered = await through(createHandlers({ baseUrl: '*/v1' }), `${origin}/v1/pets?limit=1`);
    expect(answered).toEqual({ unhandled: [], status: 200, reached: [] });
    const overridden = override('listPets', { status: 200, body: [] }, { baseUrl: '*/v1' });
    expect(await through([overridden], `${origin}/v1/pets`)).toEqual({
      unhandled: [],
      status: 200,
      reached: [],
    });
  });
});

// The bare base path (`/v1`, `/__petkit`, without the last `/`) through petkit/msw, as `petkit mock`
// and mock.request answer it: a 404 that says where the routes and the page are. MSW's `…/v1/*`
// left it unhandled, and a browser app's fetch of it went to the network.
import { setupServer } from 'msw/node';
import { createMock, startServer } from 'petkit';
import { createHandlers } from 'petkit/msw';
import { describe, expect, it, onTestFinished } from 'vitest';

const KEY = { authorization: 'Bearer demo-free' };

function serve(...handlers: Parameters<typeof setupServer>) {
  const server = setupServer(...handlers);
  server.listen({ onUnhandledRequest: 'error' });
  onTestFinished(() => server.close());
  return server;
}

describe('the bare base path through petkit/msw', () => {
  it.each(['/v1', '/__petkit'])('answers %s as petkit mock and mock.request do', async (path) => {
    const server = await startServer({ port: 0, host: '127.0.0.1', seed: 42 });
    onTestFinished(() => server.close());
    // Before MSW listens: it would take this fetch too.
    const viaServer = await fetch(`${server.origin}${path}`, { headers: KEY });
    const inProcess = await createMock({ seed: 42 }).request(path, { headers: KEY });
    serve(...createHandlers({ baseUrl: 'https://api.example.test/v1' }));
    const viaMsw = await fetch(`https://api.example.test${path}`, { headers: KEY });
    const bodies = await Promise.all([viaMsw, viaServer, inProcess].map((res) => res.json()));
    expect([viaMsw.status, viaServer.status, inProcess.status]).toEqual([404, 404, 404]);
    expect(bodies[0]).toEqual(bodies[1]);
    expect(bodies[0]).toEqual(bodies[2]);
    expect(bodies[0]).toMatchObject({ code: 'route_not_found' });
  });

  it('names the paths the app calls under another base path', async () => {
    serve(...createHandlers({ baseUrl: 'https://api.example.test/api/v1' }));
    const api = await fetch('https://api.example.test/api/v1', { headers: KEY });
    expect(await api.json()).toEqual({
      code: 'route_not_found',
      message:
        'No route GET /api/v1. The routes: GET /api/v1/pets, POST /api/v1/pets, GET /api/v1/pets/{petId}.',
      status: 404,
    });
    const page = await fetch('https://api.example.test/api/__petkit');
    expect(await page.json()).toEqual({
      code: 'route_not_found',
      message:
        "No route GET /api/__petkit; the API is under /api/v1, and the mock's page at /api/__petkit/ (with the last /).",
      status: 404,
    });
  });

  it('answers the page’s bare path for an API at its origin’s root', async () => {
    serve(...createHandlers({ baseUrl: 'https://root.example.test' }));
    const page = await fetch('https://root.example.test/__petkit');
    expect(await page.json()).toEqual({
      code: 'route_not_found',
      message:
        "No route GET /__petkit; the API is under /, and the mock's page at /__petkit/ (with the last /).",
      status: 404,
    });
  });

  it('leaves a path that only begins as the base path does to the handlers after it', async () => {
    const server = setupServer(...createHandlers({ baseUrl: 'https://api.example.test/v1' }));
    const unhandled: string[] = [];
    server.listen({ onUnhandledRequest: (request) => void unhandled.push(request.url) });
    onTestFinished(() => server.close());
    await fetch('https://api.example.test/v10').catch(() => undefined);
    await fetch('https://api.example.test/__petkitx').catch(() => undefined);
    expect(unhandled).toEqual(['https://api.example.test/v10', 'https://api.example.test/__petkitx']);
  });
});

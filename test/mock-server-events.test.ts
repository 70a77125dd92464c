// The live journal (`GET /__petkit/events`) and the page (`GET /__petkit/`) over a real socket:
// an event per answered request, the replay after Last-Event-ID, the server's close() ending an open
// stream at once, and the control API's guard in front of both.
import { type IncomingMessage, request } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createMock, type Mock, type RunningServer, startServer } from '../mocks/index.js';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(): Promise<RunningServer> {
  server = await startServer({ port: 0, host: '127.0.0.1', seed: 42 });
  return server;
}

function get(origin: string, path: string, headers: Record<string, string> = {}): Promise<IncomingMessage> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, headers }, resolve);
    req.on('error', reject);
    req.end();
  });
}

/** Reads `request` events off an open event stream, as an EventSource would. */
function eventsOf(res: IncomingMessage) {
  const seen: { id: string; entry: { id: number; path: string; status: number } }[] = [];
  let text = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    text += chunk;
    let end = text.indexOf('\n\n');
    while (end >= 0) {
      const fields = new Map(
        text
          .slice(0, end)
          .split('\n')
          .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trimStart()]),
      );
      if (fields.get('event') === 'request')
        seen.push({ id: fields.get('id') ?? '', entry: JSON.parse(fields.get('data') ?? '') });
      text = text.slice(end + 2);
      end = text.indexOf('\n\n');
    }
  });
  return seen;
}

const auth = { authorization: 'Bearer demo-free' };

describe('GET /__petkit/events over a socket', () => {
  it('sends one request event per answered request, its id the journal id', async () => {
    const { origin, url } = await start();
    const res = await get(origin, '/__petkit/events');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    const seen = eventsOf(res);
    await fetch(`${url}/pets?limit=1`, { headers: auth });
    await fetch(`${url}/pets/999`, { headers: auth });
    await expect.poll(() => seen.length).toBe(2);
    expect(seen.map(({ id, entry }) => [id, entry.id, entry.path, entry.status])).toEqual([
      ['1', 1, '/v1/pets?limit=1', 200],
      ['2', 2, '/v1/pets/999', 404],
    ]);
    res.destroy();
  });

  it('replays the entries after Last-Event-ID on a reconnect', async () => {
    const { origin, url } = await start();
    for (const id of [1, 2, 3]) await fetch(`${url}/pets/${id}`, { headers: auth });
    const res = await get(origin, '/__petkit/events', { 'last-event-id': '1' });
    const seen = eventsOf(res);
    await expect.poll(() => seen.length).toBe(2);
    expect(seen.map(({ entry }) => entry.path)).toEqual(['/v1/pets/2', '/v1/pets/3']);
    res.destroy();
  });

  it('is ended by the server’s close(), which resolves at once', async () => {
    const { origin } = await start();
    const res = await get(origin, '/__petkit/events');
    res.resume();
    const ended = new Promise<void>((resolve) => res.once('close', () => resolve()));
    const started = performance.now();
    await server?.close();
    server = undefined;
    await ended;
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('is guarded as the rest of the control API: 403 for a foreign Host, on the events and the page', async () => {
    const { origin } = await start();
    const { port } = new URL(origin);
    for (const path of ['/__petkit/events', '/__petkit/']) {
      const res = await get(origin, path, { host: `evil.example:${port}` });
      expect(res.statusCode, path).toBe(403);
      res.resume();
    }
    const page = await get(origin, '/__petkit/');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toMatch(/default-src 'none'/);
    page.resume();
  });

  it('writes a streamed answer no faster than the client reads (backpressure)', async () => {
    // A stream without end, behind a mock of its own: what matters is how much of it is read.
    const mock = createMock({ seed: 42 });
    let pulled = 0;
    const chunk = new Uint8Array(64 * 1024);
    const streaming: Mock = {
      ...mock,
      answer: async () => ({
        status: 200,
        body: null,
        headers: { 'content-type': 'application/octet-stream' },
        stream: new ReadableStream<Uint8Array>({
          pull(controller) {
            pulled += 1;
            controller.enqueue(chunk);
          },
        }),
      }),
    };
    server = await startServer({ port: 0, host: '127.0.0.1', mock: streaming });
    const socket = connect(Number(new URL(server.origin).port), '127.0.0.1');
    socket.pause(); // a client that reads nothing
    socket.write('GET /anything HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await expect.poll(() => pulled).toBeGreaterThan(4);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The socket's buffers and one high-water mark of chunks, not the stream without end.
    expect(pulled * chunk.byteLength).toBeLessThan(64 * 1024 * 1024);
    const settled = pulled;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(pulled).toBe(settled);
    socket.destroy();
  });
});

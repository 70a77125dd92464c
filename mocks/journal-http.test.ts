// The journal over HTTP, under a client that presses on its table of repeated texts: thirty headers
// whose values repeat for two to five requests then change, credentials of every shape, a journal
// of 40 records cleared now and then. Every entry read back through GET /__petkit/requests must be
// what its request sent, credentials redacted and never present.
import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from './node-server.js';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The credential schemes sent, and how the journal shows each: a scheme past 21 characters, or none, is not kept. */
const SCHEMES: readonly (readonly [string, string])[] = [
  ['Bearer', 'Bearer [redacted]'],
  ['Basic', 'Basic [redacted]'],
  ['Token', 'Token [redacted]'],
  ['x'.repeat(30), '[redacted]'],
  ['', '[redacted]'],
];

/** What request `i` sends: its own path, and headers whose values repeat for a few requests. */
function requestOf(i: number): {
  path: string;
  headers: Record<string, string>;
  shown: Record<string, string>;
} {
  const headers: Record<string, string> = {};
  for (let h = 0; h < 30; h += 1) {
    const value = h % 3 === 0 ? 'same' : `v${Math.floor(i / (2 + (h % 4)))}`;
    headers[`x-h${h}`] = `${value}-${h}-${'p'.repeat(h * 7)}`;
  }
  const [scheme, authorization] = SCHEMES[i % SCHEMES.length] ?? ['', ''];
  headers.authorization = `${scheme} secret-${i}`.trim();
  headers.cookie = `sid=${i % 3}`;
  const shown = { ...headers, authorization, cookie: '[redacted]' };
  return { path: `/v1/pets/${(i % 40) + 1}?n=${i}`, headers, shown };
}

describe('the journal, pressed over HTTP', () => {
  it('shows every request kept as it was sent while the texts it repeats come and go, clears between', async () => {
    server = await startServer({ port: 0, host: '127.0.0.1', journalLimit: 40 });
    const { origin } = server;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    const send = (method: string, path: string, headers: Record<string, string> = {}) =>
      new Promise<string>((resolve, reject) => {
        const request = http.request(`${origin}${path}`, { method, headers, agent }, (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            body += chunk;
          });
          response.on('end', () => resolve(body));
        });
        request.on('error', reject);
        request.end();
      });
    const sent = new Map<string, Record<string, string>>();
    let checked = 0;
    try {
      for (let round = 0; round < 30; round += 1) {
        const batch: Promise<string>[] = [];
        for (let k = 0; k < 40; k += 1) {
          const { path, headers, shown } = requestOf(round * 40 + k);
          sent.set(path, shown);
          batch.push(send('GET', path, headers));
        }
        await Promise.all(batch);
        const page = JSON.parse(await send('GET', '/__petkit/requests?limit=100')) as {
          entries: { path: string; request: { headers: Record<string, string> } }[];
        };
        expect(page.entries).toHaveLength(40);
        for (const entry of page.entries) {
          const shown = sent.get(entry.path);
          expect(shown, entry.path).toBeDefined();
          expect(entry.request.headers, entry.path).toMatchObject(shown ?? {});
          expect(JSON.stringify(entry)).not.toContain('secret-');
          checked += 1;
        }
        if (round % 7 === 3) await send('DELETE', '/__petkit/requests');
      }
    } finally {
      agent.destroy();
    }
    expect(checked).toBe(30 * 40);
  });

  it('shows each answer with the headers the mock made, not those only the wire carries, however many came in together', async () => {
    // Answers that come in together are journaled in one batch after they are written; the node:http
    // adapter adds Content-Length (and Connection) on the wire only. Every entry's reply headers are
    // then what its client received but those.
    server = await startServer({ port: 0, host: '127.0.0.1', journalLimit: 200 });
    const { origin } = server;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
    const wireOnly = new Set(['content-length', 'connection', 'keep-alive', 'transfer-encoding']);
    const send = (n: number) =>
      new Promise<{ path: string; headers: Record<string, string> }>((resolve, reject) => {
        const post = n % 3 === 0;
        const path = post ? `/v1/pets?n=${n}` : n % 3 === 1 ? `/v1/pets/1?n=${n}` : `/v1/pets?limit=2&n=${n}`;
        const headers: Record<string, string> = {
          authorization: n % 5 === 0 ? 'Bearer nope' : 'Bearer demo-free',
        };
        if (post) headers['content-type'] = 'application/json';
        const request = http.request(
          `${origin}${path}`,
          { method: post ? 'POST' : 'GET', headers, agent },
          (response) => {
            response.resume();
            response.on('end', () => {
              const shown: Record<string, string> = {};
              for (const [name, value] of Object.entries(response.headers))
                if (!wireOnly.has(name) && typeof value === 'string') shown[name] = value;
              resolve({ path, headers: shown });
            });
          },
        );
        request.on('error', reject);
        request.end(post ? (n % 2 === 0 ? '{"name":"Rex","categoryId":1}' : '{"name":""}') : undefined);
      });
    try {
      const received = await Promise.all(Array.from({ length: 120 }, (_, n) => send(n)));
      const page = await new Promise<string>((resolve, reject) => {
        http
          .get(`${origin}/__petkit/requests?limit=200`, { agent }, (response) => {
            let body = '';
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => {
              body += chunk;
            });
            response.on('end', () => resolve(body));
          })
          .on('error', reject);
      });
      const entries = (
        JSON.parse(page) as { entries: { path: string; response: { headers: Record<string, string> } }[] }
      ).entries;
      expect(entries).toHaveLength(120);
      const byPath = new Map(entries.map((entry) => [entry.path, entry.response.headers]));
      for (const { path, headers } of received) {
        expect(byPath.get(path), path).toEqual(headers);
      }
      expect([...byPath.values()].some((headers) => 'www-authenticate' in headers)).toBe(true);
      expect([...byPath.values()].some((headers) => 'location' in headers)).toBe(true);
    } finally {
      agent.destroy();
    }
  });

  it('shows a field sent on two lines with both values, and a header of any name (__proto__ too)', async () => {
    server = await startServer({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(server.origin);
    // Raw: node's http client and fetch join or refuse such lines before they are sent.
    const head = [
      'GET /v1/pets?limit=1 HTTP/1.1',
      `Host: 127.0.0.1:${port}`,
      'Authorization: Bearer demo-free',
      'X-Trace: first',
      'X-Trace: second',
      '__proto__: polluted?',
      'Connection: close',
      '',
      '',
    ].join('\r\n');
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => socket.end(head));
      socket.on('data', () => undefined);
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    const page = (await (await fetch(`${server.origin}/__petkit/requests`)).json()) as {
      entries: { request: { headers: Record<string, string> } }[];
    };
    const headers = page.entries[0]?.request.headers ?? {};
    expect(headers['x-trace']).toBe('first, second');
    expect(Object.hasOwn(headers, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(headers, '__proto__')?.value).toBe('polluted?');
    expect(headers.authorization).toBe('Bearer [redacted]');
  });
});

// The journal over HTTP, under a client that presses on its table of repeated texts: thirty headers
// whose values repeat for two to five requests then change, credentials of every shape, a journal
// of 40 records cleared now and then. Every entry read back through GET /__petkit/requests must be
// what its request sent, credentials redacted and never present.
import http from 'node:http';
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
});

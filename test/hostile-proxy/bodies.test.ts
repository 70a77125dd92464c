// The proxy against bodies built to exhaust it: a gzip answer of about 1 MB that decodes to about
// 1 GB (a compression bomb), and the same as a request body. It decodes only what it checks, only up
// to MAX_CAPTURE_BYTES decoded, off the main thread: its memory stays bounded, an unrelated request
// is answered at once, the bytes reach the other side unchanged, and the exchange says it was not
// checked. The engine runs in this process, so its peak memory is this process's.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type ExchangeLine, MAX_CAPTURE_BYTES, type RunningProxy, startProxy } from '../../proxy/index.js';
import { listening } from './servers.js';

/** Gzip members of 1 MiB of zeros each, concatenated (one gzip stream): ~1 MB that decodes to ~1 GB. */
function gzipBomb(): Buffer {
  const member = gzipSync(Buffer.alloc(1024 * 1024), { level: 9 });
  return Buffer.concat(Array.from({ length: 990 }, () => member));
}
const BOMB = gzipBomb();
const DECODED = 990 * 1024 * 1024;
const MB = 1024 * 1024;
const figures: string[] = [];

afterAll(() => {
  console.info(`hostile proxy bodies:\n${figures.join('\n')}`);
});

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** An upstream: the bomb at GET /v1/pets, a small pet at GET /v1/pets/1, and POST bodies read whole. */
async function bombUpstream() {
  const posted: Buffer[] = [];
  const server = createServer((req, res) => {
    if (req.method === 'POST') {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        posted.push(Buffer.concat(chunks));
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end('{"code":"validation_failed","message":"no","status":400}');
      });
      return;
    }
    if (req.url === '/v1/pets') {
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': BOMB.length,
      });
      res.end(BOMB);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"id":1,"name":"Rex","categoryId":1}');
  });
  return { url: await listening(server, closers), posted };
}

async function proxyTo(upstream: string) {
  const lines: ExchangeLine[] = [];
  const running = await startProxy({ upstream, onExchange: (line) => lines.push(line) });
  closers.push(() => running.close());
  return { running, lines };
}

/** One request through node:http (which, unlike fetch, never decodes a body): status and raw bytes. */
function send(
  running: RunningProxy,
  method: string,
  path: string,
  headers: Record<string, string | number> = {},
  body?: Buffer,
): Promise<{ status: number; bytes: Buffer; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(`${running.url}${path}`, { method, headers });
    req.on('error', reject);
    req.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          bytes: Buffer.concat(chunks),
          ms: performance.now() - started,
        }),
      );
    });
    req.end(body);
  });
}

/**
 * Watches this process's resident memory from now: `growth()` is its peak since, over what it was at
 * the start. The peak is the process's high-water mark when that rose meanwhile (exact, even through
 * a blocked event loop), else the highest of samples taken every 5 ms (the mark may date from an
 * earlier test file run by the same worker).
 */
function watchRss() {
  const start = process.memoryUsage().rss;
  const markBefore = process.resourceUsage().maxRSS * 1024;
  let sampled = start;
  const sampler = setInterval(() => {
    sampled = Math.max(sampled, process.memoryUsage().rss);
  }, 5);
  return {
    growth(): number {
      clearInterval(sampler);
      const mark = process.resourceUsage().maxRSS * 1024;
      const peak = mark > markBefore ? mark : Math.max(sampled, process.memoryUsage().rss);
      return peak - start;
    },
  };
}

/** Sends unrelated requests one after another until `until` settles: the slowest one's ms. */
async function slowestWhile(running: RunningProxy, until: Promise<unknown>): Promise<number> {
  let settled = false;
  void until.finally(() => {
    settled = true;
  });
  let slowest = 0;
  while (!settled) {
    const { status, ms } = await send(running, 'GET', '/pets/1');
    expect(status).toBe(200);
    slowest = Math.max(slowest, ms);
  }
  return slowest;
}

describe('petkit proxy against a compression bomb', () => {
  it('forwards a 1 MB gzip answer that decodes to 1 GB unchanged, unchecked, in bounded memory, blocking nobody', async () => {
    const upstream = await bombUpstream();
    const { running, lines } = await proxyTo(upstream.url);
    const memory = watchRss();
    const bomb = send(running, 'GET', '/pets', { 'accept-encoding': 'gzip' });
    const reported = (async () => {
      await bomb;
      while (!lines.some((line) => line.target === '/v1/pets'))
        await new Promise((resolve) => setTimeout(resolve, 5));
    })();
    const slowest = await slowestWhile(running, reported);
    const answer = await bomb;
    const growth = memory.growth();
    expect(growth).toBeLessThan(300 * MB);
    expect(slowest).toBeLessThan(2_000);
    expect(answer.status).toBe(200);
    expect(sha(answer.bytes)).toBe(sha(BOMB));
    expect(lines.find((line) => line.target === '/v1/pets')).toMatchObject({
      status: 200,
      departures: 0,
      unchecked: [{ side: 'response', reason: `larger than ${MAX_CAPTURE_BYTES} bytes` }],
    });
    expect(running.proxy.journal.unchecked).toEqual([
      expect.objectContaining({
        side: 'response',
        target: '/v1/pets',
        reason: `larger than ${MAX_CAPTURE_BYTES} bytes`,
      }),
    ]);
    figures.push(
      `  response bomb: ${BOMB.length} bytes (${DECODED} decoded), peak RSS growth ${(growth / MB).toFixed(0)} MB, ` +
        `slowest unrelated request ${slowest.toFixed(0)} ms`,
    );
  });

  it('forwards a gzip request body that decodes to 1 GB unchanged and unchecked, in bounded memory', async () => {
    const upstream = await bombUpstream();
    const { running, lines } = await proxyTo(upstream.url);
    const memory = watchRss();
    const answer = await send(
      running,
      'POST',
      '/pets',
      { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': BOMB.length },
      BOMB,
    );
    while (lines.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const growth = memory.growth();
    expect(answer.status).toBe(400);
    expect(upstream.posted.map(sha)).toEqual([sha(BOMB)]);
    expect(lines[0]?.unchecked).toEqual([
      { side: 'request', reason: `larger than ${MAX_CAPTURE_BYTES} bytes` },
    ]);
    // The body is not judged: no request_conformance departure for what was not read.
    expect(running.proxy.journal.departures.filter((d) => d.side === 'request')).toEqual([]);
    expect(growth).toBeLessThan(300 * MB);
    figures.push(`  request bomb: peak RSS growth ${(growth / MB).toFixed(0)} MB`);
  });

  it('still decodes and checks a gzip answer within the bound', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync(JSON.stringify({ pets: [] })));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    const { running, lines } = await proxyTo(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`);
    await send(running, 'GET', '/pets', { authorization: 'Bearer k' });
    while (lines.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(lines[0]?.unchecked).toEqual([]);
    expect(running.proxy.journal.departures.map((d) => d.check)).toContain('response_schema_conformance');
  });
});

describe('petkit proxy against a large answer that is not JSON', () => {
  it('says where a 1 MiB body that is not JSON breaks, with the key hidden, blocking nobody', async () => {
    const key = 'sk_live_Q7wErTy9UiOp2Zx';
    // An HTML error page just under the bound that names the key it was sent at its end.
    const page = `<html>${'<p>Unauthorized, try again later.</p>'.repeat(27_000)}${key}</html>`;
    expect(Buffer.byteLength(page)).toBeLessThan(MAX_CAPTURE_BYTES);
    const server = createServer((req, res) => {
      if (req.url === '/v1/pets/2') {
        res.writeHead(401, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(page) });
        res.end(page);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"id":1,"name":"Rex","categoryId":1}');
    });
    const upstream = await listening(server, closers);
    const lines: ExchangeLine[] = [];
    const running = await startProxy({
      upstream,
      apiKey: key,
      onExchange: (line) => lines.push(line),
    });
    closers.push(() => running.close());
    // The page's checks begin once its answer has gone to the app: unrelated requests follow it.
    const reported = (async () => {
      const answer = await send(running, 'GET', '/pets/2', { authorization: `Bearer ${key}x` });
      expect(answer.status).toBe(401);
      while (!lines.some((line) => line.target === '/v1/pets/2'))
        await new Promise((resolve) => setTimeout(resolve, 5));
    })();
    const slowest = await slowestWhile(running, reported);
    await reported;
    // It took 6 s (every request meanwhile held) before the key was sought in the page in one pass.
    expect(slowest).toBeLessThan(2_000);
    const said = JSON.stringify(running.proxy.journal);
    expect(said).toContain('the body is not JSON (Content-Type: application/json): it breaks at byte 0');
    expect(said.toLowerCase()).not.toContain(key.toLowerCase());
    figures.push(`  1 MiB answer not JSON: slowest unrelated request ${slowest.toFixed(0)} ms`);
  });
});

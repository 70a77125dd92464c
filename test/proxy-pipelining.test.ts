// petkit proxy before a client that pipelines: Node hands over every request of a write at once, and
// each became an upstream request at once, so one connection of the app's became thousands of the
// upstream's. Now they go upstream one at a time, in order, and a connection too far ahead is cut.
import { createServer, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { startProxy } from '../proxy/index.js';
import { listening } from './hostile-proxy/servers.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** An upstream that holds each answer until the test releases it, counting what it is sent. */
async function heldUpstream() {
  const held: ServerResponse[] = [];
  let concurrent = 0;
  let peak = 0;
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url ?? '');
    concurrent += 1;
    peak = Math.max(peak, concurrent);
    res.on('close', () => {
      concurrent -= 1;
    });
    held.push(res);
  });
  const url = await listening(server, closers);
  const release = () => {
    for (const res of held.splice(0)) {
      res.setHeader('content-type', 'application/json');
      res.end('[]');
    }
  };
  return {
    url,
    release,
    paths,
    peak: () => peak,
    held: () => held.length,
  };
}

async function proxyTo(upstream: string) {
  const said: string[] = [];
  const running = await startProxy({ upstream, onUpstreamError: (message) => said.push(message) });
  closers.push(() => running.close());
  return { port: Number(new URL(running.origin).port), url: running.url, said };
}

const until = async (done: () => boolean) => {
  while (!done()) await new Promise((resolve) => setImmediate(resolve));
};

it('forwards the requests a client pipelines one at a time, in order, and answers each in turn', async () => {
  const upstream = await heldUpstream();
  const proxy = await proxyTo(upstream.url);
  const socket = connect(proxy.port, '127.0.0.1');
  closers.push(async () => {
    socket.destroy();
  });
  let answers = '';
  socket.on('data', (data: Buffer) => {
    answers += data.toString('latin1');
  });
  socket.write([1, 2, 3, 4, 5].map((n) => `GET /v1/pets?limit=${n} HTTP/1.1\r\nHost: x\r\n\r\n`).join(''));
  for (let n = 1; n <= 5; n += 1) {
    await until(() => upstream.held() === 1);
    upstream.release();
    await until(() => (answers.match(/HTTP\/1\.1 200/g) ?? []).length === n);
  }
  expect(upstream.paths).toEqual([1, 2, 3, 4, 5].map((n) => `/v1/pets?limit=${n}`));
  expect(upstream.peak()).toBe(1);
});

it('cuts a connection that pipelines more than 32 requests ahead of their answers, having sent at most its first upstream', async () => {
  const upstream = await heldUpstream();
  const proxy = await proxyTo(upstream.url);
  const socket = connect(proxy.port, '127.0.0.1');
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.write('GET /v1/pets HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(3000));
  await closed;
  // The first went upstream (or was dropped with the connection, before it got there); no other.
  expect(upstream.paths.length).toBeLessThanOrEqual(1);
  expect(proxy.said).toEqual([
    'a client sent more than 32 requests ahead of their answers on one connection (pipelined): its connection is cut',
  ]);
  // The proxy forwards on for every other client.
  const other = fetch(`${proxy.url}/pets?other=1`);
  await until(() => upstream.paths.includes('/v1/pets?other=1'));
  upstream.release();
  expect((await other).status).toBe(200);
});

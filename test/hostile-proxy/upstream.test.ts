// The proxy against upstreams that misbehave on the wire: one that announces a Content-Length and
// closes early, one that never answers, one that stops in the middle of its answer. The client must
// learn of it promptly (an answer cut short, or a 504 with a JSON Error), never wait for ever, and the
// proxy must go on serving. The timeout is injected short; nothing here sleeps longer than it.
import {
  createServer,
  type IncomingMessage,
  maxHeaderSize,
  request,
  type Server,
  type ServerResponse,
} from 'node:http';
import { type AddressInfo, createServer as createTcpServer, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningProxy, startProxy } from '../../proxy/index.js';
import { startCliProxy } from './cli-proxy.js';
import { listening as listeningOn, rawUpstream as rawSocketUpstream, recording } from './servers.js';

const TIMEOUT_MS = 150;
/** How long a test waits for the proxy to settle an exchange before calling it a hang. */
const PATIENCE_MS = 3_000;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** `server` listening on a free port of 127.0.0.1 (servers.ts), closed after the test: its base URL. */
const listening = (server: Server) => listeningOn(server, closers);

async function upstreamThat(answer: (req: IncomingMessage, res: ServerResponse) => void) {
  const sockets = new Set<Socket>();
  const server = createServer(answer);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

async function proxyTo(upstream: string, upstreamTimeoutMs = TIMEOUT_MS) {
  const errors: string[] = [];
  const running = await startProxy({
    upstream,
    upstreamTimeoutMs,
    onUpstreamError: (message) => errors.push(message),
    // An exchange a test left hanging is cut soon after, not 15 s later.
    closeGraceMs: 500,
  });
  closers.push(() => running.close());
  return { running, errors };
}

type Outcome =
  | { kind: 'answered'; status: number; body: string; ms: number }
  | { kind: 'cut'; status: number; received: number; ms: number };

/** An upstream on a raw socket (servers.ts), closed after the test. */
const rawUpstream = (answer: Parameters<typeof rawSocketUpstream>[0]) => rawSocketUpstream(answer, closers);

/** Writes `line` on the socket every `everyMs` until it closes. */
function repeat(socket: Socket, line: string, everyMs: number) {
  socket.write(line);
  const tick = setInterval(() => socket.write(line), everyMs);
  socket.on('close', () => clearInterval(tick));
}

/** One GET through the proxy: its whole answer, or how much came before the connection was cut. */
function outcome(
  running: RunningProxy,
  path: string,
  headers: Readonly<Record<string, string>> = {},
): Promise<Outcome> {
  const started = performance.now();
  const ms = () => performance.now() - started;
  return new Promise((resolve, reject) => {
    const hang = setTimeout(() => reject(new Error(`no outcome within ${PATIENCE_MS} ms`)), PATIENCE_MS);
    const req = request(`${running.url}${path}`, { agent: false, headers });
    req.on('error', (error) => {
      clearTimeout(hang);
      reject(error);
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on('end', () => {
        clearTimeout(hang);
        resolve({ kind: 'answered', status: res.statusCode ?? 0, body, ms: ms() });
      });
      res.on('error', () => {
        clearTimeout(hang);
        resolve({ kind: 'cut', status: res.statusCode ?? 0, received: Buffer.byteLength(body), ms: ms() });
      });
    });
    req.end();
  });
}

describe('petkit proxy against a misbehaving upstream', () => {
  it('cuts the client’s answer short when the upstream announces 1000 bytes and closes after 10', async () => {
    const upstream = await upstreamThat((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('[{"id":1,', () => res.socket?.destroy());
    });
    const { running, errors } = await proxyTo(upstream);
    const result = await outcome(running, '/pets');
    expect(result).toMatchObject({ kind: 'cut', status: 200, received: 9 });
    expect(result.ms).toBeLessThan(1_000);
    expect(errors).toEqual([
      expect.stringMatching(
        /^the upstream http:\/\/127\.0\.0\.1:\d+ stopped short of the end of its answer to GET \/v1\/pets$/,
      ),
    ]);
    expect((await outcome(running, '/pets')).kind).toBe('cut'); // and it goes on serving
  });

  it('answers 504 upstream_timeout when the upstream says nothing', async () => {
    const upstream = await upstreamThat(() => {});
    const { running, errors } = await proxyTo(upstream);
    const result = await outcome(running, '/pets');
    expect(result).toMatchObject({ kind: 'answered', status: 504 });
    if (result.kind !== 'answered') return;
    expect(JSON.parse(result.body)).toEqual({
      code: 'upstream_timeout',
      message: expect.stringContaining(`said nothing for ${TIMEOUT_MS} ms`),
      status: 504,
    });
    expect(result.ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    expect(result.ms).toBeLessThan(TIMEOUT_MS + 1_000);
    expect(errors).toHaveLength(1);
  });

  it('cuts the client’s answer when the upstream stops in the middle of it and says nothing more', async () => {
    const upstream = await upstreamThat((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('[{"id":1,');
    });
    const { running } = await proxyTo(upstream);
    const result = await outcome(running, '/pets');
    expect(result).toMatchObject({ kind: 'cut', status: 200, received: 9 });
    expect(result.ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    expect(result.ms).toBeLessThan(TIMEOUT_MS + 1_000);
  });

  it('answers 502 bad_gateway for a status Node cannot forward (000), and goes on serving', async () => {
    const raw = createTcpServer((socket) => {
      socket.on('error', () => {});
      socket.once('data', () => socket.end('HTTP/1.1 000 Zero\r\ncontent-length: 0\r\n\r\n'));
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => raw.close(() => resolve())));
    const { running, errors } = await proxyTo(`http://127.0.0.1:${(raw.address() as AddressInfo).port}/v1`);
    for (let i = 0; i < 2; i += 1) {
      const result = await outcome(running, '/pets');
      expect(result).toMatchObject({ kind: 'answered', status: 502 });
      if (result.kind === 'answered') expect(JSON.parse(result.body)).toMatchObject({ code: 'bad_gateway' });
    }
    expect(errors[0]).toMatch(/answered what cannot be forwarded/);
  });

  it('lets a slow upstream that keeps talking finish, however long the whole answer takes', async () => {
    const upstream = await upstreamThat((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      let sent = 0;
      const tick = setInterval(() => {
        sent += 1;
        if (sent < 10) res.write(sent === 1 ? '[' : ' ');
        else {
          clearInterval(tick);
          res.end(']');
        }
      }, 40);
    });
    // A piece every 40 ms, 400 ms in all, against a timeout of 300 ms: each silence is short.
    const { running } = await proxyTo(upstream, 300);
    const result = await outcome(running, '/pets');
    expect(result).toMatchObject({ kind: 'answered', status: 200, body: `[${' '.repeat(8)}]` });
    expect(result.ms).toBeGreaterThan(300);
  });

  it('answers 502 bad_gateway at once, saying so, when the upstream switches protocols (101) and then says nothing', async () => {
    const { upstream } = await rawUpstream((socket) =>
      socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n'),
    );
    // A timeout far longer than the answer may take: the 502 is not the timeout's.
    const { running, errors } = await proxyTo(upstream, 5_000);
    for (let i = 0; i < 2; i += 1) {
      const result = await outcome(running, '/pets/9');
      expect(result).toMatchObject({ kind: 'answered', status: 502 });
      if (result.kind !== 'answered') return;
      expect(result.ms).toBeLessThan(1_000);
      expect(JSON.parse(result.body)).toEqual({
        code: 'bad_gateway',
        message: expect.stringMatching(
          /^petkit proxy: the upstream http:\/\/127\.0\.0\.1:\d+ answered GET \/v1\/pets\/9 with 101 Switching Protocols: petkit proxy forwards HTTP exchanges and switches to no other protocol\.$/,
        ),
        status: 502,
      });
    }
    expect(errors).toEqual([
      expect.stringMatching(/^the upstream \S+ answered GET \/v1\/pets\/9 with 101 Switching Protocols: /),
      expect.stringMatching(/^the upstream \S+ answered GET \/v1\/pets\/9 with 101 Switching Protocols: /),
    ]);
  });

  it('never asks the upstream to switch protocols for a client that sends Upgrade: websocket, and answers its 101 with 502', async () => {
    const { upstream, heads } = await rawUpstream((socket) =>
      socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n'),
    );
    const { running } = await proxyTo(upstream, 5_000);
    const result = await outcome(running, '/pets/9', {
      upgrade: 'websocket',
      connection: 'Upgrade',
      'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
      'sec-websocket-version': '13',
    });
    expect(result).toMatchObject({ kind: 'answered', status: 502 });
    expect(heads).toHaveLength(1);
    expect(heads[0]).toMatch(/^GET \/v1\/pets\/9 HTTP\/1\.1\r\n/);
    expect(heads[0]).not.toMatch(/^upgrade:/im);
    expect(heads[0]).not.toMatch(/^connection:.*upgrade/im);
  });

  it('passes over 102 Processing on the way to the answer, and for ever gets a 504 at the timeout', async () => {
    const { upstream: processing } = await rawUpstream((socket) => {
      socket.write('HTTP/1.1 102 Processing\r\n\r\n');
      setTimeout(
        () => socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n[]'),
        20,
      );
    });
    const forwarded = await outcome((await proxyTo(processing, 5_000)).running, '/pets');
    expect(forwarded).toMatchObject({ kind: 'answered', status: 200, body: '[]' });
    const { upstream } = await rawUpstream((socket) => repeat(socket, 'HTTP/1.1 102 Processing\r\n\r\n', 20));
    const { running } = await proxyTo(upstream);
    const result = await outcome(running, '/pets');
    expect(result).toMatchObject({ kind: 'answered', status: 504 });
  });

  it('takes 100 and 103 on the way to the answer, but they do not restart the clock: 103 for ever gets a 504', async () => {
    const { upstream: hinting } = await rawUpstream((socket) => {
      socket.write(
        'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n',
      );
      setTimeout(
        () => socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n[]'),
        20,
      );
    });
    const forwarded = await outcome((await proxyTo(hinting, 5_000)).running, '/pets');
    expect(forwarded).toMatchObject({ kind: 'answered', status: 200, body: '[]' });

    const { upstream: forever } = await rawUpstream((socket) =>
      repeat(socket, 'HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n', 20),
    );
    const { running, errors } = await proxyTo(forever);
    const result = await outcome(running, '/pets');
    expect(result).toMatchObject({ kind: 'answered', status: 504 });
    if (result.kind !== 'answered') return;
    expect(JSON.parse(result.body)).toMatchObject({ code: 'upstream_timeout' });
    expect(result.ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    expect(result.ms).toBeLessThan(TIMEOUT_MS + 1_000);
    expect(errors).toEqual([expect.stringMatching(/ said nothing for 150 ms to GET \/v1\/pets$/)]);
  });
});

/** What a client that may send `Expect: 100-continue` saw: each interim answer, then the final one. */
interface Interim {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

function exchange(
  running: RunningProxy,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    waitForContinue?: boolean;
  } = {},
): Promise<{ interim: Interim[]; status: number; body: string; bodySent: boolean; ms: number }> {
  const started = performance.now();
  const interim: Interim[] = [];
  let bodySent = false;
  return new Promise((resolve, reject) => {
    const hang = setTimeout(() => reject(new Error(`no answer within ${PATIENCE_MS} ms`)), PATIENCE_MS);
    const req = request(`${running.url}/pets`, {
      agent: false,
      method: options.method ?? 'GET',
      headers: options.headers ?? {},
    });
    req.on('information', (info) => interim.push({ status: info.statusCode, headers: info.headers }));
    req.on('error', (error) => {
      clearTimeout(hang);
      reject(error);
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on('end', () => {
        clearTimeout(hang);
        resolve({ interim, status: res.statusCode ?? 0, body, bodySent, ms: performance.now() - started });
      });
    });
    const send = () => {
      bodySent = true;
      req.end(options.body);
    };
    if (options.waitForContinue === true) req.on('continue', send);
    else send();
  });
}

describe('petkit proxy relays the interim answers (1xx) an HTTP/1.1 app may be given', () => {
  it('relays 103 Early Hints with their Link, then the answer', async () => {
    const { upstream } = await rawUpstream((socket) => {
      socket.write(
        'HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload; as=style\r\nConnection: x-hop\r\nX-Hop: 1\r\n\r\n',
      );
      setTimeout(
        () => socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n[]'),
        20,
      );
    });
    const { running } = await proxyTo(upstream, 5_000);
    const seen = await exchange(running);
    expect(seen).toMatchObject({ status: 200, body: '[]' });
    expect(seen.interim).toEqual([
      { status: 103, headers: expect.objectContaining({ link: '</a.css>; rel=preload; as=style' }) },
    ]);
    // Hop-by-hop, as on the final answer.
    expect(seen.interim[0]?.headers).not.toHaveProperty('x-hop');
  });

  it('relays a 103 of several Link lines, and passes over one whose Link Node will not write', async () => {
    const { upstream } = await rawUpstream((socket) => {
      socket.write('HTTP/1.1 103 Early Hints\r\nLink: garbage "<"\r\n\r\n');
      socket.write(
        'HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\nLink: </b.js>; rel=preload\r\nSet-Cookie: s=1\r\n\r\n',
      );
      setTimeout(
        () => socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n[]'),
        20,
      );
    });
    const { running } = await proxyTo(upstream, 5_000);
    const seen = await exchange(running);
    expect(seen).toMatchObject({ status: 200, body: '[]' });
    expect(seen.interim).toEqual([
      { status: 103, headers: { link: '</a.css>; rel=preload, </b.js>; rel=preload', via: '1.1 petkit' } },
    ]);
  });

  it('relays at most 16 interim answers of one exchange, and 103 without a Link not at all', async () => {
    const { upstream } = await rawUpstream((socket) => {
      socket.write('HTTP/1.1 103 Early Hints\r\nX-Note: no link\r\n\r\n');
      socket.write('HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n'.repeat(40));
      setTimeout(
        () => socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n[]'),
        20,
      );
    });
    const { running } = await proxyTo(upstream, 5_000);
    const seen = await exchange(running);
    expect(seen).toMatchObject({ status: 200, body: '[]' });
    expect(seen.interim).toHaveLength(16);
  });

  it('lets the upstream refuse an Expect: 100-continue request before its body is sent', async () => {
    let bodies = 0;
    const upstream = createServer((_req, res) => {
      res.writeHead(200).end();
    });
    upstream.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
      req.on('data', () => {
        bodies += 1;
      });
      const text = '{"code":"payload_too_large","message":"too large","status":413}';
      res.writeHead(413, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    });
    const { running } = await proxyTo(await listening(upstream), 5_000);
    const seen = await exchange(running, {
      method: 'POST',
      headers: { 'content-type': 'application/json', expect: '100-continue' },
      body: '{"name":"Rex","categoryId":1}',
      waitForContinue: true,
    });
    expect(seen).toMatchObject({ status: 413, interim: [], bodySent: false });
    expect(bodies).toBe(0);
    // The body never came: it is not checked as an empty one.
    await expect
      .poll(() => running.proxy.journal.unchecked)
      .toEqual([
        expect.objectContaining({ side: 'request', reason: 'the upstream answered before it ended' }),
      ]);
  });

  it('relays the upstream’s 100 Continue once to an app that expects it, then the answer', async () => {
    const upstream = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        res.writeHead(201, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      });
    });
    const { running } = await proxyTo(await listening(upstream), 5_000);
    const seen = await exchange(running, {
      method: 'POST',
      headers: { 'content-type': 'application/json', expect: '100-continue' },
      body: '{"name":"Rex","categoryId":1}',
      waitForContinue: true,
    });
    expect(seen).toMatchObject({ status: 201, body: '{"name":"Rex","categoryId":1}', bodySent: true });
    expect(seen.interim.map(({ status }) => status)).toEqual([100]);
  });

  it('says 100 Continue itself after a second when the upstream waits for the body without one', async () => {
    const { upstream, heads } = await rawUpstream((socket, _head, rest) => {
      // An upstream that ignores Expect: it answers once the body is there.
      const created = 'HTTP/1.1 201 Created\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}';
      if (rest !== '') socket.end(created);
      else socket.once('data', () => socket.end(created));
    });
    const { running } = await proxyTo(upstream, 5_000);
    const seen = await exchange(running, {
      method: 'POST',
      headers: { 'content-type': 'application/json', expect: '100-continue' },
      body: '{"name":"Rex","categoryId":1}',
      waitForContinue: true,
    });
    expect(seen).toMatchObject({ status: 201, bodySent: true });
    expect(seen.interim.map(({ status }) => status)).toEqual([100]);
    expect(seen.ms).toBeGreaterThanOrEqual(900);
    expect(heads[0]).toMatch(/^expect: 100-continue$/im);
  });

  it('says no 100 of its own to a request whose body has all come', async () => {
    const { upstream } = await rawUpstream((socket) =>
      setTimeout(
        () => socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n[]'),
        1_300,
      ),
    );
    const { running } = await proxyTo(upstream, 5_000);
    const seen = await exchange(running, { headers: { expect: '100-continue' } });
    expect(seen).toMatchObject({ status: 200, body: '[]', interim: [] });
  });

  it('forwards an expectation other than 100-continue for the upstream to judge', async () => {
    const { upstream, heads } = await rawUpstream((socket) =>
      socket.end(
        'HTTP/1.1 417 Expectation Failed\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}',
      ),
    );
    const { running } = await proxyTo(upstream, 5_000);
    const seen = await exchange(running, { headers: { expect: 'x-teapot' } });
    expect(seen).toMatchObject({ status: 417, body: '{}' });
    expect(heads[0]).toMatch(/^expect: x-teapot$/im);
  });

  it('relays nothing interim to an HTTP/1.0 app', async () => {
    const { upstream } = await rawUpstream((socket) => {
      socket.write('HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n');
      setTimeout(
        () => socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n[]'),
        20,
      );
    });
    const { running } = await proxyTo(upstream, 5_000);
    const { Socket } = await import('node:net');
    const client = new Socket();
    const url = new URL(running.url);
    const received = await new Promise<string>((resolve, reject) => {
      let text = '';
      client.on('data', (chunk: Buffer) => {
        text += chunk.toString('latin1');
      });
      client.on('close', () => resolve(text));
      client.on('error', reject);
      client.connect(Number(url.port), url.hostname, () =>
        client.write(`GET /v1/pets HTTP/1.0\r\nHost: ${url.host}\r\n\r\n`),
      );
    });
    expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(received).not.toContain('103');
  });
});

describe('petkit proxy never says a key it knows when the upstream fails', () => {
  const KEY = 'sk_live_abcdef123456';
  const target = `/pets?api_key=${KEY}&x=${KEY.toUpperCase()}`;

  it.each([
    ['says nothing', (_socket: Socket) => undefined],
    ['closes at once', (socket: Socket) => socket.destroy()],
    ['answers a malformed status line', (socket: Socket) => socket.end('HTTP/1.1 2000 OK\r\n\r\n')],
    ['answers status 99', (socket: Socket) => socket.end('HTTP/1.1 099 OK\r\ncontent-length: 2\r\n\r\n[]')],
    [
      'stops short of its Content-Length',
      (socket: Socket) => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n[1'),
    ],
  ])('the upstream %s: neither stderr nor the answer has the key', async (_name, answer) => {
    const { upstream } = await rawUpstream(answer);
    const errors: string[] = [];
    const running = await startProxy({
      upstream,
      upstreamTimeoutMs: TIMEOUT_MS,
      apiKey: KEY,
      onUpstreamError: (message) => errors.push(message),
      closeGraceMs: 500,
    });
    closers.push(() => running.close());
    const result = await outcome(running, target, { authorization: `bearer ${KEY}` });
    await expect.poll(() => errors.length).toBeGreaterThan(0);
    const said = `${errors.join('\n')}\n${result.kind === 'answered' ? result.body : ''}`;
    expect(said.toLowerCase()).not.toContain(KEY.slice(0, 8).toLowerCase());
    expect(said).toContain('/v1/pets?api_key=$API_KEY&x=');
  });
});

describe('petkit proxy against an upstream that points elsewhere or says more than it announced', () => {
  it('forwards a redirect to another host as it came, and never follows it', async () => {
    const bystander = await recording();
    closers.push(() => bystander.close());
    const upstream = await upstreamThat((_req, res) => {
      res.writeHead(302, { location: `${bystander.origin}/steal`, 'content-length': '0' });
      res.end();
    });
    const { running } = await proxyTo(upstream, 5_000);
    const result = await outcome(running, '/pets', { authorization: 'Bearer demo-free' });
    expect(result).toMatchObject({ kind: 'answered', status: 302 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(bystander.connections()).toBe(0);
  });

  it('gives no later request the bytes an upstream sent past its Content-Length', async () => {
    const { upstream } = await rawUpstream((socket, head) => {
      const answer = (body: string) =>
        `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`;
      if (head.includes('?first')) {
        socket.write(`${answer('[]')}${answer('["smuggled"]')}`);
      } else socket.write(answer('["ok"]'));
      socket.on('data', () => socket.write(answer('["ok"]')));
    });
    const { running } = await proxyTo(upstream, 5_000);
    expect(await outcome(running, '/pets?first')).toMatchObject({
      kind: 'answered',
      status: 200,
      body: '[]',
    });
    for (const _ of [1, 2, 3]) {
      expect(await outcome(running, '/pets?next')).toMatchObject({
        kind: 'answered',
        status: 200,
        body: '["ok"]',
      });
    }
  });
});

describe('petkit proxy and a credential sent twice', () => {
  it('forwards the first Authorization alone, and says the second nowhere', async () => {
    const { upstream, heads } = await rawUpstream((socket) =>
      socket.end(
        'HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}',
      ),
    );
    const { running, errors } = await proxyTo(upstream, 5_000);
    const said: string[] = [];
    const url = new URL(running.url);
    const { Socket } = await import('node:net');
    const client = new Socket();
    const answer = await new Promise<string>((resolve, reject) => {
      let text = '';
      client.on('data', (chunk: Buffer) => {
        text += chunk.toString('latin1');
      });
      client.on('close', () => resolve(text));
      client.on('error', reject);
      client.connect(Number(url.port), url.hostname, () =>
        client.write(
          `GET /v1/pets HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer first-key-1234\r\n` +
            'authorization: Bearer second-secret-5678\r\nConnection: close\r\n\r\n',
        ),
      );
    });
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    await expect.poll(() => running.proxy.journal.exchanges).toBe(1);
    said.push(...errors, JSON.stringify(running.proxy.journal), ...heads);
    expect(heads[0]).toMatch(/^authorization: Bearer first-key-1234$/im);
    expect(said.join('\n')).not.toContain('second-secret');
  });
});

describe('petkit proxy against an upstream whose status line Node will not write', () => {
  it('answers 502 bad_gateway for a reason phrase holding a control character, and goes on serving', async () => {
    const { upstream } = await rawUpstream((socket) =>
      socket.end('HTTP/1.1 200 O\u001b[2Jk\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n[]'),
    );
    // The built CLI, as a user runs it: a throw out of an exchange would end the process.
    const proxy = await startCliProxy(['--upstream', upstream]);
    closers.push(async () => proxy.stop());
    for (const _ of [1, 2]) {
      const answer = await fetch(`${proxy.origin}/v1/pets`);
      expect(answer.status).toBe(502);
      expect(await answer.json()).toMatchObject({ code: 'bad_gateway' });
    }
    expect(proxy.exitCode()).toBeNull();
    expect(proxy.output()).toContain(
      'answered what cannot be forwarded (Invalid character in statusMessage) to GET /v1/pets',
    );
    expect(proxy.output()).not.toContain('\u001b');
  });
});

describe('petkit proxy against an upstream whose answer stops being HTTP after its head', () => {
  it('cuts the app’s answer and says why, for a chunk size that is not hexadecimal', async () => {
    const { upstream } = await rawUpstream((socket) =>
      socket.end(
        'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n[]\r\n0\r\n\r\n',
      ),
    );
    const { running, errors } = await proxyTo(upstream, 5_000);
    const result = await outcome(running, '/pets').catch((error: Error) => ({ kind: 'failed', error }));
    expect(result).not.toMatchObject({ kind: 'answered' });
    await expect
      .poll(() => errors)
      .toEqual([
        expect.stringMatching(
          /^the upstream http:\/\/127\.0\.0\.1:\d+ sent what is not HTTP\/1\.1 in its answer \(HPE_INVALID_CHUNK_SIZE\), cut short, to GET \/v1\/pets$/,
        ),
      ]);
  });
});

describe('petkit proxy against an upstream whose head is not HTTP it can read', () => {
  it('says the upstream answered, and what was wrong with it, where it said the upstream did not answer', async () => {
    const heads = [
      `HTTP/1.1 200 OK\r\nx-big: ${'a'.repeat(20_000)}\r\ncontent-length: 0\r\n\r\n`,
      'HTTP/1.1 200 OK\r\ncontent-length: 2\r\ncontent-length: 3\r\n\r\n[]x',
    ];
    let next = 0;
    const { upstream } = await rawUpstream((socket) => socket.end(heads[next++ % heads.length] ?? ''));
    const { running, errors } = await proxyTo(upstream, 5_000);
    for (const _ of heads) {
      const result = await outcome(running, '/pets');
      expect(result).toMatchObject({ kind: 'answered', status: 502 });
    }
    expect(errors.map((error) => error.replace(/127\.0\.0\.1:\d+/, 'UPSTREAM'))).toEqual([
      `the upstream http://UPSTREAM answered GET /v1/pets with a head over Node's limit of ${maxHeaderSize} bytes (HPE_HEADER_OVERFLOW)`,
      'the upstream http://UPSTREAM answered GET /v1/pets with what is not HTTP/1.1 (HPE_UNEXPECTED_CONTENT_LENGTH)',
    ]);
  });
});

describe('petkit proxy and a request body in a transfer coding besides chunked', () => {
  it('answers 501 for Transfer-Encoding: gzip, chunked, where it sent the upstream the gzip bytes unlabelled', async () => {
    const upstream = await recording();
    closers.push(() => upstream.close());
    const { running } = await proxyTo(`${upstream.origin}/v1`, 5_000);
    const url = new URL(running.url);
    const gzip = gzipSync('{"name":"Rex"}');
    const answer = await new Promise<string>((resolve, reject) => {
      let text = '';
      const client = new Socket();
      client.on('data', (chunk: Buffer) => {
        text += chunk.toString('latin1');
      });
      client.on('close', () => resolve(text));
      client.on('error', reject);
      client.connect(Number(url.port), url.hostname, () =>
        client.write(
          Buffer.concat([
            Buffer.from(
              `POST /v1/pets HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\n` +
                `Transfer-Encoding: gzip, chunked\r\nConnection: close\r\n\r\n${gzip.length.toString(16)}\r\n`,
            ),
            gzip,
            Buffer.from('\r\n0\r\n\r\n'),
          ]),
        ),
      );
    });
    expect(answer).toMatch(/^HTTP\/1\.1 501 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
      code: 'unsupported_transfer_coding',
      message:
        'petkit proxy forwards a body in no transfer coding but chunked, got Transfer-Encoding: gzip, chunked; send a compressed body with Content-Encoding instead.',
      status: 501,
    });
    expect(upstream.requests).toEqual([]);
  });
});

describe('petkit proxy and an answer in a transfer coding besides chunked', () => {
  it('answers 502 for Transfer-Encoding: gzip, chunked, where it gave the app the gzip bytes unlabelled', async () => {
    const gzip = gzipSync('[]');
    const { upstream } = await rawUpstream((socket) =>
      socket.end(
        Buffer.concat([
          Buffer.from(
            'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: gzip, chunked\r\n\r\n' +
              `${gzip.length.toString(16)}\r\n`,
          ),
          gzip,
          Buffer.from('\r\n0\r\n\r\n'),
        ]),
      ),
    );
    const { running, errors } = await proxyTo(upstream, 5_000);
    const result = await outcome(running, '/pets');
    expect(result).toMatchObject({ kind: 'answered', status: 502 });
    if (result.kind === 'answered') expect(JSON.parse(result.body)).toMatchObject({ code: 'bad_gateway' });
    expect(errors.map((error) => error.replace(/127\.0\.0\.1:\d+/, 'UPSTREAM'))).toEqual([
      'the upstream http://UPSTREAM answered in a transfer coding besides chunked (its Transfer-Encoding), which petkit proxy does not forward, to GET /v1/pets',
    ]);
  });
});

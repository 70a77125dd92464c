// A rule's network fault as a client meets it on a real socket: each fault its own way (a reset, a
// close with no byte, bytes that are not HTTP, a body cut short, nothing at all), read over raw
// node:net sockets so nothing between hides what came on the wire; each journaled; and a hung
// request does not hold the server's close() open.
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../mocks/index.js';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(): Promise<RunningServer> {
  server = await startServer({ port: 0, host: '127.0.0.1', seed: 42 });
  return server;
}

/** Arms a rule over HTTP, as a user would with curl. */
async function arm(origin: string, rule: unknown): Promise<{ id: string }> {
  const res = await fetch(`${origin}/__petkit/rules`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(rule),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { id: string };
}

interface WireResult {
  /** Every byte the server sent before the connection ended. */
  readonly bytes: Buffer;
  /** How it ended: `end` (a FIN), or the socket error's code (ECONNRESET). */
  readonly ending: string;
}

const LIST_PETS =
  'GET /v1/pets?limit=3 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer demo-free\r\n\r\n';

function opened(origin: string): Promise<Socket> {
  const { port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Sends one request on a fresh connection and reads until the server ends it (or the timeout). */
async function exchange(origin: string, request = LIST_PETS, timeoutMs = 5_000): Promise<WireResult> {
  const socket = await opened(origin);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const done = (ending: string) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ bytes: Buffer.concat(chunks), ending });
    };
    const timer = setTimeout(() => done('timeout'), timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('end', () => done('end'));
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code ?? 'error'));
    socket.write(request);
  });
}

async function journal(
  origin: string,
): Promise<{ status: number; fault: string | null; rule: string | null }[]> {
  const res = await fetch(`${origin}/__petkit/requests`);
  return ((await res.json()) as { entries: { status: number; fault: string | null; rule: string | null }[] })
    .entries;
}

describe('network faults over a socket (startServer)', () => {
  it('reset: the connection is reset (ECONNRESET), no byte sent, journaled as status 0', async () => {
    const { origin } = await start();
    const { id } = await arm(origin, { operation: 'listPets', respond: { fault: 'reset' } });
    const result = await exchange(origin);
    expect(result.ending).toBe('ECONNRESET');
    expect(result.bytes.byteLength).toBe(0);
    expect(await journal(origin)).toMatchObject([{ status: 0, fault: 'reset', rule: id }]);
  });

  it('close: the connection is closed with no byte (a FIN, not a reset)', async () => {
    const { origin } = await start();
    const { id } = await arm(origin, { operation: 'listPets', respond: { fault: 'close' } });
    const result = await exchange(origin);
    expect(result).toEqual({ bytes: Buffer.alloc(0), ending: 'end' });
    expect(await journal(origin)).toMatchObject([{ status: 0, fault: 'close', rule: id }]);
  });

  it('malformed: bytes that are not HTTP, then closed', async () => {
    const { origin } = await start();
    await arm(origin, { operation: 'listPets', respond: { fault: 'malformed' } });
    const result = await exchange(origin);
    expect(result.ending).toBe('end');
    expect(result.bytes.byteLength).toBeGreaterThan(0);
    expect(result.bytes.subarray(0, 5).toString('latin1')).not.toBe('HTTP/');
    // fetch, like any client, cannot read it as an answer.
    await expect(
      fetch(`${server?.url}/pets`, { headers: { authorization: 'Bearer demo-free' } }),
    ).rejects.toThrow(TypeError);
    expect((await journal(origin)).map((entry) => entry.fault)).toEqual(['malformed', 'malformed']);
  });

  it('truncated: the real head, a Content-Length longer than the body sent, then closed', async () => {
    const { origin } = await start();
    await arm(origin, { operation: 'listPets', respond: { fault: 'truncated' } });
    const result = await exchange(origin);
    const text = result.bytes.toString('utf8');
    const split = text.indexOf('\r\n\r\n');
    expect(text.startsWith('HTTP/1.1 200 OK\r\n')).toBe(true);
    const declared = Number(/\r\ncontent-length: (\d+)\r\n/i.exec(text.slice(0, split))?.[1]);
    const body = result.bytes.subarray(Buffer.byteLength(text.slice(0, split + 4)));
    expect(declared).toBeGreaterThan(0);
    expect(body.byteLength).toBeLessThan(declared);
    expect(body.byteLength).toBeGreaterThan(0);
    expect(result.ending).not.toBe('timeout');
    // The journal keeps the real head's status.
    expect(await journal(origin)).toMatchObject([{ status: 200, fault: 'truncated' }]);
  });

  it('hang: nothing is sent until the client leaves, and close() still resolves at once', async () => {
    const { origin } = await start();
    await arm(origin, { operation: 'listPets', respond: { fault: 'hang' } });
    const result = await exchange(origin, LIST_PETS, 300);
    expect(result).toEqual({ bytes: Buffer.alloc(0), ending: 'timeout' });
    expect(await journal(origin)).toMatchObject([{ status: 0, fault: 'hang' }]);

    // A second hung request, still open when the server closes.
    const socket = await opened(origin);
    const ended = new Promise<string>((resolve) => {
      socket.once('close', () => resolve('closed'));
      socket.once('error', () => undefined);
    });
    socket.write(LIST_PETS);
    await expect.poll(async () => (await journal(origin)).length).toBe(2);
    const started = performance.now();
    await server?.close();
    server = undefined;
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(await ended).toBe('closed');
  });

  it('answers other operations as usual while a fault rule is armed for one', async () => {
    const { origin, url } = await start();
    await arm(origin, { operation: 'listPets', respond: { fault: 'reset' } });
    const res = await fetch(`${url}/pets/1`, { headers: { authorization: 'Bearer demo-free' } });
    expect(res.status).toBe(200);
  });
});

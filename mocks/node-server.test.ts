// The node:http adapter's own bounds, over a real socket on port 0.
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryState } from './memory-state.js';
import { createMock } from './mock.js';
import { type RunningServer, startServer, WAITING_LIMIT } from './node-server.js';
import type { MockState } from './state.js';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The in-memory state, whose lookups wait until the test lets them go (as a delay or a shared state's would). */
function heldState(): { state: MockState; held: (() => void)[] } {
  const base = memoryState(1_000);
  const held: (() => void)[] = [];
  const { store } = base;
  const state: MockState = {
    ...base,
    store: {
      count: () => store.count(),
      list: (limit, status) => store.list(limit, status),
      get: (id) => new Promise((resolve) => held.push(() => resolve(store.get(id)))),
      create: (pet) => store.create(pet),
      clear: () => store.clear(),
    },
  };
  return { state, held };
}

describe('startServer: answers that wait', () => {
  it('reads no further on a connection with WAITING_LIMIT answers waiting, so pipelining cannot grow its memory', async () => {
    const { state, held } = heldState();
    server = await startServer({ port: 0, host: '127.0.0.1', mock: createMock({ state }) });
    const request = 'GET /v1/pets/1 HTTP/1.1\r\nhost: x\r\nauthorization: Bearer demo-enterprise\r\n\r\n';
    // Every request read while answers wait was kept: 100,000 of them with Prefer: delay=10000 took
    // the mock from 60 MB to 440 MB in two seconds, and nothing stopped the client sending more.
    const count = 20_000;
    const socket = connect({ host: '127.0.0.1', port: Number(new URL(server.origin).port) });
    let answered = 0;
    // A status line can be split between two chunks: each is read after the end of the one before.
    const STATUS = 'HTTP/1.1 200 OK';
    let tail = '';
    socket.on('data', (chunk: Buffer) => {
      const text = tail + chunk.toString('latin1');
      answered += text.split(STATUS).length - 1;
      const last = text.lastIndexOf(STATUS);
      tail = text.slice(Math.max(last + STATUS.length, text.length - STATUS.length + 1));
    });
    socket.write(request.repeat(count));
    // What the reads of the socket can hold beyond the limit: node parses a chunk (64 KiB) whole, and
    // one more may be in hand before its parser pauses (1,270 waited at most here: 64 and 1,206).
    const bound = WAITING_LIMIT + 2 * Math.ceil(65_536 / request.length);
    let most = 0;
    // The first look comes late enough for a server that reads on to have read thousands more.
    let interval = 250;
    try {
      while (answered < count) {
        await vi.waitFor(() => expect(held.length > 0 || answered >= count).toBe(true), {
          timeout: 5_000,
          interval,
        });
        interval = 5;
        most = Math.max(most, held.length);
        for (const release of held.splice(0)) release();
      }
    } finally {
      socket.destroy();
      for (const release of held.splice(0)) release();
    }
    expect(answered).toBe(count);
    expect(most).toBeGreaterThanOrEqual(WAITING_LIMIT);
    expect(most).toBeLessThanOrEqual(bound);
  });
});

/** Sends `head` and `body` on a connection of its own (`connection: close`) and reads the answer whole. */
function send(origin: string, head: string, body: Buffer): Promise<{ statusLine: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: Number(new URL(origin).port) });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      resolve({ statusLine: text.slice(0, text.indexOf('\r\n')), body: text.slice(split + 4) });
    });
    socket.end(Buffer.concat([Buffer.from(head), body]));
  });
}

describe('startServer: a body in a transfer coding', () => {
  it('answers 415 to a body in a transfer coding other than chunked, as to one in a content coding', async () => {
    server = await startServer({ port: 0, host: '127.0.0.1' });
    const pet = Buffer.from('{"name":"Coded","categoryId":1}');
    const chunked = (bytes: Buffer) =>
      Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n0\r\n\r\n')]);
    const post = (coding: string, bytes: Buffer) =>
      send(
        server?.origin ?? '',
        `POST /v1/pets HTTP/1.1\r\nhost: x\r\nauthorization: Bearer demo-enterprise\r\ncontent-type: application/json\r\ntransfer-encoding: ${coding}\r\nconnection: close\r\n\r\n`,
        chunked(bytes),
      );
    // Node takes the chunks off and leaves the gzip on: its bytes were "not valid UTF-8" (400), and a
    // plain body labelled deflate was stored (201).
    for (const [coding, bytes] of [
      ['gzip, chunked', gzipSync(pet)],
      ['deflate, chunked', pet],
    ] as const) {
      const answer = await post(coding, bytes);
      expect(answer.statusLine).toBe('HTTP/1.1 415 Unsupported Media Type');
      expect(JSON.parse(answer.body)).toEqual({
        code: 'unsupported_media_type',
        message: `The body must be sent as it is; this request sent Transfer-Encoding "${coding}", which the mock does not decode.`,
        status: 415,
      });
    }
    for (const coding of ['chunked', 'Chunked'])
      expect((await post(coding, pet)).statusLine).toBe('HTTP/1.1 201 Created');
    expect(server.mock.journal.map((entry) => entry.status)).toEqual([415, 415, 201, 201]);
  });
});

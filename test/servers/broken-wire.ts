// Servers that break HTTP/1.1's message framing (RFC 9112) one way each, and servers that frame their
// answers in the other ways RFC 9112 allows: the wire probe (contract-tests/http/wire-probe.ts) must
// catch the first and pass the second. Each is the reference server behind a small HTTP/1.1 server of
// its own over node:net (node:http will not write such bytes, nor hand its socket over cleanly), which
// writes each answer as the server's habit makes it. Test code only.

import type { AddressInfo } from 'node:net';
import { createServer, type Socket } from 'node:net';
import { createReference, type RawRequest, type RawResponse, type Served } from './reference.js';

/** The bytes of one answer, and what becomes of the connection after them. */
export interface WireBytes {
  readonly bytes: string | Buffer;
  /** Close the connection after them, whatever the request asked. */
  readonly close?: boolean;
  /** Keep the connection open after them, even when the request asked to close it. */
  readonly keepOpen?: boolean;
  /** Writes on after them, for as long as it likes (a hostile stream): the connection is its own. */
  readonly pump?: (socket: Socket) => void;
}

export interface WireServer {
  readonly name: string;
  readonly does: string;
  /** The answer to `request`, the reference's `response` (its framing not yet written), as bytes. */
  readonly answer: (request: RawRequest, response: RawResponse) => WireBytes;
}

const isListPets = (request: RawRequest) => request.method === 'GET' && request.pathname === '/v1/pets';
const isGetPet = (request: RawRequest) =>
  request.method === 'GET' && /^\/v1\/pets\/[^/]+$/.test(request.pathname);
const asksToClose = (request: RawRequest) => /\bclose\b/i.test(request.headers.connection ?? '');

type Fields = readonly (readonly [string, string])[];

/** A head: its status line and `fields`, each line ended by `eol`. */
function head(status: number, fields: Fields, eol = '\r\n', version = '1.1'): string {
  return `HTTP/${version} ${status} OK${eol}${fields.map(([name, value]) => `${name}: ${value}${eol}`).join('')}${eol}`;
}

/** The response's own fields, without any framing of its own. */
const own = (response: RawResponse): Fields =>
  Object.entries(response.headers).filter(
    ([name]) => !['content-length', 'transfer-encoding', 'connection'].includes(name.toLowerCase()),
  );

/** The answer as an HTTP/1.1 server frames it: Content-Length; Connection: close when asked. */
export function framed(request: RawRequest, response: RawResponse, extra: Fields = []): string {
  const fields: Fields = [
    ...own(response),
    ['content-length', String(Buffer.byteLength(response.body))],
    ...(asksToClose(request) ? ([['connection', 'close']] as const) : []),
    ...extra,
  ];
  return head(response.status, fields) + response.body;
}

const plain = (request: RawRequest, response: RawResponse): WireBytes => ({
  bytes: framed(request, response),
});

/** Each breaks one rule of RFC 9112 on the answers named; the rest framed as RFC 9112 asks. */
export const BROKEN_WIRE_SERVERS = {
  /** The case Node's fetch hides: every listPets 200 written twice, whole (a retry in a framework's writer). */
  answersListTwice: {
    name: 'answers-list-twice',
    does: 'writes every listPets 200 twice on the connection, whole',
    answer: (request, response) => {
      if (!isListPets(request) || response.status !== 200) return plain(request, response);
      const answer = framed(request, response);
      return { bytes: answer + answer };
    },
  },
  /** A header folded onto a continuation line (obs-fold), on every listPets answer: fetch unfolds it. */
  foldedHeader: {
    name: 'folded-header',
    does: 'folds an x-trace header of every listPets answer onto a continuation line (obs-fold)',
    answer: (request, response) =>
      isListPets(request)
        ? { bytes: framed(request, response, [['x-trace', 'abc,\r\n def']]) }
        : plain(request, response),
  },
  /** An answer to Connection: close on a connection the server keeps open. */
  ignoresConnectionClose: {
    name: 'ignores-connection-close',
    does: 'keeps the connection open after answering a getPet that asked to close it',
    answer: (request, response) =>
      isGetPet(request) ? { ...plain(request, response), keepOpen: true } : plain(request, response),
  },
  /** A Content-Length written as a list, `27, 27` (a proxy that joined two): an invalid Content-Length. */
  contentLengthList: {
    name: 'content-length-list',
    does: 'frames every getPet answer with Content-Length: N, N',
    answer: (request, response) => {
      if (!isGetPet(request)) return plain(request, response);
      const length = Buffer.byteLength(response.body);
      return {
        bytes:
          head(response.status, [...own(response), ['content-length', `${length}, ${length}`]]) +
          response.body,
      };
    },
  },
  /** Content-Length and Transfer-Encoding: chunked on one answer (the smuggling pair). */
  lengthAndChunked: {
    name: 'length-and-chunked',
    does: 'sends every getPet answer chunked with a Content-Length as well',
    answer: (request, response) => {
      if (!isGetPet(request)) return plain(request, response);
      const length = Buffer.byteLength(response.body);
      const fields: Fields = [
        ...own(response),
        ['content-length', String(length)],
        ['transfer-encoding', 'chunked'],
      ];
      return {
        bytes: `${head(response.status, fields)}${length.toString(16)}\r\n${response.body}\r\n0\r\n\r\n`,
      };
    },
  },
  /** A chunk whose size line is not hexadecimal. */
  badChunkSize: {
    name: 'bad-chunk-size',
    does: 'sends every getPet answer chunked, its chunk size written in decimal with a unit ("27 bytes")',
    answer: (request, response) => {
      if (!isGetPet(request)) return plain(request, response);
      const length = Buffer.byteLength(response.body);
      const fields: Fields = [...own(response), ['transfer-encoding', 'chunked']];
      return { bytes: `${head(response.status, fields)}${length} bytes\r\n${response.body}\r\n0\r\n\r\n` };
    },
  },
  /** White space between a field's name and its colon. */
  spaceBeforeColon: {
    name: 'space-before-colon',
    does: 'writes an x-trace header of every getPet answer as "x-trace : 1"',
    answer: (request, response) =>
      isGetPet(request)
        ? { bytes: framed(request, response).replace(/\r\n\r\n/, '\r\nx-trace : 1\r\n\r\n') }
        : plain(request, response),
  },
  /** A NUL byte in a field value. */
  nulInHeader: {
    name: 'nul-in-header',
    does: 'writes an x-trace header of every getPet answer with a NUL byte in its value',
    answer: (request, response) =>
      isGetPet(request)
        ? { bytes: framed(request, response, [['x-trace', 'a\0b']]) }
        : plain(request, response),
  },
  /** The head's lines ended by LF alone. */
  lfLineEnds: {
    name: 'lf-line-ends',
    does: "ends every line of each getPet answer's head with LF alone",
    answer: (request, response) => {
      if (!isGetPet(request)) return plain(request, response);
      const fields: Fields = [...own(response), ['content-length', String(Buffer.byteLength(response.body))]];
      return {
        bytes: head(response.status, fields, '\n') + response.body,
        ...(asksToClose(request) ? { close: true } : {}),
      };
    },
  },
} satisfies Record<string, WireServer>;

/** Streams `piece` for ever, as fast as the socket takes it, until it is closed. */
function forever(piece: string): (socket: Socket) => void {
  // Written some 8 KiB at a time: a write of each few bytes costs the server, not the suite.
  const block = piece.repeat(Math.ceil(8192 / piece.length));
  return (socket) => {
    const pump = () => {
      while (!socket.destroyed && socket.write(block)) {}
      if (!socket.destroyed) socket.once('drain', pump);
    };
    pump();
  };
}

/** Answers no fetch sees (each to the request that asks to close): the wire probe must end all the same. */
export const HOSTILE_WIRE_SERVERS = {
  endlessInterim: {
    name: 'endless-100-continue',
    does: 'answers with 100 (Continue) for ever',
    answer: () => ({ bytes: '', pump: forever('HTTP/1.1 100 Continue\r\n\r\n') }),
  },
  endlessChunks: {
    name: 'endless-one-byte-chunks',
    does: 'answers 200 chunked, one-byte chunks for ever',
    answer: () => ({
      bytes: 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n',
      pump: forever('1\r\n0\r\n'),
    }),
  },
  endlessHead: {
    name: 'endless-head',
    does: 'answers 200 with header fields for ever',
    answer: () => ({ bytes: 'HTTP/1.1 200 OK\r\n', pump: forever('x-a: 1\r\n') }),
  },
  endlessCloseDelimited: {
    name: 'endless-close-delimited-body',
    does: 'answers 200 without Content-Length, its body never ended',
    answer: () => ({
      bytes: 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n',
      pump: forever('[0,'),
    }),
  },
  silentHead: {
    name: 'half-a-head-then-silence',
    does: 'answers the start of a head, then nothing, the connection held',
    answer: () => ({ bytes: 'HTTP/1.1 200 OK\r\ncontent-le', pump: () => {} }),
  },
  notHttp: {
    name: 'not-http',
    does: 'answers with bytes that are not HTTP',
    answer: () => ({ bytes: '\u0000\u0001garbage\r\n\r\n', close: true }),
  },
} satisfies Record<string, WireServer>;

/**
 * The server, its habit kept to the answers of requests that ask to close the connection (a server
 * whose last answer on a connection takes another path): Node's fetch, which never asks, sees none of
 * them, so what the suite says of them is the wire probe's alone, whatever fetch would make of them.
 */
export function whenClosing(server: WireServer): WireServer {
  return {
    name: `${server.name}-when-closing`,
    does: `${server.does}, when the request asks to close the connection`,
    answer: (request, response) =>
      asksToClose(request) ? server.answer(request, response) : plain(request, response),
  };
}

/** What RFC 9112 allows, each in place of the Content-Length answers on a kept connection: no finding. */
export const FRAMED_RIGHT_SERVERS = {
  /** Content-Length, the connection kept: what node:http does. */
  keepAlive: {
    name: 'content-length-kept-alive',
    does: 'frames every answer by Content-Length and keeps the connection',
    answer: plain,
  },
  /** Every answer chunked, in chunks of 7 bytes with a chunk extension, and a trailer field. */
  chunked: {
    name: 'chunked-with-trailers',
    does: 'sends every answer chunked, in chunks of 7 bytes with an extension, ending in a trailer field',
    answer: (request, response) => {
      const fields: Fields = [
        ...own(response),
        ['transfer-encoding', 'chunked'],
        ['trailer', 'x-checksum'],
        ...(asksToClose(request) ? ([['connection', 'close']] as const) : []),
      ];
      const body = Buffer.from(response.body);
      const chunks: Buffer[] = [];
      for (let at = 0; at < body.length; at += 7) {
        const part = body.subarray(at, at + 7);
        chunks.push(Buffer.from(`${part.length.toString(16)};n=${at}\r\n`), part, Buffer.from('\r\n'));
      }
      return {
        bytes: Buffer.concat([
          Buffer.from(head(response.status, fields)),
          ...chunks,
          Buffer.from('0\r\nx-checksum: 1\r\n\r\n'),
        ]),
      };
    },
  },
  /** Connection: close on every answer, and the connection closed after it. */
  closesEach: {
    name: 'connection-close-on-every-answer',
    does: 'answers every request with Connection: close, and closes the connection',
    answer: (request, response) => ({
      bytes: framed(request, response, asksToClose(request) ? [] : [['connection', 'close']]),
      close: true,
    }),
  },
  /** The connection closed after every answer, without a word (no Connection: close). */
  closesUnsaid: {
    name: 'closes-after-every-answer-unsaid',
    does: 'closes the connection after every answer, without Connection: close',
    answer: (request, response) => ({ bytes: framed(request, response), close: true }),
  },
  /** HTTP/1.0 answers: framed by Content-Length, the connection closed after each. */
  http10: {
    name: 'http-1.0-answers',
    does: 'answers every request in HTTP/1.0, with Content-Length, and closes the connection',
    answer: (_request, response) => ({
      bytes:
        head(
          response.status,
          [...own(response), ['content-length', String(Buffer.byteLength(response.body))]],
          '\r\n',
          '1.0',
        ) + response.body,
      close: true,
    }),
  },
  /** HTTP/1.0 answers that the close ends: no Content-Length, no chunks. */
  http10CloseDelimited: {
    name: 'http-1.0-close-delimited',
    does: 'answers every request in HTTP/1.0 without Content-Length, the body ended by closing the connection',
    answer: (_request, response) => ({
      bytes: head(response.status, own(response), '\r\n', '1.0') + response.body,
      close: true,
    }),
  },
} satisfies Record<string, WireServer>;

/** The request at the start of `buffer`, and where it ends; undefined until it is whole. */
function nextRequest(buffer: Buffer): { request: RawRequest; end: number } | undefined {
  const headEnd = buffer.indexOf('\r\n\r\n');
  if (headEnd < 0) return undefined;
  const [line = '', ...fieldLines] = buffer.toString('latin1', 0, headEnd).split('\r\n');
  const headers: Record<string, string> = {};
  for (const field of fieldLines) {
    const colon = field.indexOf(':');
    const name = field.slice(0, colon).trim().toLowerCase();
    const value = field.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  const length = Number(headers['content-length'] ?? '0');
  const end = headEnd + 4 + length;
  if (buffer.length < end) return undefined;
  const [method = 'GET', target = '/'] = line.split(' ');
  const url = new URL(target, 'http://localhost');
  return {
    request: {
      method,
      pathname: url.pathname,
      query: url.searchParams,
      headers,
      body: buffer.toString('utf8', headEnd + 4, end),
    },
    end,
  };
}

/** Serves a wire server on 127.0.0.1, on a free port, over a fresh reference. */
export async function serveWire(server: WireServer, now?: () => number): Promise<Served> {
  const reference = createReference(now === undefined ? {} : { now });
  const sockets = new Set<Socket>();
  const tcp = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffer = Buffer.alloc(0);
    let closing = false;
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (let next = nextRequest(buffer); next !== undefined && !closing; next = nextRequest(buffer)) {
        buffer = buffer.subarray(next.end);
        const { request } = next;
        const answer = server.answer(request, reference(request));
        if (answer.pump !== undefined) {
          closing = true;
          socket.write(answer.bytes);
          answer.pump(socket);
          return;
        }
        closing = answer.close === true || (asksToClose(request) && answer.keepOpen !== true);
        if (closing) socket.end(answer.bytes);
        else socket.write(answer.bytes);
      }
    });
  });
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  const { port } = tcp.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const socket of sockets) socket.destroy();
        tcp.close((cause) => (cause ? reject(cause) : resolve()));
      }),
  };
}

// The node:http adapter: it hands the core a MockCall read straight off IncomingMessage (the body
// read only as far as the cap) and writes the core's answer with writeHead/end. No Web Request or
// Response is built: the benchmark showed a Request adapter (@hono/node-server) costing a POST
// five times the CPU of the rest of the mock, and its body streams holding memory under load.
import {
  createServer,
  type IncomingMessage,
  maxHeaderSize,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { loadSpec } from '../openapi/index.js';
import {
  BodyAbortedError,
  type BodySource,
  concat,
  type MockCall,
  type RequestTarget,
  targetOf,
} from './call.js';
import type { ErrorCode } from './errors.js';
import { createMock, type Mock } from './mock.js';
import { DEFAULT_HOST, DEFAULT_PORT, type MockOptions } from './options.js';
import { errorReply, type Reply } from './responses.js';

export type ServerOptions = { port?: number; host?: string } & (MockOptions | { mock: Mock });

export interface RunningServer {
  /** The API's base URL, with the base path: `http://127.0.0.1:4010/v1`. */
  readonly url: string;
  /** Scheme, host and port: the control API is at `${origin}/__petkit/…`. */
  readonly origin: string;
  readonly mock: Mock;
  /** Stops accepting connections and resolves once in-flight requests are answered. */
  close(): Promise<void>;
}

/** Time limits against slow or stuck clients. */
export const HEADERS_TIMEOUT_MS = 10_000;
export const REQUEST_TIMEOUT_MS = 30_000;
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** How long close() waits for in-flight requests before cutting their connections. */
export const CLOSE_GRACE_MS = 15_000;
/** How long a connection answered with a transport-level error is read (and dropped) before it is cut. */
export const LINGER_MS = 1_000;

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const { port = DEFAULT_PORT, host = DEFAULT_HOST } = options;
  const mock = 'mock' in options ? options.mock : createMock(options);
  let closing: Promise<void> | undefined;
  const serve = (incoming: IncomingMessage, outgoing: ServerResponse, expectsContinue: boolean) => {
    if (closing !== undefined) {
      // Once closing, a connection whose last request is answered is not kept alive.
      outgoing.setHeader('connection', 'close');
      outgoing.once('finish', () => setImmediate(() => server.closeIdleConnections()));
    }
    mock.answer(callFromIncoming(incoming, outgoing, expectsContinue)).then(
      (answer) => write(incoming, outgoing, answer),
      (error: unknown) => {
        // The core answers its own failures with a 500; this is only a last resort.
        mock.options.logger.error(`petkit mock: ${String(error)}`);
        if (!outgoing.headersSent) outgoing.writeHead(500, { 'content-type': 'application/json' });
        outgoing.end('{"code":"internal_error","message":"The mock failed.","status":500}');
      },
    );
  };
  const server = createServer(
    {
      headersTimeout: HEADERS_TIMEOUT_MS,
      requestTimeout: REQUEST_TIMEOUT_MS,
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    },
    (incoming, outgoing) => serve(incoming, outgoing, false),
  );
  server.on('checkContinue', (incoming, outgoing) => serve(incoming, outgoing, true));
  // Connections answered by answerClientError and still open (closed at once by close()).
  const lingering = new Set<Duplex>();
  server.on('clientError', (error, socket) => answerClientError(error, socket, lingering));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const origin = `http://${hostPart}:${address.port}`;
  return {
    url: origin + loadSpec().basePath,
    origin,
    mock,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
        force.unref();
        server.close((error) => {
          clearTimeout(force);
          if (error === undefined) resolve();
          else reject(error);
        });
        server.closeIdleConnections();
        for (const socket of lingering) socket.destroy();
      });
      return closing;
    },
  };
}

/**
 * A request Node's parser refused (or did not receive in time) never reaches the core: node:http
 * emits 'clientError' with the bare socket. Answer it as the core answers everything else, a JSON
 * Error with the CORS headers, written raw: 431 request_header_too_large (request line and headers
 * over `maxHeaderSize`, 16 KiB unless `--max-http-header-size`), 408 request_timeout, 413 for
 * oversized chunk extensions (Node's own status for them), 400 validation_failed for any other
 * malformed request. These come from the transport, before routing, so they carry no rate-limit
 * headers and no operation in openapi.yaml documents them.
 */
function answerClientError(error: Error, socket: Duplex, lingering: Set<Duplex>): void {
  // Node goes on parsing what the client still sends, and each chunk fails again: answered once.
  if (lingering.has(socket)) return;
  const code = (error as NodeJS.ErrnoException).code;
  const answer = clientErrorAnswer(code);
  // Node's own rule: nothing is written over a response already under way (it would corrupt it).
  const current = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (answer === undefined || !socket.writable || current?.headersSent === true) {
    socket.destroy();
    return;
  }
  const { status, body, headers } = errorReply(answer.code, answer.message, undefined, {
    connection: 'close',
  });
  const head = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`, `date: ${new Date().toUTCString()}`];
  for (const [name, value] of Object.entries(headers)) head.push(`${name}: ${value}`);
  head.push(`content-length: ${Buffer.byteLength(body ?? '')}`);
  const raw = `${head.join('\r\n')}\r\n\r\n${body ?? ''}`;
  if (current != null) {
    // A request is in flight (a body too slow, or junk after a pipelined request): as Node does, the
    // connection goes now, and the core's answer to that request with it.
    socket.write(raw);
    socket.destroy();
    return;
  }
  // Close our side once the answer is out, and keep reading until the client closes its side: cutting
  // a connection with unread data resets it, and the client could lose the answer.
  lingering.add(socket);
  const cut = setTimeout(() => socket.destroy(), LINGER_MS);
  cut.unref();
  socket.once('close', () => {
    clearTimeout(cut);
    lingering.delete(socket);
  });
  socket.end(raw);
}

function clientErrorAnswer(code: string | undefined): { code: ErrorCode; message: string } | undefined {
  if (code === 'HPE_HEADER_OVERFLOW')
    return {
      code: 'request_header_too_large',
      message: `The request line and headers are larger than ${maxHeaderSize} bytes.`,
    };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return {
      code: 'request_timeout',
      message: `The request was not received in time (headers ${HEADERS_TIMEOUT_MS / 1000} s, whole request ${REQUEST_TIMEOUT_MS / 1000} s).`,
    };
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW')
    return { code: 'payload_too_large', message: 'The chunk extensions are too large.' };
  if (code?.startsWith('HPE_'))
    return { code: 'validation_failed', message: `The request is not valid HTTP/1.1 (${code}).` };
  // ECONNRESET and other socket errors: nobody to answer.
  return undefined;
}

function urlOf(target: string | undefined): RequestTarget {
  if (target?.startsWith('/')) return targetOf(target);
  // Absolute-form (`http://host/v1/pets`, as proxies send) or junk: a real parse, rarely taken.
  try {
    const url = new URL(target ?? '/');
    return url;
  } catch {
    return targetOf('/');
  }
}

function bodyOf(incoming: IncomingMessage, outgoing: ServerResponse, expectsContinue: boolean): BodySource {
  const length = incoming.headers['content-length'];
  const present =
    (length !== undefined && length !== '0') || incoming.headers['transfer-encoding'] !== undefined;
  return {
    present,
    read: async (limit) => {
      // The usual case: a small body with a declared length that came in the same packet as the
      // headers. The core asks from inside the 'request' event, before the parser has gone on to
      // that body; one microtask later it holds it whole. Take it as it lies, with no stream events.
      const declared = length === undefined ? Number.NaN : Number(length);
      if (declared <= limit) {
        if (incoming.readableLength < declared) await undefined;
        if (incoming.readableLength === declared) {
          const data = incoming.read() as Buffer | null;
          return data ?? new Uint8Array(0);
        }
      }
      return new Promise<Uint8Array | undefined>((resolve, reject) => {
        const chunks: Buffer[] = [];
        let total = 0;
        const onData = (chunk: Buffer) => {
          total += chunk.byteLength;
          if (total > limit) {
            // Stop reading: the 413 is written and the connection closed (see the 'finish' hook).
            incoming.off('data', onData);
            incoming.pause();
            resolve(undefined);
            return;
          }
          chunks.push(chunk);
        };
        incoming.on('data', onData);
        incoming.once('end', () => resolve(concat(chunks, total)));
        const aborted = () => reject(new BodyAbortedError('The body ended before it was complete.'));
        incoming.once('error', aborted);
        incoming.once('close', () => {
          if (!incoming.complete && total <= limit) aborted();
        });
        // `Expect: 100-continue`: the client is told to send its body only now that the core wants
        // it, so a 401 or a 413 is answered without the body ever being sent.
        if (expectsContinue) outgoing.writeContinue();
      });
    },
  };
}

function callFromIncoming(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  expectsContinue = false,
): MockCall {
  const { headers } = incoming;
  return {
    method: incoming.method ?? 'GET',
    url: urlOf(incoming.url),
    header(name) {
      const value = headers[name];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(', ') : value;
    },
    body: bodyOf(incoming, outgoing, expectsContinue),
    clientAddress: incoming.socket.remoteAddress,
  };
}

function write(incoming: IncomingMessage, outgoing: ServerResponse, answer: Reply): void {
  const { body, headers } = answer;
  const head = incoming.method === 'HEAD';
  if (body !== null)
    headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
  // A body refused part-read leaves the rest on the wire: this connection cannot carry another
  // request. Say so, and close it rather than drain the rest.
  if (!incoming.complete && answer.status === 413) {
    headers.connection = 'close';
    outgoing.once('finish', () => incoming.socket.destroy());
  }
  outgoing.writeHead(answer.status, headers);
  outgoing.end(head || body === null ? undefined : body);
}

// How the node:http server puts the core's answer on the wire: whole (writeHead, end), streamed (the
// event stream: written as its reader gives it, no faster than the client reads), or as a network
// fault a rule asked for, each its own way on the socket. In process (`handle`, `petkit/msw`) every
// fault is `Response.error()`; only here does a client meet the real thing.
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { NetworkFault } from './control-types.js';
import type { Reply } from './responses.js';

/** What a server keeps of the answers that are not over when written, so its close() can end them. */
export interface OpenAnswers {
  /** Sockets a `hang` fault holds: nothing is written to them until the client leaves. */
  readonly hanging: Set<Socket>;
  /** Streamed answers being written: close() ends each. */
  readonly streaming: Set<() => void>;
  /** The server is closing: an answer written now says Connection: close, and its connection goes. */
  closing: boolean;
}

export function openAnswers(): OpenAnswers {
  return { hanging: new Set(), streaming: new Set(), closing: false };
}

/** Ends every open answer at once: hung sockets destroyed, streams ended and their sockets closed. */
export function endOpenAnswers(open: OpenAnswers): void {
  for (const socket of open.hanging) socket.destroy();
  open.hanging.clear();
  for (const end of open.streaming) end();
  open.streaming.clear();
}

/**
 * The answer's head, with its own reason phrase always: node keeps the one a writeHead that threw had
 * set (a last-resort 500 after a refused 200 went out as `500 OK`). `length` and `close` go on the
 * wire only: the reply's headers are the core's, which its journal reads after (a batch at a time),
 * so they are left as they are, and written as a list of names and values with these in place of
 * any the core set (a list node writes as it comes: no own-property check per name, and no
 * property added to the core's object then taken off).
 */
function writeHead(
  outgoing: ServerResponse,
  status: number,
  headers: Reply['headers'],
  length: string | undefined,
  close: boolean,
): void {
  const list: string[] = [];
  for (const name in headers) {
    if ((length !== undefined && name === 'content-length') || (close && name === 'connection')) continue;
    list.push(name, headers[name] ?? '');
  }
  if (length !== undefined) list.push('content-length', length);
  if (close) list.push('connection', 'close');
  outgoing.writeHead(status, STATUS_CODES[status], list);
}

/** Bytes that no HTTP client can read as a status line. */
const NOT_HTTP = Buffer.from('\x00\xffpetkit: not HTTP\r\n\r\n', 'latin1');

export function write(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  answer: Reply,
  open: OpenAnswers,
): void {
  if (answer.fault !== undefined) {
    writeFault(incoming, outgoing, answer, answer.fault, open);
    return;
  }
  if (answer.stream !== undefined) {
    writeStream(incoming, outgoing, answer, answer.stream, open);
    return;
  }
  const { body, headers } = answer;
  const head = incoming.method === 'HEAD';
  const length =
    body === null ? undefined : String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
  // A body refused part-read leaves the rest on the wire: this connection cannot carry another
  // request. Say so, and close it rather than drain the rest. A 413 closes it always, even when the
  // whole body had come in with the head: what a client sees does not hang on how its packets fell.
  const close =
    answer.status === 413 || open.closing || (!incoming.complete && headers.connection === 'close');
  if (close) outgoing.once('finish', () => incoming.socket.destroy());
  writeHead(outgoing, answer.status, headers, length, close);
  outgoing.end(head || body === null ? undefined : body);
}

/**
 * The fault a rule asked for. Each leaves the connection unusable, as the real failure would; none
 * writes through `outgoing` a whole answer. The core has journaled it already.
 */
function writeFault(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  answer: Reply,
  fault: NetworkFault,
  open: OpenAnswers,
): void {
  const socket = incoming.socket as Socket;
  switch (fault) {
    case 'reset':
      // A TCP RST: the client reads ECONNRESET, as when a backend process dies mid-request.
      socket.resetAndDestroy();
      return;
    case 'close':
      // FIN with no byte: "socket hang up" / "other side closed".
      socket.destroySoon();
      return;
    case 'malformed':
      socket.end(NOT_HTTP);
      socket.destroySoon();
      return;
    case 'truncated':
      writeTruncated(incoming, outgoing, answer);
      return;
    case 'hang': {
      // Nothing at all, until the client gives up (or the server closes: endOpenAnswers).
      open.hanging.add(socket);
      socket.once('close', () => open.hanging.delete(socket));
      return;
    }
  }
}

/** The real head with the body's full Content-Length, half the body, then the connection closed. */
function writeTruncated(incoming: IncomingMessage, outgoing: ServerResponse, answer: Reply): void {
  const { body, headers } = answer;
  const bytes = body === null ? new Uint8Array(0) : typeof body === 'string' ? Buffer.from(body) : body;
  const sent = incoming.method === 'HEAD' ? 0 : Math.floor(bytes.byteLength / 2);
  // An empty body still claims a byte it never sends: the answer is cut either way.
  writeHead(outgoing, answer.status, headers, String(Math.max(1, bytes.byteLength)), true);
  const socket = incoming.socket as Socket;
  if (sent > 0) {
    outgoing.write(bytes.subarray(0, sent), () => socket.destroy());
    return;
  }
  // Nothing of the body to send: the head alone, then closed once it is out.
  outgoing.flushHeaders();
  socket.destroySoon();
}

/**
 * A streamed answer (the event stream): chunked, each chunk written as the reader gives it, waiting
 * for `drain` when the client reads slower than it comes; the reader is cancelled when the client
 * leaves, and by the server's close().
 */
function writeStream(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  answer: Reply,
  stream: ReadableStream<Uint8Array>,
  open: OpenAnswers,
): void {
  const reader = stream.getReader();
  writeHead(outgoing, answer.status, answer.headers, undefined, false);
  if (incoming.method === 'HEAD') {
    reader.cancel().catch(() => undefined);
    outgoing.end();
    return;
  }
  outgoing.flushHeaders();
  let done = false;
  const socket = incoming.socket;
  /** Ends it from the server's side: the last chunk if it can go, then the connection closed. */
  const end = () => {
    if (done) return;
    done = true;
    reader.cancel().catch(() => undefined);
    if (outgoing.writableNeedDrain) socket.destroy();
    else {
      outgoing.once('finish', () => socket.destroy());
      outgoing.end();
    }
  };
  open.streaming.add(end);
  outgoing.once('close', () => {
    open.streaming.delete(end);
    if (!done) {
      done = true;
      reader.cancel().catch(() => undefined);
    }
  });
  const pump = async () => {
    for (;;) {
      const { done: over, value } = await reader.read();
      if (done) return;
      if (over) break;
      if (!outgoing.write(value)) {
        await new Promise<void>((resolve) => {
          const go = () => {
            outgoing.off('drain', go);
            outgoing.off('close', go);
            resolve();
          };
          outgoing.once('drain', go);
          outgoing.once('close', go);
        });
        if (done) return;
      }
    }
    done = true;
    open.streaming.delete(end);
    outgoing.end();
  };
  pump().catch(() => {
    // The stream failed mid-way: the client cannot be told in-band; cut the connection.
    done = true;
    open.streaming.delete(end);
    socket.destroy();
  });
}

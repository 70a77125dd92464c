// The node:http adapter: it hands the core a MockCall read straight off IncomingMessage (the body
// read only as far as the cap) and writes the core's answer with writeHead/end. No Web Request or
// Response is built: the benchmark showed a Request adapter (@hono/node-server) costing a POST
// five times the CPU of the rest of the mock, and its body streams holding memory under load.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadSpec } from '../openapi/index.js';
import {
  BodyAbortedError,
  type BodySource,
  concat,
  type MockCall,
  type RequestTarget,
  targetOf,
} from './call.js';
import { callKind } from './call-kind.js';
import {
  answerClientError,
  answerConnect,
  authorityOf,
  duplicateHostReply,
  expectationReply,
  fragmentReply,
  MAX_HEADER_LINES,
  missingHostReply,
  otherFormTarget,
  type RawRefusals,
  type RawSocket,
  tooManyHeaderLinesReply,
  versionRefusal,
} from './client-error.js';
import {
  type ControlGuard,
  type ControlOptions,
  createControlGuard,
  normalizeControl,
} from './control-guard.js';
import { answerSoon, createMock, type Mock } from './mock.js';
import { endOpenAnswers, type OpenAnswers, openAnswers, write } from './node-write.js';
import {
  checkServerOptions,
  DEFAULT_HOST,
  DEFAULT_PORT,
  type MockOptions,
  MockOptionsError,
} from './options.js';
import { CONTINUE, NO_EXPECTATION } from './request-head.js';
import { errorReply, type Reply } from './responses.js';
import type { Awaitable } from './state.js';

export type ServerOptions = {
  port?: number;
  host?: string;
  /** Time limits against slow or stuck clients; each defaults to the constant of its name. */
  timeouts?: Partial<ServerTimeouts>;
  /** The control API's protection; `false` turns the control API off (its paths answer 404). */
  control?: ControlOptions | false;
} & (MockOptions | { mock: Mock });

export interface ServerTimeouts {
  /** Request line and headers must arrive within this. Default HEADERS_TIMEOUT_MS. */
  readonly headersMs: number;
  /** The whole request, body included. Default REQUEST_TIMEOUT_MS. */
  readonly requestMs: number;
  /** An idle kept-alive connection is closed after this. Default KEEP_ALIVE_TIMEOUT_MS. */
  readonly keepAliveMs: number;
  /** How often the two above are checked (Node's connectionsCheckingInterval). Default CHECK_INTERVAL_MS. */
  readonly checkIntervalMs: number;
}

export interface RunningServer {
  /**
   * The API's base URL, with the base path, as a client on this machine opens it:
   * `http://127.0.0.1:4010/v1`. Bound to every interface (`0.0.0.0`, `::`), it names the loopback
   * address of that family (`http://127.0.0.1:4010/v1`, `http://[::1]:4010/v1`), not an address
   * no browser opens; `listening` says where it listens.
   */
  readonly url: string;
  /** Scheme, host and port of `url`: the control API is at `${origin}/__petkit/…`. */
  readonly origin: string;
  /** The address it is bound to, as node reports it (`0.0.0.0` or `::`: every interface), and its port. */
  readonly listening: { readonly address: string; readonly port: number };
  readonly mock: Mock;
  /** The time limits in force. */
  readonly timeouts: ServerTimeouts;
  /**
   * Stops accepting connections and resolves once in-flight requests are answered. Answers that
   * would never end on their own end at once: a `hang` fault's connection is closed, and every open
   * event stream (`/__petkit/events`) is ended.
   */
  close(): Promise<void>;
}

/** Time limits against slow or stuck clients. */
export const HEADERS_TIMEOUT_MS = 10_000;
export const REQUEST_TIMEOUT_MS = 30_000;
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;
/**
 * Node checks the two timeouts above only this often (its default, 30 s, let a request live 40 s
 * against a 10 s headers timeout): each holds to within this of its value.
 */
export const CHECK_INTERVAL_MS = 500;
/** How long close() waits for in-flight requests before cutting their connections. */
export const CLOSE_GRACE_MS = 15_000;
/** While closing, how often the connections whose answers were written are closed. */
const CLOSE_SWEEP_MS = 20;

export { LINGER_MS } from './client-error.js';

function timeoutsOf(given: Partial<ServerTimeouts> = {}): ServerTimeouts {
  const timeouts = {
    headersMs: given.headersMs ?? HEADERS_TIMEOUT_MS,
    requestMs: given.requestMs ?? REQUEST_TIMEOUT_MS,
    keepAliveMs: given.keepAliveMs ?? KEEP_ALIVE_TIMEOUT_MS,
    checkIntervalMs: given.checkIntervalMs ?? CHECK_INTERVAL_MS,
  };
  for (const [name, value] of Object.entries(timeouts)) {
    if (!Number.isSafeInteger(value) || value < 1)
      throw new MockOptionsError(`Option timeouts.${name} must be a positive integer (ms), got ${value}.`);
  }
  if (timeouts.headersMs > timeouts.requestMs)
    throw new MockOptionsError(
      `Option timeouts.headersMs (${timeouts.headersMs}) must not exceed timeouts.requestMs (${timeouts.requestMs}).`,
    );
  return timeouts;
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  // Before anything listens, whether or not a mock is given (createMock checks the rest).
  checkServerOptions(options);
  const { port = DEFAULT_PORT, host = DEFAULT_HOST } = options;
  const timeouts = timeoutsOf(options.timeouts);
  const control = normalizeControl(options.control ?? {});
  const mock = 'mock' in options ? options.mock : createMock(options);
  let closing: Promise<void> | undefined;
  const open = openAnswers();
  // Filled in once listening: the control API answers only a Host that names this address.
  let guard: ControlGuard | undefined;
  /** The mock's time, which dates every answer, these refusals made before the core too. */
  const now = () => mock.clock.now();
  /** A refusal made here, before the core: dated by the mock's clock, as the core's answers are. */
  const refuse = (incoming: IncomingMessage, outgoing: ServerResponse, refusal: Reply) => {
    refusal.headers.date = new Date(now()).toUTCString();
    write(incoming, outgoing, refusal, open);
  };
  const serve = (incoming: IncomingMessage, outgoing: ServerResponse, expectsContinue: boolean) => {
    if (closing !== undefined) {
      // Once closing, a connection whose last request is answered is not kept alive.
      outgoing.setHeader('connection', 'close');
      outgoing.once('finish', () => setImmediate(() => server.closeIdleConnections()));
    }
    // Node reads one line more than the most a request may have (see below): that one says some were
    // dropped. Before Host is looked for: a Host sent after the 1,001st line was dropped too, and the
    // request was told it carried none.
    if (incoming.rawHeaders.length > 2 * MAX_HEADER_LINES) {
      refuse(incoming, outgoing, tooManyHeaderLinesReply());
      return;
    }
    if (incoming.httpVersionMajor !== 1 || incoming.headers.host === undefined) {
      // Rare: HTTP/2.0 or HTTP/0.9 (Node's parser reads both; any other version it refuses), or no Host.
      if (incoming.httpVersionMajor !== 1) {
        refuse(incoming, outgoing, versionRefusal(`HTTP/${incoming.httpVersion}`).reply);
        return;
      }
      if (incoming.httpVersion === '1.1') {
        refuse(incoming, outgoing, missingHostReply());
        return;
      }
    }
    const target = incoming.url ?? '/';
    let url: RequestTarget;
    if (target.startsWith('/')) {
      if (target.includes('#')) {
        refuse(incoming, outgoing, fragmentReply());
        return;
      }
      url = targetOf(target);
    } else {
      // Absolute-form, `*` or another form: rare, and some are answered here.
      const other = otherFormTarget(incoming.method, target);
      if ('status' in other) {
        refuse(incoming, outgoing, other);
        return;
      }
      url = other;
    }
    const call = new IncomingCall(incoming, outgoing, expectsContinue, url);
    // Node keeps the first of two Host lines and drops the other: which host was meant is unknown.
    if (call.hosts > 1) {
      refuse(incoming, outgoing, duplicateHostReply(call.hosts));
      return;
    }
    // A request asking to upgrade (a WebSocket's handshake) is answered as HTTP, and its connection
    // closed: Node's parser reads no further request on it, so one pipelined after it would wait for ever.
    if (incoming.headers.upgrade !== undefined) outgoing.setHeader('connection', 'close');
    const kind = callKind(call);
    // An absolute-form target's authority is held to the Host rule too (rare: a control call not in origin-form).
    const refused =
      kind === 'control'
        ? guard?.check(call, target.startsWith('/') ? undefined : authorityOf(target))
        : undefined;
    if (refused !== undefined) refused.headers.date = new Date(now()).toUTCString();
    let answering: Awaitable<Reply>;
    try {
      // Made at once when nothing has to wait (the in-memory state, no delay): no promise.
      answering = refused ?? answerSoon(mock, call, kind);
    } catch (error) {
      failed(mock, outgoing, open, error);
      return;
    }
    // An answer that waited (a body read, a delay, a shared state) joins the outbox when it is made;
    // meanwhile it counts against its connection's WAITING_LIMIT.
    if (answering instanceof Promise) {
      const socket = hold(incoming.socket);
      answering.then(
        (answer) => {
          release(socket);
          outbox.add(incoming, outgoing, answer);
        },
        (error: unknown) => {
          release(socket);
          failed(mock, outgoing, open, error);
        },
      );
    } else outbox.add(incoming, outgoing, answering);
  };
  const outbox = new Outbox(mock, open);
  const server = createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      keepAliveTimeout: timeouts.keepAliveMs,
      connectionsCheckingInterval: timeouts.checkIntervalMs,
      // Checked in serve(), to answer it in JSON rather than with Node's bare 400.
      requireHostHeader: false,
    },
    (incoming, outgoing) => serve(incoming, outgoing, false),
  );
  server.maxHeadersCount = MAX_HEADER_LINES + 1;
  // Node takes any Expect that holds 100-continue among others (`100-continue, foo`) for this one.
  server.on('checkContinue', (incoming, outgoing) => {
    const expect = String(incoming.headers.expect);
    if (CONTINUE.test(expect)) serve(incoming, outgoing, true);
    else refuse(incoming, outgoing, expectationReply(expect));
  });
  server.on('checkExpectation', (incoming, outgoing) => {
    const expect = String(incoming.headers.expect);
    // `Expect:` with nothing in it asks for nothing (RFC 9110 §10.1.1): served as without it.
    if (NO_EXPECTATION.test(expect)) serve(incoming, outgoing, false);
    else refuse(incoming, outgoing, expectationReply(expect));
  });
  const lingering = new Set<RawSocket>();
  const refusals: RawRefusals = {
    headersTimeoutMs: timeouts.headersMs,
    requestTimeoutMs: timeouts.requestMs,
    lingering,
    now,
    controlOff: control === false,
  };
  server.on('clientError', (error, socket) => answerClientError(error, socket, refusals));
  server.on('connect', (_incoming, socket) => answerConnect(socket, lingering, now()));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const origin = `http://${reachableHost(address)}:${address.port}`;
  guard = createControlGuard(control, { host, port: address.port }, mock.options.clock);
  return {
    url: origin + loadSpec().basePath,
    origin,
    listening: { address: address.address, port: address.port },
    mock,
    timeouts,
    close() {
      // Answers written from now on say Connection: close (their connection is about to go).
      open.closing = true;
      closing ??= new Promise<void>((resolve, reject) => {
        const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
        force.unref();
        // The connection of an answer in flight when closing began goes once the answer is written:
        // kept alive, it held close() until its client or the keep-alive timeout let it go.
        const sweep = setInterval(() => server.closeIdleConnections(), CLOSE_SWEEP_MS);
        sweep.unref();
        server.close((error) => {
          clearTimeout(force);
          clearInterval(sweep);
          if (error === undefined) resolve();
          else reject(error);
        });
        server.closeIdleConnections();
        for (const socket of lingering) socket.destroy();
        endOpenAnswers(open);
      });
      return closing;
    },
  };
}

/**
 * The host of a URL a client on this machine opens: the address bound, or for every interface
 * (`0.0.0.0`, `::`), which no browser opens, the loopback address of its family.
 */
function reachableHost({ address, family }: AddressInfo): string {
  if (family !== 'IPv6') return address === '0.0.0.0' ? '127.0.0.1' : address;
  return /^[0:]+$/.test(address) ? '[::1]' : `[${address}]`;
}

/**
 * How many answers a connection may have waiting (a delay, a body being read, a shared state) before
 * the server reads no further on it, until some are made. An answer made at once is written, and node
 * stops reading a connection whose client does not read its answers; one that waits writes nothing
 * meanwhile, so a client pipelining requests with `Prefer: delay=10000` had every one read and kept:
 * 100,000 took the mock from 60 MB to 440 MB in two seconds, and more would have ended it.
 */
export const WAITING_LIMIT = 64;

const WAITING = Symbol('petkit.waiting');
const HELD = Symbol('petkit.held');

/**
 * A connection's socket with its count of answers waiting, and what node keeps on it to stop reading
 * a connection whose client does not read its answers: `_paused`, which has node pause the socket's
 * parser once it has parsed the chunk in hand, and `parser`. Held the way node holds it, and let go
 * the way node lets go (its socketOnDrain), so either may let go of the other's hold: the connection
 * is then read one chunk further, and held again by its next request if it must be.
 */
interface CountedSocket {
  [WAITING]?: number;
  [HELD]?: boolean;
  _paused?: boolean;
  readonly parser?: { resume(): void } | null;
  pause(): unknown;
  resume(): unknown;
}

/** One more answer waits on this connection; at WAITING_LIMIT it is read no further. */
function hold<S extends CountedSocket>(socket: S): S {
  const waiting = (socket[WAITING] ?? 0) + 1;
  socket[WAITING] = waiting;
  if (waiting >= WAITING_LIMIT && socket._paused !== true) {
    socket[HELD] = true;
    socket._paused = true;
    socket.pause();
  }
  return socket;
}

/** An answer of this connection is made; below WAITING_LIMIT, a connection this held is read again. */
function release(socket: CountedSocket): void {
  const waiting = (socket[WAITING] ?? 1) - 1;
  socket[WAITING] = waiting;
  if (waiting < WAITING_LIMIT && socket[HELD] === true) {
    socket[HELD] = false;
    if (socket._paused !== true) return;
    socket._paused = false;
    socket.parser?.resume();
    socket.resume();
  }
}

/** How many answers wait in the outbox at most; past that they are written at once. */
export const OUTBOX_LIMIT = 64;

/**
 * The answers the core made, written together once this turn of the event loop has read all the
 * requests it could (setImmediate runs after the I/O callbacks). Answering every request that
 * came in, then writing every answer, runs the mock's code many times in a row, and node's writing
 * code many times in a row, rather than each in turn with a system call between that leaves the next
 * one's caches cold: on the bench, about a third less CPU an answer (docs/performance.md). Order on a
 * connection is node's (each response waits for its request's turn), so when an answer is written
 * does not change which goes first. At most OUTBOX_LIMIT wait: past that they are written at once, so
 * a client pipelining thousands of requests meets node's backpressure as before and memory stays
 * bounded. An answer that cannot be written gets `failed`'s 500 and the rest are still written.
 */
class Outbox {
  readonly #incoming: IncomingMessage[] = [];
  readonly #outgoing: ServerResponse[] = [];
  readonly #replies: Reply[] = [];
  #scheduled = false;
  #flushing = false;
  readonly #flush = () => {
    this.#scheduled = false;
    this.flush();
  };

  constructor(
    readonly mock: Mock,
    readonly open: OpenAnswers,
  ) {}

  add(incoming: IncomingMessage, outgoing: ServerResponse, reply: Reply): void {
    this.#incoming.push(incoming);
    this.#outgoing.push(outgoing);
    this.#replies.push(reply);
    if (this.#flushing) return;
    if (this.#incoming.length >= OUTBOX_LIMIT) this.flush();
    else if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#flush);
    }
  }

  /** Writes every answer waiting, in the order they were made. */
  flush(): void {
    const incoming = this.#incoming;
    const outgoing = this.#outgoing;
    const replies = this.#replies;
    // An answer added while these are written (nothing node does today, but a write runs its
    // listeners) goes after them, and is written by this same loop.
    this.#flushing = true;
    for (let i = 0; i < incoming.length; i += 1) {
      const response = outgoing[i] as ServerResponse;
      try {
        write(incoming[i] as IncomingMessage, response, replies[i] as Reply, this.open);
      } catch (error) {
        try {
          failed(this.mock, response, this.open, error);
        } catch {
          response.destroy();
        }
      }
    }
    this.#flushing = false;
    incoming.length = 0;
    outgoing.length = 0;
    replies.length = 0;
  }
}

/**
 * The core answers its own failures with a 500; this is only a last resort, for an answer that could
 * not be made or written: written as any answer is, the Error body with its length and the CORS
 * headers. After its head was written, no other answer can follow it on the connection (the head
 * promised a body of its own): the connection is cut, as a backend failing mid-answer cuts it.
 */
function failed(mock: Mock, outgoing: ServerResponse, open: OpenAnswers, error: unknown): void {
  mock.options.logger.error(`petkit mock: ${String(error)}`);
  if (outgoing.headersSent) outgoing.req.socket.destroy();
  else write(outgoing.req, outgoing, errorReply('internal_error'), open);
}

/**
 * A request's body as the core reads it: only as far as the cap. A class, not closures: a call's body
 * and the call itself are two small objects, made for every request.
 */
class IncomingBody implements BodySource {
  readonly present: boolean;
  readonly #declared: number;

  constructor(
    readonly incoming: IncomingMessage,
    readonly outgoing: ServerResponse,
    readonly expectsContinue: boolean,
  ) {
    const { headers } = incoming;
    const length = headers['content-length'];
    this.present = (length !== undefined && length !== '0') || headers['transfer-encoding'] !== undefined;
    this.#declared = length === undefined ? Number.NaN : Number(length);
  }

  async read(limit: number): Promise<Uint8Array | undefined> {
    const { incoming, outgoing, expectsContinue } = this;
    // The usual case: a small body with a declared length that came in the same packet as the
    // headers. The core asks from inside the 'request' event, before the parser has gone on to
    // that body; one microtask later it holds it whole. Take it as it lies, with no stream events.
    const declared = this.#declared;
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
  }
}

/** The core's view of a request read off IncomingMessage. */
class IncomingCall implements MockCall {
  readonly method: string;
  readonly url: RequestTarget;
  readonly body: IncomingBody;
  readonly clientAddress: string | undefined;
  /** How many Host lines came (RFC 9112 §3.2: one); node's headers keep the first only. */
  readonly hosts: number;
  /**
   * Authorization or Content-Type came on more than one line. Node keeps the first and drops the
   * others unsaid (a valid key then a wrong one was served as the valid one); read here as a Web
   * Request reads them (MSW, mock.request), every line's value joined: not a key, not JSON.
   */
  readonly #repeated: boolean;

  constructor(
    readonly incoming: IncomingMessage,
    outgoing: ServerResponse,
    expectsContinue: boolean,
    url: RequestTarget,
  ) {
    this.method = incoming.method ?? 'GET';
    this.url = url;
    this.body = new IncomingBody(incoming, outgoing, expectsContinue);
    this.clientAddress = incoming.socket.remoteAddress;
    // One pass over the lines as sent, told apart by length, then as usually spelt, then in any case
    // (no lower-cased copy of Authorization, nor of a browser's Cache-Control, as long).
    const raw = incoming.rawHeaders;
    let hosts = 0;
    let keys = 0;
    let types = 0;
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i] as string;
      if (name.length === 4) {
        if (name === 'Host' || name === 'host' || isNamed(name, 104, 'host')) hosts += 1;
      } else if (name.length === 13) {
        if (name === 'Authorization' || name === 'authorization' || isNamed(name, 97, 'authorization'))
          keys += 1;
      } else if (name.length === 12) {
        if (name === 'Content-Type' || name === 'content-type' || isNamed(name, 99, 'content-type'))
          types += 1;
      }
    }
    this.hosts = hosts;
    this.#repeated = keys > 1 || types > 1;
  }

  header(name: string): string | null {
    if (this.#repeated && (name === 'authorization' || name === 'content-type'))
      return joinedLines(this.incoming.rawHeaders, name);
    const value = this.incoming.headers[name];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }

  rawHeaders(): readonly string[] {
    return this.incoming.rawHeaders;
  }

  gone(listener: () => void): () => void {
    const { socket } = this.incoming;
    if (socket.destroyed) {
      listener();
      return () => undefined;
    }
    socket.once('close', listener);
    return () => socket.off('close', listener);
  }
}

/** Whether a header name is `lower` in any case; `first`, the char code of its first letter in lower case, rules most out uncopied. */
const isNamed = (name: string, first: number, lower: string): boolean =>
  (name.charCodeAt(0) | 32) === first && name.toLowerCase() === lower;

/** The values of every line of a field, joined as a Web Request's Headers join them; null when none came. */
function joinedLines(raw: readonly string[], name: string): string | null {
  let joined: string | null = null;
  for (let i = 0; i < raw.length; i += 2) {
    if ((raw[i] as string).toLowerCase() !== name) continue;
    const value = raw[i + 1] as string;
    joined = joined === null ? value : `${joined}, ${value}`;
  }
  return joined;
}

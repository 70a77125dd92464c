// The proxy's engine: a node:http listener that forwards every request to its upstream (forward.ts),
// only there, whatever the request target says (target.ts refuses what is not a path under it), and
// once an exchange ends checks it against openapi.yaml (inspect.ts). Departures go to `onDeparture`
// as they happen and into a journal (journal.ts), read at `GET /__petkit/departures` (`DELETE` clears
// it), by the proxy's own clients only (control-guard.ts). No request can stop it: every socket and stream has its error handled, and what Node's parser
// refuses is answered by client-error.ts. Nothing here prints.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { loadSpec, withoutScheme } from '../openapi/index.js';
import { answerClientError, answerConnect } from './client-error.js';
import { controlRefusal } from './control-guard.js';
import { createKeyBook, exchangeHider, sentCredentials } from './credential.js';
import { sendError } from './errors.js';
import { type Forwarded, forward, VIA } from './forward.js';
import { type Departure, type Inspection, inspect, type Unchecked } from './inspect.js';
import { createJournal, type ProxyJournal } from './journal.js';
import { placeTarget } from './target.js';
import { terminalJson } from './terminal-json.js';

export const CONTROL_PATH = '/__petkit/departures';
/** The most of a body kept for checking, decoded; a larger one is forwarded whole, not checked. */
export const MAX_CAPTURE_BYTES = 1024 * 1024;
/** The most requests a connection may send ahead of their answers (pipelined) before it is cut. */
export const MAX_PIPELINED = 32;
/** The most petkit proxies a request may have come through (its Via) before it is refused as a loop. */
export const MAX_PETKIT_HOPS = 8;
/** How long the upstream may say nothing before the client gets a 504. */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 30_000;

export interface ProxyOptions {
  /** The API's base URL at the upstream: `https://staging.example.com/v1`. */
  readonly upstream: string;
  /**
   * How long the upstream may say nothing, in ms: before the first byte of its answer (a 504
   * `upstream_timeout` to the client) or within it (the client's connection is cut). Default 30,000.
   */
  readonly upstreamTimeoutMs?: number;
  /**
   * The app's API key, never printed: with it, a replay line shows a credential that is not the key
   * (nor derived from it) as sent. Default none.
   */
  readonly apiKey?: string;
  /** Called with each departure as its exchange ends. */
  readonly onDeparture?: (departure: Departure) => void;
  /** Called once per exchange checked: method, target, status, ms, departures found, bodies unchecked. */
  readonly onExchange?: (line: ExchangeLine) => void;
  /** Called when the upstream cannot be reached, is silent, or stops short (the client gets a 502 or 504, or a cut answer). */
  readonly onUpstreamError?: (message: string) => void;
  /** The time, ms since the epoch. Default `Date.now`. */
  readonly clock?: () => number;
}

/**
 * An exchange's findings as they may be printed or kept: every text hidden by the exchange's `hide`
 * (its curl line is credential.ts's own: the key from `$API_KEY`, a refused credential as that
 * table says).
 */
function hidden({ departures, unchecked }: Inspection, hide: (text: string) => string): Inspection {
  return {
    departures: departures.map((d) => ({
      ...d,
      target: hide(d.target),
      expected: hide(d.expected),
      received: hide(d.received),
    })),
    unchecked: unchecked.map(({ side, reason }) => ({ side, reason: hide(reason) })),
  };
}

export interface ExchangeLine {
  readonly method: string;
  readonly target: string;
  readonly status: number;
  readonly durationMs: number;
  readonly departures: number;
  /** The bodies not checked, and why: `larger than 1048576 bytes`. */
  readonly unchecked: readonly Unchecked[];
}

export interface Proxy {
  readonly journal: ProxyJournal;
  readonly listener: (req: IncomingMessage, res: ServerResponse) => void;
}

/**
 * Why a text cannot be the proxy's upstream, in words that follow it (`"localhost:4010/v1" has no
 * scheme: did you mean http://localhost:4010/v1?`), or undefined when it is an http(s) URL. A user or
 * password in it is never quoted.
 */
export function upstreamProblem(upstream: string): string | undefined {
  const meant = withoutScheme(upstream);
  const parsed = URL.canParse(upstream) ? new URL(upstream) : undefined;
  if (parsed?.protocol === 'http:' || parsed?.protocol === 'https:') return undefined;
  // `localhost:4010/v1` is a URL too, of the scheme `localhost:`: a host and port without http://.
  if (meant !== undefined && !meant.credentials)
    return `"${upstream}" has no scheme: did you mean ${meant.suggested}?`;
  if (meant !== undefined)
    return 'has no scheme (http:// or https://), and must not carry a user or password';
  return 'must be an http or https URL';
}

/** `host`: the address it listens on, a name the control API's Host may give. Default 127.0.0.1. */
export function createProxy(options: ProxyOptions & { readonly host?: string }): Proxy {
  const spec = loadSpec();
  const clock = options.clock ?? Date.now;
  // Refused here, at start: `localhost:4010/v1` (the scheme `localhost:`) was taken, and every request
  // then answered 502, its protocol one Node does not request.
  const problem = upstreamProblem(options.upstream);
  if (problem !== undefined) throw new TypeError(`petkit proxy: the upstream ${problem}`);
  const upstream = new URL(options.upstream);
  const base = { origin: upstream.origin, prefix: upstream.pathname.replace(/\/+$/, '') };
  const keys = createKeyBook(options.apiKey);
  /** Each connection's exchange in flight, and those it pipelined behind it (inTurn). */
  const connections = new WeakMap<Socket, { busy: boolean; cut: boolean; waiting: (() => void)[] }>();
  const journal = createJournal();
  const context = {
    upstream,
    timeoutMs: options.upstreamTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS,
    maxCaptureBytes: MAX_CAPTURE_BYTES,
    onUpstreamError: (message: string) => options.onUpstreamError?.(message),
  };

  function control(req: IncomingMessage, res: ServerResponse, path: string): void {
    const refused = controlRefusal(req, options.host ?? '127.0.0.1');
    if (refused !== undefined) {
      sendError(res, refused.code, refused.message);
    } else if (path !== CONTROL_PATH) {
      sendError(res, 'route_not_found', `The proxy's control API is ${CONTROL_PATH}.`);
    } else if (req.method === 'GET') {
      const text = terminalJson(journal.read());
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    } else if (req.method === 'DELETE') {
      journal.clear();
      res.writeHead(204).end();
    } else {
      sendError(res, 'method_not_allowed', `${req.method} is not allowed here; use GET, DELETE.`, {
        allow: 'GET, DELETE',
      });
    }
  }

  /** Checks an exchange that ended whole, then journals and reports it, its credentials hidden by `hide`. */
  async function check(
    req: IncomingMessage,
    path: string,
    started: number,
    forwarded: Forwarded,
    hide: (text: string) => string,
  ) {
    const method = req.method ?? 'GET';
    const target = req.url ?? '/';
    const { status } = forwarded;
    const authorization = req.headers.authorization;
    if (authorization !== undefined) keys.learn(authorization, status);
    const exchange = {
      ...forwarded,
      method,
      target,
      path,
      requestHeaders: req.headers,
      upstreamBase: `${base.origin}${base.prefix}`,
    };
    let found: Inspection;
    try {
      found = await inspect(spec, exchange, clock(), keys, hide);
    } catch (error) {
      // A fault of the checks, not of the traffic: the exchange went through; it is said unchecked.
      found = {
        departures: [],
        unchecked: [{ side: 'response', reason: `the check failed (${String(error)})` }],
      };
    }
    const shown = hidden(found, hide);
    journal.record({ time: clock(), method, target: hide(target), status }, shown);
    for (const departure of shown.departures) options.onDeparture?.(departure);
    options.onExchange?.({
      method,
      target: hide(target),
      status,
      durationMs: clock() - started,
      departures: shown.departures.length,
      unchecked: shown.unchecked,
    });
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const started = clock();
    const target = req.url ?? '/';
    if (target.startsWith('/__petkit/')) {
      control(req, res, target.replace(/[?#].*$/s, ''));
      return;
    }
    // An upstream that leads back to a petkit proxy (itself, under another name, or through a relay):
    // each pass forwarded the request again, and one request became thousands of exchanges, their
    // sockets held and their departures printed, until the upstream timeout. Counted in Via, which
    // each pass adds to; a chain of petkit proxies this long is no one's setup.
    const hops = (req.headers.via ?? '').split(',').filter((entry) => entry.trim() === VIA).length;
    if (hops >= MAX_PETKIT_HOPS) {
      req.resume();
      context.onUpstreamError(
        `a request came back to it through ${hops} petkit proxies (its Via): the upstream ${base.origin} leads back to a petkit proxy, which forwarded it again; answered 508 loop_detected`,
      );
      sendError(
        res,
        'loop_detected',
        `petkit proxy: this request has come through a petkit proxy ${hops} times (its Via): the upstream leads back to one; give --upstream the backend's URL.`,
        { connection: 'close' },
      );
      return;
    }
    const placed = placeTarget(target, base, spec.basePath);
    if ('refusal' in placed) {
      req.resume();
      sendError(res, 'invalid_target', placed.refusal, { connection: 'close' });
      return;
    }
    // Transfer-Encoding is hop-by-hop, so it is not forwarded, and Node's parser takes off the chunked
    // coding alone: the gzip of `gzip, chunked` went upstream as bytes labelled as nothing (RFC 9112
    // §6.1: 501 for a transfer coding not understood). Node refuses any list not ending in chunked.
    const codings = req.headers['transfer-encoding'];
    if (codings?.split(',').some((coding) => !/^\s*(chunked)?\s*$/i.test(coding)) === true) {
      req.resume();
      sendError(
        res,
        'unsupported_transfer_coding',
        `petkit proxy forwards a body in no transfer coding but chunked, got Transfer-Encoding: ${codings}; send a compressed body with Content-Encoding instead.`,
        { connection: 'close' },
      );
      return;
    }
    // Every text of this exchange, printed, journaled or answered, goes through it: the key the proxy
    // knows and whatever credential the app sent are never shown, whatever the upstream echoes.
    const hide = exchangeHider(keys, sentCredentials(req.rawHeaders));
    const onUpstreamError = (message: string) => context.onUpstreamError(hide(message));
    forward(req, res, placed.path, { ...context, onUpstreamError, hide }, (forwarded) => {
      check(req, placed.originForm, started, forwarded, hide).catch((error: unknown) =>
        onUpstreamError(`petkit proxy could not report an exchange (${String(error)})`),
      );
    });
  }

  /**
   * Runs the exchanges of one connection one at a time, in the order they came. Node parses every
   * request a client pipelines at once and hands each over at once, while HTTP/1.1 answers them in
   * turn anyway: 3,000 GETs in one write opened 2,550 upstream requests together (a connection of
   * the app's became thousands of the upstream's, and 135 MB). Past MAX_PIPELINED waiting, the
   * connection is cut, and said so once.
   */
  function inTurn(req: IncomingMessage, res: ServerResponse, start: () => void): void {
    const socket = req.socket;
    let turns = connections.get(socket);
    if (turns === undefined) {
      turns = { busy: false, cut: false, waiting: [] };
      connections.set(socket, turns);
    }
    const line = turns;
    const run = () => {
      line.busy = true;
      let ended = false;
      const next = () => {
        if (ended) return;
        ended = true;
        line.busy = false;
        line.waiting.shift()?.();
      };
      res.on('finish', next);
      res.on('close', next);
      start();
    };
    if (line.cut) {
      // The rest of what it sent in that write, which Node parses on: dropped with its connection.
      req.resume();
    } else if (!line.busy) run();
    else if (line.waiting.length < MAX_PIPELINED) line.waiting.push(run);
    else {
      line.cut = true;
      line.waiting.length = 0;
      req.resume();
      context.onUpstreamError(
        `a client sent more than ${MAX_PIPELINED} requests ahead of their answers on one connection (pipelined): its connection is cut`,
      );
      socket.destroy();
    }
  }

  return {
    get journal() {
      return journal.read();
    },
    listener(req, res) {
      // A client gone mid-exchange: nothing to answer, and nothing to throw.
      req.on('error', () => {});
      res.on('error', () => {});
      const start = () => {
        try {
          handle(req, res);
        } catch (error) {
          // An error's words may quote what the app sent (a header's value): its credentials hidden.
          const hide = exchangeHider(keys, sentCredentials(req.rawHeaders));
          context.onUpstreamError(hide(`petkit proxy could not forward ${req.method} (${String(error)})`));
          if (res.headersSent) res.destroy();
          else sendError(res, 'bad_gateway', 'petkit proxy could not forward this request.');
        }
      };
      inTurn(req, res, start);
    },
  };
}

export interface RunningProxy {
  /** The proxy's base URL, with the API's base path: `http://127.0.0.1:4011/v1`. */
  readonly url: string;
  readonly origin: string;
  readonly proxy: Proxy;
  close(): Promise<void>;
}

/** Starts the proxy on a port (0 picks a free one). */
export async function startProxy(
  options: ProxyOptions & {
    readonly port?: number;
    readonly host?: string;
    /**
     * How long close() waits for the exchanges in flight (an upstream slow to answer) before it cuts
     * their connections, and with them the upstream's requests. Default CLOSE_GRACE_MS.
     */
    readonly closeGraceMs?: number;
  },
): Promise<RunningProxy> {
  const proxy = createProxy(options);
  const server = createServer(proxy.listener);
  // An Expect is the upstream's to answer (forward.ts relays its 100), not Node's: without these,
  // Node said 100 Continue to every Expect: 100-continue at once, and 417 to any other.
  server.on('checkContinue', proxy.listener);
  server.on('checkExpectation', proxy.listener);
  server.on('clientError', answerClientError);
  server.on('connect', (_req, socket) => answerConnect(socket));
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url: `${origin}${loadSpec().basePath}`,
    origin,
    proxy,
    close: () => {
      closing ??= new Promise<void>((resolve, reject) => {
        // An upstream that says nothing held close() for as long as --upstream-timeout let it.
        const force = setTimeout(() => server.closeAllConnections(), options.closeGraceMs ?? CLOSE_GRACE_MS);
        force.unref();
        // The connection of an exchange in flight when closing began goes once its answer is written:
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
      });
      return closing;
    },
  };
}

/** While closing, how often the connections whose answers were written are closed. */
const CLOSE_SWEEP_MS = 20;
/** How long close() waits for the exchanges in flight before it cuts them (as the mock's close() does). */
export const CLOSE_GRACE_MS = 15_000;

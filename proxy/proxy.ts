// The proxy's engine: a node:http listener that forwards every request to the upstream unchanged
// (method, path, end-to-end headers, body, streamed both ways; hop-by-hop headers dropped and Via
// added, as RFC 9110 asks of a proxy), keeps a copy of each body up to a cap, and once an exchange
// ends checks it against openapi.yaml (inspect.ts). Departures go to `onDeparture` as they happen
// and into a journal, read at `GET /__petkit/departures` (`DELETE` clears it). Nothing here prints.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { loadSpec } from '../openapi/index.js';
import { endToEnd } from './hop-by-hop.js';
import { type Departure, inspect } from './inspect.js';

export const CONTROL_PATH = '/__petkit/departures';
/** The most of a body kept for checking; a longer one is forwarded whole but not checked. */
export const MAX_CAPTURE_BYTES = 1024 * 1024;
/** The most departures the journal keeps, the oldest dropped first. */
export const MAX_JOURNAL = 1000;
const VIA = '1.1 petkit';

export interface ProxyOptions {
  /** The API's base URL at the upstream: `https://staging.example.com/v1`. */
  readonly upstream: string;
  /** Called with each departure as its exchange ends. */
  readonly onDeparture?: (departure: Departure) => void;
  /** Called once per exchange: method, target, status, ms, departures found. */
  readonly onExchange?: (line: ExchangeLine) => void;
  /** Called when the upstream cannot be reached (the client gets a 502). */
  readonly onUpstreamError?: (message: string) => void;
  /** The time, ms since the epoch. Default `Date.now`. */
  readonly clock?: () => number;
}

export interface ExchangeLine {
  readonly method: string;
  readonly target: string;
  readonly status: number;
  readonly durationMs: number;
  readonly departures: number;
}

export interface ProxyJournal {
  /** Exchanges checked since the start or the last clear. */
  readonly exchanges: number;
  /** The last departures, oldest first. */
  readonly departures: readonly Departure[];
}

export interface Proxy {
  readonly journal: ProxyJournal;
  readonly listener: (req: IncomingMessage, res: ServerResponse) => void;
}

/** A copy of a stream's bytes, up to MAX_CAPTURE_BYTES; undefined once it passes the cap. */
function capture() {
  const chunks: Buffer[] = [];
  let size = 0;
  return {
    add(chunk: Buffer) {
      size += chunk.length;
      if (size <= MAX_CAPTURE_BYTES) chunks.push(chunk);
    },
    bytes: (): Buffer | undefined => (size > MAX_CAPTURE_BYTES ? undefined : Buffer.concat(chunks)),
  };
}

const via = (previous: string | string[] | undefined): string =>
  previous === undefined ? VIA : `${Array.isArray(previous) ? previous.join(', ') : previous}, ${VIA}`;

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export function createProxy(options: ProxyOptions): Proxy {
  const spec = loadSpec();
  const clock = options.clock ?? Date.now;
  const upstream = new URL(options.upstream);
  const prefix = upstream.pathname.replace(/\/+$/, '');
  const send = upstream.protocol === 'https:' ? httpsRequest : httpRequest;
  let exchanges = 0;
  let departures: Departure[] = [];

  /** The upstream URL of a target: the spec's base path replaced by the upstream's. */
  const upstreamUrl = (target: string): URL => {
    const { basePath } = spec;
    const under =
      target === basePath || target.startsWith(`${basePath}/`) || target.startsWith(`${basePath}?`);
    return new URL(under ? `${prefix}${target.slice(basePath.length)}` : target, upstream.origin);
  };

  function control(req: IncomingMessage, res: ServerResponse): void {
    const path = new URL(req.url ?? '/', 'http://proxy.local').pathname;
    if (path !== CONTROL_PATH) {
      json(res, 404, {
        code: 'route_not_found',
        message: `The proxy's control API is ${CONTROL_PATH}.`,
        status: 404,
      });
    } else if (req.method === 'GET') {
      json(res, 200, { exchanges, departures });
    } else if (req.method === 'DELETE') {
      exchanges = 0;
      departures = [];
      res.writeHead(204).end();
    } else {
      res.setHeader('allow', 'GET, DELETE');
      json(res, 405, {
        code: 'method_not_allowed',
        message: `${req.method} is not allowed here; use GET, DELETE.`,
        status: 405,
      });
    }
  }

  function record(found: readonly Departure[]): void {
    exchanges += 1;
    for (const departure of found) {
      departures.push(departure);
      options.onDeparture?.(departure);
    }
    if (departures.length > MAX_JOURNAL) departures = departures.slice(-MAX_JOURNAL);
  }

  function forward(req: IncomingMessage, res: ServerResponse): void {
    const started = clock();
    const method = req.method ?? 'GET';
    const target = req.url ?? '/';
    if (target.startsWith('/__petkit/')) {
      control(req, res);
      return;
    }
    const url = upstreamUrl(target);
    const headers = { ...endToEnd(req.headers, ['host', 'via']), via: via(req.headers.via) };
    const sent = capture();
    const outgoing = send(url, { method, headers });
    outgoing.on('response', (incoming) => {
      const status = incoming.statusCode ?? 502;
      res.writeHead(status, incoming.statusMessage, {
        ...endToEnd(incoming.headers, ['via']),
        via: via(incoming.headers.via),
      });
      const received = capture();
      incoming.on('data', (chunk: Buffer) => received.add(chunk));
      incoming.pipe(res);
      incoming.on('end', () => {
        const exchange = {
          method,
          target,
          upstreamUrl: url.href,
          requestHeaders: req.headers,
          requestBody: sent.bytes(),
          status,
          responseHeaders: incoming.headers,
          responseBody: received.bytes(),
        };
        void inspect(spec, exchange, clock()).then((found) => {
          record(found);
          options.onExchange?.({
            method,
            target,
            status,
            durationMs: clock() - started,
            departures: found.length,
          });
        });
      });
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      const message = `the upstream ${upstream.origin} did not answer ${method} ${url.pathname} (${error.code ?? error.message})`;
      options.onUpstreamError?.(message);
      if (res.headersSent) res.destroy();
      else json(res, 502, { code: 'bad_gateway', message: `petkit proxy: ${message}.`, status: 502 });
    });
    req.on('data', (chunk: Buffer) => sent.add(chunk));
    // A client gone before its answer ends: the upstream exchange is dropped too.
    res.on('close', () => {
      if (!res.writableFinished) outgoing.destroy();
    });
    req.pipe(outgoing);
  }

  return {
    get journal() {
      return { exchanges, departures: [...departures] };
    },
    listener: forward,
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
  options: ProxyOptions & { readonly port?: number; readonly host?: string },
): Promise<RunningProxy> {
  const proxy = createProxy(options);
  const server = createServer(proxy.listener);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    url: `${origin}${loadSpec().basePath}`,
    origin,
    proxy,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeIdleConnections();
      }),
  };
}

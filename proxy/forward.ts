// One request forwarded to the upstream and its answer streamed back, unchanged but for the
// hop-by-hop headers (dropped) and Via (added), as RFC 9110 asks of a proxy. A copy of each body is
// kept for checking, within its bound (body-capture.ts). The upstream may not stay silent for
// `timeoutMs`: the clock runs from the start, and starts again with each piece of the request handed
// over, each piece of the answer received, and while the client is slow to read it stops. A silent
// upstream gets the client a 504 (or, mid-answer, a cut connection), and so does an answer that stops
// short of its end: the client sees it incomplete, never waits for ever. Interim answers (1xx) are
// not the answer and do not restart the clock: 100 (to a client that expects it), 102 and 103 (with
// a Link) are relayed to an HTTP/1.1 client, at most MAX_INTERIM of them, any other passed over; a
// switch of protocol (101), which the API never asks for, gets the client a 502. A client's
// `Expect: 100-continue` is the upstream's to answer: its 100 is relayed, its final answer comes
// without one, and an upstream that says nothing for CONTINUE_FALLBACK_MS gets the client the
// proxy's own 100, so the body comes and neither waits on the other.
import {
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  maxHeaderSize,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { type Captured, captureBody } from './body-capture.js';
import { type ProxyErrorCode, sendError } from './errors.js';
import { endToEnd } from './hop-by-hop.js';

export const VIA = '1.1 petkit';

/** The most interim answers (1xx) relayed to the client in one exchange; the rest are passed over. */
export const MAX_INTERIM = 16;
/** How long a client that expects 100 Continue waits for the upstream's before the proxy says it (curl's own wait). */
export const CONTINUE_FALLBACK_MS = 1_000;
/** Node's own reading of an Expect that asks for 100 (the server's continueExpression). */
const EXPECTS_CONTINUE = /(?:^|\W)100-continue(?:$|\W)/i;
/** What a relayed interim field may hold: Node writes a 103's fields as given, unchecked. */
const PLAIN_VALUE = /^[\t\x20-\x7e]*$/;

const via = (previous: string | string[] | undefined): string =>
  previous === undefined ? VIA : `${Array.isArray(previous) ? previous.join(', ') : previous}, ${VIA}`;

const statusLine = (status: number): string => `${status} ${STATUS_CODES[status] ?? '(no such status)'}`;

const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

export interface ForwardContext {
  /** The upstream's base URL; only its scheme, host and port are used here. */
  readonly upstream: URL;
  readonly timeoutMs: number;
  /** The bound on each body's copy, decoded. */
  readonly maxCaptureBytes: number;
  readonly onUpstreamError: (message: string) => void;
  /** The text with every key the proxy knows hidden (credential.ts): what a message may quote of a path. */
  readonly hide: (text: string) => string;
}

/** An exchange that ended whole: the answer's status and headers, both bodies' copies. */
export interface Forwarded {
  readonly upstreamUrl: string;
  readonly status: number;
  readonly responseHeaders: IncomingHttpHeaders;
  readonly requestBody: Captured;
  readonly responseBody: Captured;
}

/** Forwards `req` to `path` at the upstream's origin; `ended` gets the exchange once it ends whole. */
export function forward(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  context: ForwardContext,
  ended: (forwarded: Forwarded) => void,
): void {
  const { upstream, timeoutMs, maxCaptureBytes, onUpstreamError } = context;
  const method = req.method ?? 'GET';
  const upstreamUrl = `${upstream.origin}${path}`;
  // What stderr and the app's 502 or 504 say of the path: a key in its query or a segment is hidden.
  const shown = context.hide(path);
  const failed = (why: string) =>
    onUpstreamError(`the upstream ${upstream.origin} ${why} ${method} ${shown}`);
  const sent = captureBody(header(req.headers, 'content-encoding'), maxCaptureBytes);
  // A server never sends an HTTP/1.0 client a 1xx (RFC 9110 §15.2).
  const interimAllowed =
    req.httpVersionMajor > 1 || (req.httpVersionMajor === 1 && req.httpVersionMinor >= 1);
  const expectsContinue = interimAllowed && EXPECTS_CONTINUE.test(header(req.headers, 'expect') ?? '');
  let continued = false;
  let relayed = 0;
  let fallback: NodeJS.Timeout | undefined;
  let answer: IncomingMessage | undefined;
  let timedOut = false;
  let done = false;
  let timer: NodeJS.Timeout | undefined;
  const disarm = () => clearTimeout(timer);
  const arm = () => {
    disarm();
    if (done) return;
    timer = setTimeout(() => {
      timedOut = true;
      if (answer !== undefined)
        answer.destroy(); // its 'close' cuts the client's answer and says so
      else
        giveUp(
          'upstream_timeout',
          `the upstream ${upstream.origin} said nothing for ${timeoutMs} ms to ${method} ${shown}`,
          `petkit proxy: the upstream ${upstream.origin} said nothing for ${timeoutMs} ms (--upstream-timeout).`,
        );
    }, timeoutMs);
  };
  const finish = () => {
    done = true;
    disarm();
    clearTimeout(fallback);
  };
  /** The client's 100 Continue, once: the upstream's relayed, or the proxy's own when it is slow. */
  const sendContinue = () => {
    clearTimeout(fallback);
    if (continued || done || answer !== undefined || res.headersSent || res.destroyed) return;
    continued = true;
    relayed += 1;
    res.writeContinue();
  };
  /**
   * Ends an exchange that has no answer to forward: the upstream request is dropped, the client gets
   * the proxy's own Error and stderr the reason. Whatever path gets here first decides; the rest see
   * `done`. The timer calls it itself: a request already closed emits no 'error' when destroyed.
   */
  const giveUp = (code: ProxyErrorCode, reason: string, message = `petkit proxy: ${reason}.`) => {
    if (done) return;
    finish();
    sent.abandon();
    outgoing.destroy();
    onUpstreamError(reason);
    if (res.headersSent) res.destroy();
    else sendError(res, code, message);
  };

  /**
   * Why the upstream request failed before an answer: a head Node's parser refused is an answer the
   * proxy cannot read ("did not answer (HPE_HEADER_OVERFLOW)" sent a user looking for a dead server);
   * anything else (ECONNREFUSED, a TLS fault) is no answer.
   */
  const unanswered = (error: NodeJS.ErrnoException): string => {
    const code = error.code ?? error.message;
    if (code === 'HPE_HEADER_OVERFLOW')
      return `the upstream ${upstream.origin} answered ${method} ${shown} with a head over Node's limit of ${maxHeaderSize} bytes (${code})`;
    if (code.startsWith('HPE_'))
      return `the upstream ${upstream.origin} answered ${method} ${shown} with what is not HTTP/1.1 (${code})`;
    return `the upstream ${upstream.origin} did not answer ${method} ${shown} (${code})`;
  };

  const outgoing = (upstream.protocol === 'https:' ? httpsRequest : httpRequest)({
    protocol: upstream.protocol,
    hostname: upstream.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: upstream.port === '' ? undefined : Number(upstream.port),
    path,
    method,
    // Upgrade and Connection are hop-by-hop: the upstream is never asked to switch protocols.
    headers: { ...endToEnd(req.headers, ['host', 'via']), via: via(req.headers.via) },
  });
  // From the start: an upstream that never accepts the connection is silent too.
  arm();
  outgoing.on('finish', arm);
  outgoing.on('error', (error: NodeJS.ErrnoException) => {
    if (done) return; // ended already: by the client, the timer, or an answer refused
    // Bytes past a whole answer (a Content-Length shorter than the body sent): the parser refuses them
    // once the answer is read to its end. The answer goes on to the client whole, as its own client
    // would read it; only the connection, and those bytes, are dropped (Node destroys the socket).
    if (answer?.complete === true) {
      if (error.code?.startsWith('HPE_') === true)
        failed(`sent bytes after the end of its answer (${error.code}), dropped with its connection, to`);
      return;
    }
    if (answer !== undefined) {
      // The answer's own 'close' says what became of it, but for one the parser refused after its
      // head (a chunk size that is not hexadecimal, a trailer Node will not read): the client's is
      // cut here, which that 'close' takes for the client gone, and the upstream's fault went unsaid.
      finish();
      sent.abandon();
      if (error.code?.startsWith('HPE_') === true && !res.destroyed)
        failed(`sent what is not HTTP/1.1 in its answer (${error.code}), cut short, to`);
      res.destroy();
      return;
    }
    giveUp('bad_gateway', unanswered(error));
  });
  // A 101 whether asked or not: the connection would become another protocol's, which the proxy
  // does not speak. Without this listener Node drops the socket and the request ends with no event.
  outgoing.on('upgrade', (_incoming: IncomingMessage, socket: Socket) => {
    socket.destroy();
    giveUp(
      'bad_gateway',
      `the upstream ${upstream.origin} answered ${method} ${shown} with ${statusLine(101)}: petkit proxy forwards HTTP exchanges and switches to no other protocol`,
    );
  });
  // Every other interim answer (100, 102 Processing, 103 Early Hints, an unassigned 1xx): the final
  // answer may follow it, and the clock runs on meanwhile (an interim answer is not the answer), so
  // however many come, the timeout bounds them. Relayed: 100 to a client that expects it, 102, and
  // 103 with a Link (what Node writes), at most MAX_INTERIM in all, so a flood costs nothing more.
  outgoing.on(
    'information',
    (info: { statusCode: number; headers: IncomingHttpHeaders; rawHeaders: string[] }) => {
      if (info.statusCode === 100) {
        if (expectsContinue) sendContinue();
        return;
      }
      if (!interimAllowed || relayed >= MAX_INTERIM || done || answer !== undefined) return;
      if (res.headersSent || res.destroyed) return;
      if (info.statusCode === 102) {
        relayed += 1;
        res.writeProcessing();
      } else if (info.statusCode === 103) {
        const hints = earlyHints(info.headers, info.rawHeaders);
        if (hints === undefined) return;
        try {
          res.writeEarlyHints(hints);
          relayed += 1;
        } catch {
          // A Link Node will not write: the hint is passed over, the answer still comes.
        }
      }
    },
  );
  if (expectsContinue) {
    // A request whose body has all come (none, or sent without waiting) waits for no 100 of the proxy's.
    fallback = setTimeout(() => {
      if (!req.readableEnded) sendContinue();
    }, CONTINUE_FALLBACK_MS);
    fallback.unref();
  }
  // Whatever else ends the upstream request before an answer: the client is told, never left waiting.
  outgoing.on('close', () => {
    if (answer === undefined)
      giveUp(
        'bad_gateway',
        `the upstream ${upstream.origin} closed the connection without answering ${method} ${shown}`,
      );
  });
  outgoing.on('response', (incoming) => {
    answer = incoming;
    clearTimeout(fallback);
    arm();
    // Its failures are told by 'close' below; a listener keeps them from being thrown.
    incoming.on('error', () => {});
    const status = incoming.statusCode ?? 502;
    // Node's parser takes off the chunked coding alone, and Transfer-Encoding is hop-by-hop: the gzip of
    // `gzip, chunked` reached the app as bytes labelled as nothing. Its value is not quoted: stderr
    // is a terminal, and the field may hold any byte.
    const codings = header(incoming.headers, 'transfer-encoding');
    if (codings?.split(',').some((coding) => !/^\s*(chunked)?\s*$/i.test(coding)) === true) {
      finish();
      incoming.destroy();
      failed(
        'answered in a transfer coding besides chunked (its Transfer-Encoding), which petkit proxy does not forward, to',
      );
      sendError(
        res,
        'bad_gateway',
        "petkit proxy: the upstream's answer is in a transfer coding besides chunked, which it does not forward.",
      );
      return;
    }
    try {
      res.writeHead(status, incoming.statusMessage, {
        ...endToEnd(incoming.headers, ['via']),
        via: via(incoming.headers.via),
      });
    } catch (error) {
      // A status or header Node will not write (a status under 100): nothing of it can be forwarded.
      finish();
      incoming.destroy();
      failed(`answered what cannot be forwarded (${(error as Error).message}) to`);
      if (res.headersSent) res.destroy();
      else sendError(res, 'bad_gateway', `petkit proxy: the upstream's answer cannot be forwarded.`);
      return;
    }
    const received = captureBody(header(incoming.headers, 'content-encoding'), maxCaptureBytes);
    incoming.on('data', (chunk: Buffer) => {
      arm();
      received.add(chunk);
    });
    // While the client is slow to read, the pipe pauses the upstream: its silence is not its fault.
    incoming.on('pause', disarm);
    incoming.on('resume', arm);
    incoming.pipe(res);
    incoming.on('end', () => {
      finish();
      // The upstream answered before the request's body ended (a refusal of an Expect: 100-continue
      // request, a 413 mid-upload): the upstream request is done with, the rest of the body is read
      // and dropped, and the body sent so far is not checked as if whole.
      const early = !req.readableEnded;
      if (early) {
        req.unpipe(outgoing);
        outgoing.destroy();
        req.resume();
        sent.abandon();
      }
      const requestBody: Promise<Captured> = early
        ? Promise.resolve({ unchecked: 'the upstream answered before it ended' })
        : sent.end();
      void Promise.all([requestBody, received.end()]).then(([requestBody, responseBody]) =>
        ended({ upstreamUrl, status, responseHeaders: incoming.headers, requestBody, responseBody }),
      );
    });
    incoming.on('close', () => {
      if (incoming.complete) return;
      finish();
      sent.abandon();
      received.abandon();
      if (!res.destroyed) {
        failed(
          timedOut
            ? `said nothing for ${timeoutMs} ms in its answer to`
            : 'stopped short of the end of its answer to',
        );
      }
      // The client sees its answer cut, as the upstream's was.
      res.destroy();
    });
  });
  req.on('data', (chunk: Buffer) => {
    if (answer === undefined) arm();
    sent.add(chunk);
  });
  // A client gone before its answer ends: the upstream exchange is dropped too.
  res.on('close', () => {
    if (res.writableFinished) return;
    finish();
    sent.abandon();
    outgoing.destroy();
  });
  req.pipe(outgoing);
}

/**
 * A 103's end-to-end fields, as Node's writeEarlyHints takes them, or none without a Link to relay.
 * Each Link line is its own value (Node's headers join them with a comma, which it then refuses).
 */
function earlyHints(
  headers: IncomingHttpHeaders,
  rawHeaders: readonly string[],
): Record<string, string | string[]> | undefined {
  const hints: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(endToEnd(headers, ['via', 'set-cookie', 'link']))) {
    const text = Array.isArray(value) ? value.join(', ') : value;
    if (PLAIN_VALUE.test(text)) hints[name] = text;
  }
  const links = rawHeaders.filter((_, i) => i % 2 === 1 && rawHeaders[i - 1]?.toLowerCase() === 'link');
  const kept = links.filter((link) => PLAIN_VALUE.test(link) && link.trim() !== '');
  // A Link named by Connection is hop-by-hop, as any field it names.
  if (kept.length === 0 || endToEnd(headers).link === undefined) return undefined;
  hints.link = kept.length === 1 ? (kept[0] as string) : kept;
  const sent = via(headers.via);
  if (!PLAIN_VALUE.test(sent)) return undefined;
  hints.via = sent;
  return hints;
}

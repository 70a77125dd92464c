// Refusals the node:http adapter makes itself, over the raw socket, for what never reaches the core:
// a request Node's parser refused or did not receive in time ('clientError'), and CONNECT ('connect').
// Each is answered as the core answers everything else, a JSON Error with the CORS headers, and the
// connection is closed once it is out.
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import { loadSpec } from '../openapi/index.js';
import { type RequestTarget, targetOf } from './call.js';
import { CONTROL_PREFIX, controlMethodRefusal } from './control.js';
import { controlOffReply } from './control-guard.js';
import type { ErrorCode } from './errors.js';
import { type ApiRoutes, apiRoutesOf, methodNotAllowed, unrouted } from './refusals.js';
import { headerTooLargeReply } from './request-head.js';
import { ALLOWED_METHODS, errorReply, type Reply, reply } from './responses.js';
import { createRouter, type Router } from './router.js';

/** How long a connection answered with a transport-level error is read (and dropped) before it is cut. */
export const LINGER_MS = 1_000;

/**
 * What the refusals use of a connection (node:stream's Duplex, which Node hands to 'clientError' and
 * 'connect', has all of it). Declared here rather than imported: petkit's declarations reach this
 * file (index.d.ts re-exports LINGER_MS through node-server.d.ts), and an app's type-check must not
 * need @types/node for them (TypeScript 6 and later include no @types package unless `types` names it).
 */
export interface RawSocket {
  readonly writable: boolean;
  write(chunk: string): boolean;
  end(chunk: string): unknown;
  destroy(): unknown;
  resume(): unknown;
  once(event: 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** What the refusals need to know of the server: its timeouts, and the connections still open. */
export interface RawRefusals {
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  /** Connections answered here and still open (closed at once by close()). */
  readonly lingering: Set<RawSocket>;
  /** The mock's time (ms), which dates these answers as it dates every other. */
  readonly now: () => number;
  /** The control API is off (`--no-control`): its paths answer 404, whatever the method. */
  readonly controlOff?: boolean;
}

/**
 * What node:http keeps on a connection's socket, read here rather than tracked again per request
 * (a list per connection and a listener per response were 1 to 2 % of an answer's CPU:
 * docs/performance.md). `_httpMessage` is the response being written, or waiting its turn to be:
 * that of the oldest request read and not yet answered (node assigns each response to the socket in
 * the order the requests came, the next one when the last is finished); null when every request read
 * is answered. `parser.incoming` is the last request whose head was read (null once it is answered and
 * read whole): only it can be unfinished, as the parser reads no head before the last body is whole.
 */
interface NodeSocketState {
  readonly _httpMessage?: {
    readonly req: unknown;
    readonly headersSent: boolean;
    once(event: 'close', listener: () => void): unknown;
  } | null;
  readonly parser?: { readonly incoming: { readonly complete: boolean } | null } | null;
  readonly destroyed?: boolean;
}

/** The request read on this connection whose body is not whole, if there is one. */
function unfinishedOn(state: NodeSocketState): unknown {
  const incoming = state.parser?.incoming;
  return incoming !== null && incoming !== undefined && !incoming.complete ? incoming : undefined;
}

/**
 * Runs `then` once the answers of the requests read before `request` are written (all of them when
 * it is undefined), or the connection is gone: they go out first and in order (RFC 9112 §9.3.2).
 */
function afterAnswersBefore(state: NodeSocketState, request: unknown, then: () => void): void {
  const wait = () => {
    const current = state._httpMessage;
    // Each response's 'close' comes after node has handed the socket to the next one waiting.
    if (current === undefined || current === null || current.req === request || state.destroyed === true)
      then();
    else current.once('close', wait);
  };
  wait();
}

/** The raw bytes of a Reply, with its status line, a Date (of `now`, the mock's time) and a Content-Length. */
export function rawReply({ status, body, headers }: Reply, now: number): string {
  const head = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`, `date: ${new Date(now).toUTCString()}`];
  for (const [name, value] of Object.entries(headers)) head.push(`${name}: ${value}`);
  const text = typeof body === 'string' ? body : '';
  head.push(`content-length: ${Buffer.byteLength(text)}`);
  return `${head.join('\r\n')}\r\n\r\n${text}`;
}

/**
 * Writes `answer` and closes our side, then keeps reading until the client closes its own (at most
 * LINGER_MS): cutting a connection with unread data resets it, and the client could lose the answer.
 */
export function endWith(socket: RawSocket, answer: Reply, lingering: Set<RawSocket>, now: number): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  lingering.add(socket);
  const cut = setTimeout(() => socket.destroy(), LINGER_MS);
  cut.unref();
  socket.once('close', () => {
    clearTimeout(cut);
    lingering.delete(socket);
  });
  socket.on('error', () => socket.destroy());
  socket.end(rawReply(answer, now));
  socket.resume();
}

/**
 * 'clientError': 431 request_header_too_large (request line and headers over `maxHeaderSize`, 16 KiB
 * unless `--max-http-header-size`), 408 request_timeout, 413 for oversized chunk extensions (Node's
 * own status for them), 400 validation_failed for any other malformed request. These come from the
 * transport, before routing, so they carry no rate-limit headers.
 */
export function answerClientError(error: Error, socket: RawSocket, refusals: RawRefusals): void {
  // Node goes on parsing what the client still sends, and each chunk fails again: answered once.
  if (refusals.lingering.has(socket)) return;
  const code = (error as NodeJS.ErrnoException).code;
  const refusal =
    code === 'HPE_INVALID_METHOD'
      ? (methodRefusal(error, refusals.controlOff === true) ?? clientErrorRefusal(code, refusals))
      : code === 'HPE_INVALID_VERSION'
        ? (otherVersionRefusal(error) ?? clientErrorRefusal(code, refusals))
        : clientErrorRefusal(code, refusals);
  if (refusal === undefined || !socket.writable) {
    socket.destroy();
    return;
  }
  const answer =
    'reply' in refusal
      ? refusal.reply
      : errorReply(refusal.code, refusal.message, undefined, { connection: 'close' });
  const state = socket as RawSocket & NodeSocketState;
  // A request whose body never came whole (too slow, or its framing broken) cannot be answered: the
  // refusal is its answer. Junk or a late head after requests read whole: their answers, then this.
  const unfinished = unfinishedOn(state);
  refusals.lingering.add(socket);
  afterAnswersBefore(state, unfinished, () => {
    refusals.lingering.delete(socket);
    const current = state._httpMessage;
    if (unfinished === undefined || current === undefined || current === null) {
      endWith(socket, answer, refusals.lingering, refusals.now());
      return;
    }
    // The unfinished request's turn: its refusal, unless an answer is already under way (node's own
    // rule: nothing is written over it); either way the connection goes, its framing lost.
    if (!current.headersSent && socket.writable) socket.write(rawReply(answer, refusals.now()));
    socket.destroy();
  });
}

function clientErrorRefusal(
  code: string | undefined,
  { headersTimeoutMs, requestTimeoutMs }: RawRefusals,
): { code: ErrorCode; message: string } | { reply: Reply } | undefined {
  if (code === 'HPE_HEADER_OVERFLOW')
    return { reply: headerTooLargeReply(maxHeaderSize, { connection: 'close' }) };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return {
      code: 'request_timeout',
      message: `The request was not received in time (headers ${seconds(headersTimeoutMs)}, whole request ${seconds(requestTimeoutMs)}).`,
    };
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW')
    return { code: 'payload_too_large', message: 'The chunk extensions are too large.' };
  // `PRI * HTTP/2.0`, the preface of HTTP/2 with prior knowledge (curl --http2-prior-knowledge).
  if (code === 'HPE_PAUSED_H2_UPGRADE') return versionRefusal('HTTP/2');
  if (code?.startsWith('HPE_')) {
    const why = PARSER_FAULTS[code];
    return {
      code: 'validation_failed',
      message: `The request is not valid HTTP/1.1${why === undefined ? '' : `: ${why}`} (${code}).`,
    };
  }
  // ECONNRESET and other socket errors: nobody to answer.
  return undefined;
}

const seconds = (ms: number) => `${ms / 1000} s`;

/**
 * What the faults of Node's parser a client meets most mean, in words: the code alone
 * (`HPE_INVALID_EOF_STATE`) told a client whose body was shorter than its Content-Length nothing it
 * could act on. The code still follows, for a search.
 */
const PARSER_FAULTS: Readonly<Record<string, string>> = {
  HPE_INVALID_EOF_STATE:
    'the connection was closed before the request ended (a body shorter than its Content-Length, or a head cut short)',
  HPE_INVALID_URL:
    'its request target has a character a URL does not carry as it is (a control character, or a byte beyond ASCII: percent-encode it)',
  HPE_INVALID_CONSTANT:
    'its request line is not a method, a target and HTTP/1.1, each after one space (a space in a path is sent as %20)',
  HPE_INVALID_TRANSFER_ENCODING:
    'its Transfer-Encoding does not end in chunked, or comes beside a Content-Length (RFC 9112, section 6.1): send one of them',
  HPE_INVALID_CONTENT_LENGTH: 'its Content-Length is not a number of bytes',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'its Content-Length is given more than once, or beside Transfer-Encoding',
  HPE_INVALID_HEADER_TOKEN:
    'a header line is not "Name: value" (a name with a space or no colon, a control character in a value, or a line folded onto the next)',
  HPE_INVALID_CHUNK_SIZE: "a chunk's size is not a hexadecimal number (RFC 9112, section 7.1)",
};

/**
 * The request line the parser stopped in, as REQUEST_LINE reads it (the method, the version), found
 * back from where it stopped (requests before it on the connection are answered first); undefined
 * when it is no such line, or the parser left no trace of it.
 */
function refusedLine(error: Error): RegExpExecArray | undefined {
  const { rawPacket, bytesParsed } = error as Error & { rawPacket?: unknown; bytesParsed?: unknown };
  if (!(rawPacket instanceof Uint8Array) || typeof bytesParsed !== 'number') return undefined;
  const raw = Buffer.from(rawPacket.buffer, rawPacket.byteOffset, rawPacket.byteLength);
  // Where it stopped may be the line's own LF (a bare LF after the version): the line is before it.
  const at = Math.min(bytesParsed, raw.length - 1);
  const from = raw[at] === 0x0a ? at - 1 : at;
  // (lastIndexOf counts a negative offset from the end.)
  const start = from < 0 ? 0 : raw.lastIndexOf(0x0a, from) + 1;
  const window = raw.subarray(start, start + LINE_SCAN).toString('latin1');
  const end = window.indexOf('\n');
  return (end === -1 ? undefined : REQUEST_LINE.exec(window.slice(0, end))) ?? undefined;
}

/**
 * A request line of a version Node's parser refuses (`HTTP/1.2`, `HTTP/3.0`): 505. The parser names
 * other faults of the line as a version too (a bare LF after `HTTP/1.1`, a space after it): those
 * keep its 400, and so does a line that is no request line.
 */
function otherVersionRefusal(error: Error): { reply: Reply } | undefined {
  const version = refusedLine(error)?.[3];
  return version === undefined || version === '1.1' || version === '1.0'
    ? undefined
    : versionRefusal(`HTTP/${version}`);
}

/**
 * A request line (RFC 9112 §3) whose method is a token (RFC 9110 §9.1): its method, its target and its
 * version, in that order.
 */
const REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) ([^ \r\n]+) HTTP\/(\d\.\d)\r?$/;
/** How far a refused request line is looked for: as far as a request line may run (its target too). */
const LINE_SCAN = maxHeaderSize;

/** The API's routes, made when a method the parser does not know first needs them. */
let routing: { readonly router: Router; readonly api: ApiRoutes } | undefined;

/**
 * A request whose method Node's parser does not know (`get`, `patch`: methods are case-sensitive;
 * `FOO`; one 60 characters long), answered as the core answers the same method in process
 * (`mock.request`, MSW): on a route, 405 with that route's Allow; off the routes, 404; in the same
 * words (the method quoted to 60 characters), with `Connection: close` and no `X-RateLimit-*` (never
 * counted: it never reaches the core). The request line is the one the parser stopped in, found back
 * from where it stopped (requests before it on the connection are answered first); undefined when it
 * is no request line with a token for a method (`NOT HTTP AT ALL`, binary, a TLS handshake on the
 * plain port): the parser's 400 then.
 */
function methodRefusal(error: Error, controlOff: boolean): { reply: Reply } | undefined {
  const line = refusedLine(error);
  const method = line?.[1];
  const target = line?.[2];
  if (method === undefined || target === undefined) return undefined;
  const answer = asTheCoreAnswers(method, target, controlOff);
  answer.headers.connection = 'close';
  return { reply: answer };
}

/** What the core answers `method` (one no route has) on `target`, or the target's own refusal. */
function asTheCoreAnswers(method: string, target: string, controlOff: boolean): Reply {
  let pathname: string;
  if (target.startsWith('/')) {
    if (target.includes('#')) return fragmentReply();
    pathname = targetOf(target).pathname;
  } else {
    const other = otherFormTarget(method, target);
    if ('status' in other) return other;
    pathname = other.pathname;
  }
  if (pathname.startsWith(CONTROL_PREFIX))
    return controlOff ? controlOffReply() : controlMethodRefusal(method, pathname);
  if (routing === undefined) {
    const spec = loadSpec();
    routing = { router: createRouter(spec), api: apiRoutesOf(spec) };
  }
  const route = routing.router.match(method, pathname);
  // A method the parser does not know is no route's, nor OPTIONS: never served.
  if (route.kind === 'operation' || route.kind === 'preflight')
    return methodNotAllowed(method, ALLOWED_METHODS);
  return unrouted(route, method, pathname, routing.api);
}

/** 'connect': the mock is an origin server, not a proxy; a CONNECT tunnel is refused with 405. */
export function answerConnect(socket: RawSocket, lingering: Set<RawSocket>, now: number): void {
  endWith(
    socket,
    errorReply(
      'method_not_allowed',
      `CONNECT is not allowed: the mock is not a proxy; use ${ALLOWED_METHODS}.`,
      undefined,
      { allow: ALLOWED_METHODS, connection: 'close' },
    ),
    lingering,
    now,
  );
}

/**
 * A request of an HTTP version the mock does not speak (RFC 9110 §15.6.6): HTTP/2.0 and HTTP/0.9,
 * which Node's parser reads and would have served as 1.1, and any other, which it refuses.
 */
export function versionRefusal(shown: string): { reply: Reply } {
  const message = `${shown} is not supported: the mock speaks HTTP/1.1 (and HTTP/1.0); send the request as HTTP/1.1.`;
  return {
    reply: errorReply('http_version_not_supported', message, undefined, { connection: 'close' }),
  };
}

/** An HTTP/1.1 request without Host (RFC 9112 §3.2): refused before the core, as Node would, but in JSON. */
export const missingHostReply = (): Reply =>
  errorReply(
    'validation_failed',
    'An HTTP/1.1 request must carry a Host header (RFC 9112, section 3.2).',
    undefined,
    {
      connection: 'close',
    },
  );

/** A request with more than one Host line (RFC 9112 §3.2: a server MUST answer it 400). */
export const duplicateHostReply = (count: number): Reply =>
  errorReply(
    'validation_failed',
    `A request must carry one Host header, not ${count} (RFC 9112, section 3.2).`,
    undefined,
    { connection: 'close' },
  );

export { expectationReply, MAX_HEADER_LINES, tooManyHeaderLinesReply } from './request-head.js';

/** An absolute-form request target (RFC 9112 §3.2.2): its scheme, its authority, then its path and query as sent. */
const ABSOLUTE_FORM = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)(.*)$/s;
/** A host (a name, IPv4, or an IP literal in brackets) and an optional port (empty: the default, RFC 3986 §3.2.3). */
const HOST_PORT = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~!$&'()*+,;=%-]+)(?::(\d{0,5}))?$/;

/**
 * The target of a request whose target is not origin-form (`/v1/pets?limit=2`): an absolute-form
 * one's path and query as sent, as origin-form's are (a URL parse resolved `/v1/pets/../pets/1`,
 * `%2e%2e` and backslashes, serving what the same path in origin-form is refused), or the answer
 * the request gets instead: `OPTIONS *` what the server allows (RFC 9110 §9.3.7), a 400 for another
 * scheme, a host that is not one, credentials (never quoted) or any other form.
 */
export function otherFormTarget(method: string | undefined, target: string): RequestTarget | Reply {
  if (target === '*') {
    return method === 'OPTIONS'
      ? reply(204, null, { allow: ALLOWED_METHODS })
      : targetRefusal('The request target * is for OPTIONS only (RFC 9112, section 3.2.4).');
  }
  const absolute = ABSOLUTE_FORM.exec(target);
  if (absolute === null)
    return targetRefusal(
      'The request target must be a path (/v1/pets) or an absolute URL (http://host/v1/pets).',
    );
  const [, scheme = '', authority = '', rest = ''] = absolute;
  const lower = scheme.toLowerCase();
  if (lower !== 'http' && lower !== 'https')
    return targetRefusal(
      `The request target's scheme must be http or https, not ${JSON.stringify(scheme.slice(0, 20))}.`,
    );
  // RFC 9110 §4.2.4: userinfo in an http(s) URI is an error; it may be a key, so it is never quoted.
  if (authority.includes('@'))
    return targetRefusal(
      'The request target carries credentials (user:password@); send them in Authorization.',
    );
  const host = HOST_PORT.exec(authority);
  if (host === null || Number(host[1] ?? 0) > 65_535)
    return targetRefusal("The request target's host is not valid.");
  if (rest.includes('#')) return fragmentReply();
  return targetOf(rest.startsWith('/') ? rest : `/${rest}`);
}

/** An absolute-form target's authority (`host[:port]`), as sent; undefined for any other form. */
export function authorityOf(target: string): string | undefined {
  return ABSOLUTE_FORM.exec(target)?.[2];
}

/**
 * A request target with a fragment (`/v1/pets#top`): a fragment is the client's alone, never sent
 * (RFC 9110 §4.2.5; RFC 9112 §3.2 has none in a request target). It was answered as the path with the
 * `#` in it, a 404 route_not_found that named a path the client had not meant. fetch, MSW and
 * mock.request drop it before the request is made, as a browser does: only a raw client sends one.
 */
export const fragmentReply = (): Reply =>
  targetRefusal(
    'The request target carries a fragment (a # and what follows it), which a client keeps to itself and never sends (RFC 9110, section 4.2.5): send the path and query alone, or %23 for a # in them.',
  );

const targetRefusal = (message: string): Reply =>
  errorReply('validation_failed', message, undefined, { connection: 'close' });

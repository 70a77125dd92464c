// Every Error the proxy answers on its own, by stable code: the refusals of a request it will not
// forward, the control API's, and what it says for an upstream that failed. The body is the API's
// Error shape ({ code, message, status }), so an app reads it as it reads the backend's.
import { type ServerResponse, STATUS_CODES } from 'node:http';

export const PROXY_ERRORS = {
  /** A request target that is not a path under the upstream (absolute-form elsewhere, `//`, `\`, …). */
  invalid_target: 400,
  /** A request Node's HTTP parser refused. */
  invalid_request: 400,
  /** A control request whose Host does not name the proxy (DNS rebinding): control-guard.ts. */
  host_not_allowed: 403,
  /** A control request from a web page of another site: control-guard.ts. */
  origin_not_allowed: 403,
  route_not_found: 404,
  method_not_allowed: 405,
  /** The request was not received in time. */
  request_timeout: 408,
  /** The request line and headers are over Node's limit. */
  request_header_too_large: 431,
  /**
   * A request body in a transfer coding besides chunked (`Transfer-Encoding: gzip, chunked`): Node
   * reads only the chunks, so the upstream would get the coded bytes with nothing to say what they are.
   */
  unsupported_transfer_coding: 501,
  /** The upstream could not be reached, or answered what cannot be forwarded. */
  bad_gateway: 502,
  /** The upstream said nothing for `upstreamTimeoutMs`. */
  upstream_timeout: 504,
  /**
   * The request has come through a petkit proxy MAX_PETKIT_HOPS times (its Via): the upstream leads
   * back to one, and each pass would forward it again.
   */
  loop_detected: 508,
} as const;

export type ProxyErrorCode = keyof typeof PROXY_ERRORS;

function errorText(code: ProxyErrorCode, message: string): string {
  return JSON.stringify({ code, message, status: PROXY_ERRORS[code] });
}

/**
 * Answers a JSON Error on a response whose head is not yet sent. Its reason phrase is named: a
 * writeHead that threw has left the upstream's on `res` (Node sets it before checking it), and one
 * holding a control character threw again here, out of the exchange, and stopped the process.
 */
export function sendError(
  res: ServerResponse,
  code: ProxyErrorCode,
  message: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  const text = errorText(code, message);
  const status = PROXY_ERRORS[code];
  res.writeHead(status, STATUS_CODES[status] ?? '', {
    ...headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** The same Error as raw bytes, for a socket Node's parser gave up on; the connection then closes. */
export function rawError(code: ProxyErrorCode, message: string): string {
  const status = PROXY_ERRORS[code];
  const text = errorText(code, message);
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
    'content-type: application/json\r\n' +
    `content-length: ${Buffer.byteLength(text)}\r\n` +
    'connection: close\r\n\r\n' +
    text
  );
}

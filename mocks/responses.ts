// Building answers: the constant headers are built once here, per-request work is a few fields.
import type { ApiError, ErrorDetail } from '../openapi/index.js';
import type { NetworkFault } from './control-types.js';
import { type ErrorCode, errorBody } from './errors.js';
import type { RateDecision } from './state.js';

/** An answer before it becomes a Response (HEAD drops the body there). */
export interface Reply {
  status: number;
  /**
   * JSON text, or bytes already encoded (a cached list page, an Error body with its code's own
   * message: not encoded again per request). Bytes are shared by every answer that carries them:
   * read them, copy them to change them.
   */
  body: string | Uint8Array<ArrayBuffer> | null;
  headers: Record<string, string>;
  /**
   * Break the connection instead (a rule's fault). In process it is a network error; over node:http
   * each fault its own way. A `truncated` reply keeps its status, headers and body (half is sent).
   */
  fault?: NetworkFault;
  /** A body written as it comes (the control API's events); `body` is null then. */
  stream?: ReadableStream<Uint8Array>;
}

export const ALLOWED_METHODS = 'GET, HEAD, POST, OPTIONS';
export const ALLOWED_REQUEST_HEADERS = 'Authorization, Content-Type, Prefer';
export const EXPOSED_HEADERS =
  'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, Location, Sunset, Deprecation, Link, WWW-Authenticate, Preference-Applied';
export const PREFLIGHT_MAX_AGE = '600';
export const JSON_TYPE = 'application/json';

export const SUNSET = 'Thu, 05 Dec 2030 00:00:00 GMT';
/** RFC 9745: deprecated since 1 January 2025 (petkit's decision, see openapi.yaml). */
export const DEPRECATION = '@1735689600';
export const SUCCESSOR_LINK = '</v1/pets>; rel="successor-version"';

export const CHALLENGE = 'Bearer realm="pets"';
export const INVALID_TOKEN_CHALLENGE = 'Bearer realm="pets", error="invalid_token"';

/** Headers every answer carries (CORS for browser apps). */
function baseHeaders(): Record<string, string> {
  return {
    'access-control-allow-origin': '*',
    'access-control-expose-headers': EXPOSED_HEADERS,
  };
}

export function reply(
  status: number,
  body: string | Uint8Array<ArrayBuffer> | null,
  extra?: Record<string, string>,
): Reply {
  const headers = baseHeaders();
  if (body !== null) headers['content-type'] = JSON_TYPE;
  if (extra !== undefined) Object.assign(headers, extra);
  return { status, body, headers };
}

/**
 * The Error bodies that never vary (a code's own message, no details), each encoded once and answered
 * as the same bytes, as a cached list page is: node:http writes them as they are and the journal
 * keeps them by reference, where a string was encoded again for every answer (the 401 of each
 * request without a key). At most one per error code.
 */
const CONSTANT_ERRORS = new Map<
  ErrorCode,
  { readonly status: number; readonly bytes: Uint8Array<ArrayBuffer> }
>();
const UTF8 = new TextEncoder();

export function errorReply(
  code: ErrorCode,
  message?: string,
  details?: readonly ErrorDetail[],
  extra?: Record<string, string>,
): Reply {
  if (message === undefined && (details === undefined || details.length === 0)) {
    let constant = CONSTANT_ERRORS.get(code);
    if (constant === undefined) {
      const body = errorBody(code);
      constant = { status: body.status, bytes: UTF8.encode(errorJson(body)) };
      CONSTANT_ERRORS.set(code, constant);
    }
    return reply(constant.status, constant.bytes, extra);
  }
  const body = errorBody(code, message, details);
  return reply(body.status, errorJson(body), extra);
}

/**
 * `JSON.stringify` of an Error body, written out field by field: the same text (a test holds them
 * equal), at a third less CPU, on the path every 400, 401 and 429 takes.
 */
export function errorJson(body: ApiError): string {
  let json = `{"code":${JSON.stringify(body.code)},"message":${JSON.stringify(body.message)},"status":${body.status}`;
  if (body.details !== undefined) {
    json += ',"details":[';
    for (let i = 0; i < body.details.length; i += 1) {
      const detail = body.details[i] as ErrorDetail;
      json += `${i === 0 ? '' : ','}{"path":${JSON.stringify(detail.path)},"message":${JSON.stringify(detail.message)}}`;
    }
    json += ']';
  }
  return `${json}}`;
}

/** The window's headers; a 429 (limited, or forced by `Prefer: code=429`) says none remain. */
export function addRateHeaders(target: Reply, decision: RateDecision): Reply {
  target.headers['x-ratelimit-limit'] = String(decision.limit);
  target.headers['x-ratelimit-remaining'] = target.status === 429 ? '0' : String(decision.remaining);
  target.headers['x-ratelimit-reset'] = String(decision.reset);
  return target;
}

export function addDeprecationHeaders(target: Reply): Reply {
  target.headers.sunset = SUNSET;
  target.headers.deprecation = DEPRECATION;
  target.headers.link = SUCCESSOR_LINK;
  return target;
}

/** A comma-separated list of header names (RFC 9110 tokens), as a browser sends in a preflight. */
const HEADER_NAME_LIST = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:[ \t]*,[ \t]*[!#$%&'*+.^_`|~0-9A-Za-z-]+)*$/;

/**
 * The CORS preflight. Browser apps add their own headers (`traceparent`, `sentry-trace`,
 * `x-request-id`, …), so it allows the headers the browser asks for in
 * `Access-Control-Request-Headers` (`*` would not cover `Authorization`), and says with `Vary` that
 * the answer depends on them. Without that request header, or with one that is not a list of header
 * names, it allows the API's own: `Authorization, Content-Type, Prefer`.
 */
export function preflightReply(allow: string, requestedHeaders: string | null = null): Reply {
  const requested = requestedHeaders?.trim() ?? '';
  return reply(204, null, {
    allow,
    'access-control-allow-methods': allow,
    'access-control-allow-headers': HEADER_NAME_LIST.test(requested)
      ? requested
          .split(',')
          .map((name) => name.trim())
          .join(', ')
      : ALLOWED_REQUEST_HEADERS,
    'access-control-max-age': PREFLIGHT_MAX_AGE,
    vary: 'Access-Control-Request-Headers',
  });
}

/**
 * The Response of a reply. A fault, any of them (`hang` included: nothing would ever come), is
 * `Response.error()`, which fetch callers and MSW's interceptors see as a network error.
 */
export function toResponse(answer: Reply, head: boolean): Response {
  if (answer.fault !== undefined) return Response.error();
  const body = head ? null : (answer.stream ?? answer.body);
  return new Response(body, { status: answer.status, headers: answer.headers });
}

// The answers that refuse a call before its operation runs, one function each, in the order the
// pipeline asks them (mock.ts): off the routes (404, 405), forced by a rule, limited (429), forced by
// `Prefer: code=`, unauthorised (401). Each answers undefined when it has nothing to refuse. The common headers
// (rate limits, deprecation, Preference-Applied) are added after, by the pipeline's last step.
import type { OperationSpec, Spec } from '../openapi/index.js';
import type { Authentication } from './auth.js';
import { ERRORS, FORCED_CODES, STATE_RETRY_AFTER } from './errors.js';
import { CHALLENGE, errorReply, INVALID_TOKEN_CHALLENGE, type Reply } from './responses.js';
import type { RouteMatch } from './router.js';
import type { RateDecision } from './state.js';

/** The control page's path without its last `/`, which a browser's address bar is often given. */
const CONTROL_PAGE = '/__petkit';

/** The most characters of a path or a method a message repeats: a 15 KB path made a 15 KB 404. */
const SHOWN_LENGTH = 60;

/** A path or method as a message repeats it: whole up to 60 characters, else its start and `...`. */
export function shown(text: string): string {
  return text.length > SHOWN_LENGTH ? `${text.slice(0, SHOWN_LENGTH - 3)}...` : text;
}

/** What a 404 off the API's routes says of it: its base path, and its routes. */
export interface ApiRoutes {
  readonly basePath: string;
  readonly routes: string;
}

export function apiRoutesOf(spec: Spec): ApiRoutes {
  return {
    basePath: spec.basePath,
    routes: spec.operations.map((o) => `${o.method} ${spec.basePath}${o.path}`).join(', '),
  };
}

/**
 * 405 for a method the path lacks, in the words of every door: the core (the API, the control API),
 * and the server for a method its parser does not know (`FOO`, `patch`), which never reaches the core.
 * A method in lower case is told that case counts (`patch` is not `PATCH`).
 */
export function methodNotAllowed(method: string, allow: string): Reply {
  const cased = method === method.toUpperCase() ? '' : ' (a method is case-sensitive)';
  const message = `${shown(method)} is not allowed here; use ${allow}${cased}.`;
  return errorReply('method_not_allowed', message, undefined, { allow });
}

/** 404 for no route (listing the routes when under the base path), 405 for a method the path lacks. */
export function unrouted(
  route: Extract<RouteMatch, { kind: 'not_found' | 'method_not_allowed' }>,
  method: string,
  pathname: string,
  api: ApiRoutes,
): Reply {
  if (route.kind === 'method_not_allowed') return methodNotAllowed(method, route.allow);
  const request = `${shown(method)} ${shown(pathname)}`;
  return errorReply(
    'route_not_found',
    route.underBase
      ? `No route ${request}. The routes: ${api.routes}.`
      : pathname === CONTROL_PAGE
        ? `No route ${request}; the API is under ${api.basePath}, and the mock's page at ${CONTROL_PAGE}/ (with the last /).`
        : `No route ${request}; the API is under ${api.basePath}.`,
  );
}

/** `1 request`, `60 requests`. */
export const requests = (n: number): string => `${n} ${n === 1 ? 'request' : 'requests'}`;

/**
 * 429 when the rate limiter said no: limited for the window, or banned (a key only). A caller
 * without a valid key is told so: its limit is its address's, and a key is the way out.
 */
export function tooMany(decision: RateDecision, auth: Authentication): Reply | undefined {
  if (decision.allowed) return undefined;
  const retry = { 'retry-after': String(decision.retryAfter) };
  const rate = `${requests(decision.limit)} per ${decision.window}`;
  if (auth.kind !== 'ok') {
    return errorReply(
      'rate_limited',
      `No valid API key was sent, and requests without one are limited per address: ${rate} from this address. Send "Authorization: Bearer <key>", or retry in ${decision.retryAfter} s.`,
      undefined,
      retry,
    );
  }
  if (decision.banned) {
    return errorReply(
      'api_key_banned',
      `Banned for too many requests while limited. Retry in ${decision.retryAfter} s.`,
      undefined,
      retry,
    );
  }
  return errorReply(
    'rate_limited',
    `Rate limit of ${rate} exceeded. Retry in ${decision.retryAfter} s.`,
    undefined,
    retry,
  );
}

/**
 * The documented error a `Prefer: code=NNN` (Prism's convention) or a rule asks for, well-formed,
 * with the headers its status carries: a 401 its challenge, a 429 its Retry-After until the window's
 * end. `rule`: the id of the rule that forced it; undefined: `Prefer` did (and Preference-Applied says so).
 */
export function forced(
  code: number | undefined,
  operation: OperationSpec,
  auth: Authentication,
  decision: RateDecision,
  rule?: string,
): Reply | undefined {
  if (code === undefined || code < 400 || !operation.responses.has(String(code))) return undefined;
  const missing = code === 401 && auth.kind === 'missing';
  const errorCode = missing ? 'missing_api_key' : (FORCED_CODES.get(code) ?? 'internal_error');
  const by = rule === undefined ? `Prefer: code=${code}` : `rule ${rule}`;
  const message = `${ERRORS[errorCode].message} (Forced by ${by}.)`;
  const extra: Record<string, string> = {};
  if (rule === undefined) extra['preference-applied'] = `code=${code}`;
  if (code === 401) extra['www-authenticate'] = missing ? CHALLENGE : INVALID_TOKEN_CHALLENGE;
  if (code === 429) extra['retry-after'] = String(decision.retryAfter);
  if (code === 503) extra['retry-after'] = STATE_RETRY_AFTER;
  return errorReply(errorCode, message, undefined, extra);
}

/**
 * 401 without a valid key, with the challenge RFC 6750 asks for; 400 for more than one credential
 * (RFC 6750 §3.1), whose message says so where a 401 said only that the key was not valid.
 */
export function unauthorized(auth: Authentication): Reply | undefined {
  if (auth.kind === 'ok') return undefined;
  if (auth.kind === 'missing') {
    const message =
      auth.sent === undefined
        ? undefined
        : `An API key is required, sent as "Authorization: Bearer <API_KEY>"; this request sent ${auth.sent}.`;
    return errorReply('missing_api_key', message, undefined, { 'www-authenticate': CHALLENGE });
  }
  if (auth.kind === 'repeated')
    return errorReply(
      'validation_failed',
      `The request carries ${auth.count} credentials in Authorization (the header sent more than once, or several values in one), and which one is meant is unknown; send one, "Authorization: Bearer <API_KEY>".`,
      undefined,
      { 'www-authenticate': INVALID_REQUEST_CHALLENGE },
    );
  return errorReply('invalid_api_key', undefined, undefined, { 'www-authenticate': INVALID_TOKEN_CHALLENGE });
}

/** RFC 6750 §3.1: a request with more than one credential is `invalid_request`, answered 400. */
const INVALID_REQUEST_CHALLENGE = 'Bearer realm="pets", error="invalid_request"';

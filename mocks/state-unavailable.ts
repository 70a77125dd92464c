// The answer while a mock's shared state is lost (its database unreachable): 503
// `state_unavailable`, an Error body, Retry-After. The rate limiter is in the lost database too, so
// the request is not counted; openapi.yaml still has every response of an operation carry the
// X-RateLimit-* headers, and these say the least a client may assume: the key's minute limit, none
// remaining, the current minute's end. A deprecated operation's answer keeps its deprecation headers.
import type { Limits, OperationSpec } from '../openapi/index.js';
import { STATE_RETRY_AFTER } from './errors.js';
import { MINUTE_MS } from './rate-limiter.js';
import { addDeprecationHeaders, addRateHeaders, errorReply, type Reply } from './responses.js';

/**
 * The 503 for a call to `operation` (undefined: off the routes, or the control API) at `now`; `told`:
 * what the engine says in place of the default message (its tables damaged, and what to do).
 */
export function stateUnavailableReply(
  operation: OperationSpec | undefined,
  limits: Limits | undefined,
  now: number,
  told?: string,
): Reply {
  const reply = errorReply('state_unavailable', told, undefined, { 'retry-after': STATE_RETRY_AFTER });
  if (limits === undefined) return reply;
  const reset = (Math.floor(now / MINUTE_MS) + 1) * (MINUTE_MS / 1000);
  addRateHeaders(reply, {
    allowed: false,
    banned: false,
    window: 'minute',
    limit: limits.perMinute,
    remaining: 0,
    reset,
    retryAfter: Number(STATE_RETRY_AFTER),
  });
  if (operation?.deprecated === true) addDeprecationHeaders(reply);
  return reply;
}

// A model of the key's rate-limit window, kept from the X-RateLimit-* headers of the key's own
// responses in the order they came: within one window (same Limit, same Reset) Remaining falls by at
// least one per counted request (by more when another client spends the same key: a shared staging
// key; the rate-limit probe keeps the exact count), and Reset does not move before the window has ended. A response that
// contradicts the model is a finding of response_headers_conformance; each kind of contradiction is
// reported once. Responses to requests that overlapped others (concurrent creates) say nothing of
// the order they were counted in: they only move the model on, as does a request without the key
// that the target served anyway.
import { BAN_AFTER, headerInteger } from '../../openapi/index.js';
import type { Exchange } from '../exchange.js';
import type { FindingInput } from '../finding.js';
import type { WindowReading } from './types.js';

/** Allowance for the server's clock against ours, as in the per-response check. */
export const CLOCK_SKEW_S = 300;

/** How far from ours a Date may be and still be read as the server's clock: a day. */
const DATE_AS_CLOCK_S = 86_400;

interface WindowState {
  readonly limit: number;
  readonly remaining: number;
  readonly reset: number;
}

/** Whether a request was sent with the run's key, in a spelling the contract accepts (its credential class). */
export function sentWithKey(exchange: Exchange): boolean {
  return exchange.credential === 'key';
}

export interface WindowModel {
  /** The contradiction this response shows, if any (each kind once per run). */
  observe(exchange: Exchange, overlapped: boolean, nowMs: number): Omit<FindingInput, 'check'> | undefined;
  /** The key's window as its last response showed it (undefined before one, or after a doubt). */
  reading(): WindowReading | undefined;
}

/** The cause of a ban the window shows to be groundless (run.ts ends the run on it, with this finding). */
export const GROUNDLESS_BAN = 'a ban in a window that served the key and was not used up';

/** An Error body's `code`, or undefined. */
function codeOf(body: string): unknown {
  try {
    return (JSON.parse(body) as { code?: unknown } | null)?.code;
  } catch {
    return undefined;
  }
}

export function createWindowModel(): WindowModel {
  let last: WindowState | undefined;
  let seen: WindowState | undefined;
  /** The last window that served a request of the key, and when that answer came. */
  let served: (WindowState & { readonly sentSeq: number; readonly answeredSeq: number }) | undefined;
  const reported = new Set<string>();
  const once = (kind: string, finding: Omit<FindingInput, 'check'>) => {
    if (reported.has(kind)) return undefined;
    reported.add(kind);
    return finding;
  };
  return {
    reading: () =>
      seen === undefined
        ? undefined
        : { limit: seen.limit, remaining: seen.remaining, resetMs: seen.reset * 1000 },
    observe(exchange, overlapped, nowMs) {
      const response = exchange.response;
      if (response === null) return undefined;
      if (!sentWithKey(exchange)) {
        // Refused, it was counted elsewhere (the address's bucket); served, the target took it for
        // the key's (auth_enforced's finding) and counted it there: the count so far says nothing more.
        if (response.status !== 401 && response.status !== 429) last = undefined;
        return undefined;
      }
      // A 401 to the key means the target did not take it for the key: it counted it elsewhere, if at all.
      if (response.status === 401) {
        last = undefined;
        return undefined;
      }
      const limit = headerInteger(response.headers['x-ratelimit-limit']);
      const remaining = headerInteger(response.headers['x-ratelimit-remaining']);
      const reset = headerInteger(response.headers['x-ratelimit-reset']);
      if (limit === undefined || remaining === undefined || reset === undefined) return undefined;
      // A ban begins only after more than BAN_AFTER requests while limited within one window. The key
      // was served in this window after its answer, so not banned then; and the window still has
      // requests left, so the key was never limited in it since (Remaining only falls within a window,
      // whoever spends it): no ban can have begun.
      if (response.status === 429 && codeOf(response.body) === 'api_key_banned') {
        const window = served;
        if (
          remaining > 0 &&
          window !== undefined &&
          window.answeredSeq < exchange.sentSeq &&
          window.limit === limit &&
          window.reset === reset
        )
          return once('groundless ban', {
            severity: 'error',
            instancePath: '/headers/X-RateLimit-Remaining',
            schemaPath: '#/components/responses/TooManyRequests/description',
            cause: GROUNDLESS_BAN,
            message: `429 api_key_banned with X-RateLimit-Remaining ${remaining} in the window (Reset ${reset}) that served request ${window.sentSeq} before this one left: the key was not limited in that window, so no ban began in it`,
            expected: `a ban only after more than ${BAN_AFTER} requests while limited within one window (X-RateLimit-Remaining 0 there)`,
          });
      } else if (response.status !== 429) {
        served = { limit, remaining, reset, sentSeq: exchange.sentSeq, answeredSeq: exchange.answeredSeq };
      }
      const previous = last;
      seen = { limit, remaining, reset };
      // An overlapped response's count may not be the last one the target made: start again after it.
      last = overlapped ? undefined : { limit, remaining, reset };
      if (previous === undefined || overlapped || previous.limit !== limit) return undefined;
      // The server's time: its Date header (and Age), on the clock its Reset is on (minutes fast or
      // slow: a staging host's clock), unless that is more than a day from ours (no clock, but a
      // broken header); then ours.
      const nowS = Math.floor(nowMs / 1000);
      const dateMs = Date.parse(response.headers.date ?? '');
      // An answer a cache kept was dated when it was made: its Age (RFC 9111 §5.1) says how long ago.
      const ageS = headerInteger(response.headers.age) ?? 0;
      const dateS = Number.isNaN(dateMs) ? nowS : Math.floor(dateMs / 1000) + ageS;
      const serverS = Math.abs(dateS - nowS) <= DATE_AS_CLOCK_S ? dateS : nowS;
      if (previous.reset !== reset) {
        if (serverS < previous.reset && reset !== previous.reset) {
          return once('moved', {
            severity: 'error',
            instancePath: '/headers/X-RateLimit-Reset',
            schemaPath: '#/components/headers/X-RateLimit-Reset/description',
            message: `X-RateLimit-Reset moved from ${previous.reset} to ${reset} before that window ended (X-RateLimit-Limit ${limit})`,
            expected: `X-RateLimit-Reset ${previous.reset} until that time: the end of a window does not move`,
          });
        }
        return undefined;
      }
      // At most one less: other clients of the key may have spent more of it meanwhile.
      const most = Math.max(0, previous.remaining - 1);
      if (remaining > most) {
        return once('remaining', {
          severity: 'error',
          instancePath: '/headers/X-RateLimit-Remaining',
          schemaPath: '#/components/headers/X-RateLimit-Remaining/description',
          message: `X-RateLimit-Remaining ${remaining} after ${previous.remaining} in the same window (Reset ${reset}), one request later`,
          expected: `X-RateLimit-Remaining ${most} or less: at least one less per request counted in the window (less still when another client spends the key)`,
        });
      }
      return undefined;
    },
  };
}

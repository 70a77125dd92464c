// rate_limit_behaviour (opt-in, --probe-rate-limit): exhausting the window on purpose gives exactly as
// many successes as the first X-RateLimit-Remaining announced, then a 429 that is a full documented
// Error (rate_limited) with Retry-After and X-RateLimit-Remaining 0, and the target answers again at
// the time Retry-After announced. Exactly one request is sent while limited, far from any ban.
import { headerInteger, mediaTypeOf, type OperationSpec } from '../../openapi/index.js';
import type { CheckId } from '../checks.js';
import { type Context, INCONCLUSIVE, type Verdict } from '../context.js';
import type { Exchange } from '../exchange.js';
import { CLOCK_SKEW_S } from '../model/window.js';
import { record } from '../requests.js';

/** The probe exhausts at most this many requests; a larger window is not probed. */
export const PROBE_MAX_REQUESTS = 1000;
/** The longest Retry-After the probe waits out. */
export const PROBE_MAX_WAIT_S = 120;

/** The probes' request, `GET /pets?limit=1`, never retried (a 429 is what a probe wants to see). */
export function probeSender(context: Context, operation: OperationSpec) {
  return (pace: boolean) =>
    context.send(
      { operationId: operation.id, method: 'GET', path: operation.path, query: { limit: '1' } },
      { retry: false, pace },
    );
}

export async function rateLimitScenario(context: Context): Promise<void> {
  if (!context.selected('rate_limit_behaviour') || !context.tested('listPets')) return;
  const operation = context.spec.operation('listPets');
  const send = probeSender(context, operation);
  const first = await send(true);
  const remaining = headerInteger(first.response?.headers['x-ratelimit-remaining']);
  if (remaining === undefined) {
    const fail: Verdict = {
      kind: 'fail',
      exchange: first,
      message: 'no X-RateLimit-Remaining to know how far the window goes',
      expected: 'X-RateLimit-Remaining: an integer',
    };
    record(context, 'rate_limit_behaviour', operation.id, fail);
    return;
  }
  if (remaining > PROBE_MAX_REQUESTS) {
    context.note(
      'rate_limit_behaviour',
      operation.id,
      `the window has ${remaining} requests left; the probe exhausts at most ${PROBE_MAX_REQUESTS} (use a key with a smaller plan)`,
    );
    return;
  }
  const reset = first.response?.headers['x-ratelimit-reset'];
  let limited: Exchange | undefined;
  let last = first;
  let successes = 0;
  for (let i = 0; i <= remaining + 1 && limited === undefined; i += 1) {
    last = await send(false);
    if (last.response?.status === 429) limited = last;
    else if (last.response !== null && last.response.status < 400) successes += 1;
    if (limited === undefined && last.response?.headers['x-ratelimit-reset'] !== reset) {
      context.note(
        'rate_limit_behaviour',
        operation.id,
        'the window ended while the probe ran (X-RateLimit-Reset changed): run it again',
      );
      return;
    }
  }
  if (limited === undefined || limited.response === null) {
    record(context, 'rate_limit_behaviour', operation.id, {
      kind: 'fail',
      exchange: last,
      message: `no 429 after ${remaining + 2} requests, with X-RateLimit-Remaining ${remaining} at the start`,
      expected: '429 once the window is used up',
    });
    return;
  }
  // The window holds exactly what it announced: Remaining N means N more requests, then the 429.
  if (successes !== remaining) {
    record(context, 'rate_limit_behaviour', operation.id, {
      kind: 'fail',
      exchange: limited,
      message: `${successes} requests succeeded before the first 429, where X-RateLimit-Remaining announced ${remaining}`,
      expected: `${remaining} successes, then 429`,
    });
    return;
  }
  const error = errorVerdict(context, 'rate_limit_behaviour', limited, 'rate_limited');
  if (error !== null) {
    record(context, 'rate_limit_behaviour', operation.id, error);
    return;
  }
  const headers = limited.response.headers;
  const retryAfter = headers['retry-after'];
  const wait = headerInteger(retryAfter);
  if (wait === undefined || wait < 1) {
    if (retryAfterOffDocument(operation, limited)) {
      context.unverified(
        'rate_limit_behaviour',
        operation.id,
        retryAfterReason(limited, 'the target answers again'),
      );
      return;
    }
    record(context, 'rate_limit_behaviour', operation.id, {
      kind: 'fail',
      exchange: limited,
      message: `the 429 has Retry-After: ${retryAfter ?? '(none)'}`,
      expected: 'Retry-After: whole seconds, at least 1',
    });
    return;
  }
  if (headers['x-ratelimit-remaining']?.trim() !== '0') {
    record(context, 'rate_limit_behaviour', operation.id, {
      kind: 'fail',
      exchange: limited,
      message: `the 429 has X-RateLimit-Remaining: ${headers['x-ratelimit-remaining'] ?? '(none)'}`,
      expected: 'X-RateLimit-Remaining: 0',
    });
    return;
  }
  const endsIn = windowEndsIn(headers, context.now());
  if (endsIn !== undefined && wait > endsIn.seconds + endsIn.slack) {
    record(context, 'rate_limit_behaviour', operation.id, {
      kind: 'fail',
      exchange: limited,
      message:
        `Retry-After: ${retryAfter} asks to wait ${wait} s, but the window ends in ${endsIn.seconds} s ` +
        `(X-RateLimit-Reset ${headers['x-ratelimit-reset']}, ${endsIn.from})` +
        (Math.abs(wait - endsIn.seconds * 1000) <= 1000 ? ': Retry-After in milliseconds?' : ''),
      expected: `Retry-After: the seconds until the window ends, ${endsIn.seconds} (at most ${endsIn.seconds + endsIn.slack})`,
      instancePath: '/headers/Retry-After',
      cause: 'Retry-After past the end of the window',
    });
    return;
  }
  if (wait > PROBE_MAX_WAIT_S) {
    context.note(
      'rate_limit_behaviour',
      operation.id,
      `Retry-After is ${wait} s; the probe waits at most ${PROBE_MAX_WAIT_S} s`,
    );
    return;
  }
  // Recovery at the announced time: not a moment later.
  await context.sleep(wait * 1000);
  const after = await send(false);
  if (after.response?.status === 429 || after.response === null) {
    record(context, 'rate_limit_behaviour', operation.id, {
      kind: 'fail',
      exchange: after,
      message: `still ${after.response?.status ?? after.failure?.message} after waiting Retry-After (${wait} s), at the time it announced`,
      expected: 'the target answers again at the time Retry-After announced',
    });
    return;
  }
  record(context, 'rate_limit_behaviour', operation.id, { kind: 'pass' });
}

/** The longest window the API has: a day. */
const LONGEST_WINDOW_S = 86_400;

/**
 * In how many seconds the window a 429 describes (X-RateLimit-Remaining 0) ends, by its
 * X-RateLimit-Reset: from the 429's own Date (the target's clock; Retry-After is rounded up to whole
 * seconds, so 1 s of slack), else from ours (give or take CLOCK_SKEW_S). A Retry-After past that keeps a
 * client waiting after the window has reset, as one in milliseconds would. Undefined when the Reset is no
 * current window's end (in the past, or past a day: response_headers_conformance's finding).
 */
function windowEndsIn(
  headers: Readonly<Record<string, string>>,
  nowMs: number,
): { seconds: number; slack: number; from: string } | undefined {
  const reset = headerInteger(headers['x-ratelimit-reset']);
  if (reset === undefined) return undefined;
  const dateMs = Date.parse(headers.date ?? '');
  const dated = !Number.isNaN(dateMs);
  const seconds = reset - Math.floor((dated ? dateMs : nowMs) / 1000);
  if (seconds < 0 || seconds > LONGEST_WINDOW_S) return undefined;
  return dated
    ? { seconds, slack: 1, from: "after the 429's Date" }
    : { seconds, slack: CLOCK_SKEW_S, from: `by our clock, give or take ${CLOCK_SKEW_S} s` };
}

/**
 * Whether a 429's Retry-After is off what the document declares of it (missing, not whole seconds of
 * at least 1): response_headers_conformance's finding on every 429, so a probe that needs it to wait
 * calls its case inconclusive rather than report the same fault twice.
 */
export function retryAfterOffDocument(operation: OperationSpec, exchange: Exchange): boolean {
  const header =
    exchange.response?.status === undefined
      ? undefined
      : operation
          .response(exchange.response.status)
          ?.headers.find((h) => h.name.toLowerCase() === 'retry-after');
  if (header === undefined) return false;
  return header.validate(exchange.response?.headers['retry-after'] ?? null).length > 0;
}

/** Why a probe stopped at a Retry-After off the document: not judged, and whose finding it is. */
export function retryAfterReason(exchange: Exchange, what: string): string {
  const raw = exchange.response?.headers['retry-after'];
  return `not judged: the 429 has ${raw === undefined ? 'no Retry-After' : `Retry-After: ${raw}`} (response_headers_conformance's finding), so the probe cannot tell when ${what}`;
}

/**
 * A 429 is a full documented Error: application/json, an Error body with the expected code. A JSON body
 * off the Error schema is response_schema_conformance's to report: the probe's check calls it
 * inconclusive (noted on `check`), as it cannot read the code.
 */
export function errorVerdict(
  context: Context,
  check: CheckId,
  exchange: Exchange,
  code: string,
): Verdict | null {
  const response = exchange.response;
  if (response === null) return null;
  const type = mediaTypeOf(response.headers['content-type'] ?? '');
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    body = undefined;
  }
  const expected = `429, Content-Type: application/json, an Error with code "${code}"`;
  if (type !== 'application/json' || body === undefined) {
    return {
      kind: 'fail',
      exchange,
      message: `the 429 is not a JSON Error (Content-Type: ${response.headers['content-type'] ?? '(none)'})`,
      expected,
    };
  }
  if (context.spec.schema('Error')(body).length > 0) {
    context.note(
      check,
      exchange.operationId,
      "the 429's body is off the Error schema (response_schema_conformance's finding): its code could not be read",
    );
    return INCONCLUSIVE;
  }
  const got = (body as { code?: unknown }).code;
  if (got === code) return null;
  return { kind: 'fail', exchange, message: `the 429's code is ${JSON.stringify(got)}`, expected };
}

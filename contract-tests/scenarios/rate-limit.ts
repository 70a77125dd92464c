// rate_limit_behaviour (opt-in, --probe-rate-limit): exhausting the window on purpose gives a 429 with
// Retry-After and X-RateLimit-Remaining 0, and the target answers again once Retry-After has passed.
// Exactly one request is sent while limited, far from any ban threshold.
import type { Context, Verdict } from '../context.js';
import type { Exchange } from '../exchange.js';
import { record } from '../requests.js';

/** The probe exhausts at most this many requests; a larger window is not probed. */
export const PROBE_MAX_REQUESTS = 1000;
/** The longest Retry-After the probe waits out. */
export const PROBE_MAX_WAIT_S = 120;

export async function rateLimitScenario(context: Context): Promise<void> {
  if (!context.selected('rate_limit_behaviour')) return;
  const operation = context.spec.operation('listPets');
  const send = (pace: boolean) =>
    context.send(
      { operationId: operation.id, method: 'GET', path: operation.path, query: { limit: '1' } },
      { retry: false, pace },
    );
  const first = await send(true);
  const remaining = Number(first.response?.headers['x-ratelimit-remaining']);
  if (!Number.isInteger(remaining)) {
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
  let limited: Exchange | undefined;
  let last = first;
  for (let i = 0; i <= remaining + 1 && limited === undefined; i += 1) {
    last = await send(false);
    if (last.response?.status === 429) limited = last;
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
  const headers = limited.response.headers;
  const retryAfter = headers['retry-after'];
  if (retryAfter === undefined || !/^\d+$/.test(retryAfter.trim()) || Number(retryAfter) < 1) {
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
  const wait = Number(retryAfter);
  if (wait > PROBE_MAX_WAIT_S) {
    context.note(
      'rate_limit_behaviour',
      operation.id,
      `Retry-After is ${wait} s; the probe waits at most ${PROBE_MAX_WAIT_S} s`,
    );
    return;
  }
  await context.sleep(wait * 1000 + 250);
  const after = await send(false);
  if (after.response?.status === 429 || after.response === null) {
    record(context, 'rate_limit_behaviour', operation.id, {
      kind: 'fail',
      exchange: after,
      message: `still ${after.response?.status ?? after.failure?.message} after waiting Retry-After (${wait} s)`,
      expected: 'the target answers again once Retry-After has passed',
    });
    return;
  }
  record(context, 'rate_limit_behaviour', operation.id, { kind: 'pass' });
}

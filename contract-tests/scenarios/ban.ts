// rate_limit_ban (opt-in, --probe-ban): drives the key into its ban on purpose, for a target and a key
// the user may lose for five minutes. The window is used up, then requests are sent while limited until
// the ban's answer comes (the document: more than BAN_AFTER of them): a 429 that is a full Error with
// code api_key_banned and a Retry-After that runs to the ban's end (BAN_MS after it began). The probe
// then waits that Retry-After and checks that the key works again, so the run leaves it usable.
import { BAN_AFTER, BAN_MS, headerInteger } from '../../openapi/index.js';
import type { Context } from '../context.js';
import type { Exchange } from '../exchange.js';
import { record } from '../requests.js';
import {
  errorVerdict,
  PROBE_MAX_REQUESTS,
  probeSender,
  retryAfterOffDocument,
  retryAfterReason,
} from './rate-limit.js';

/** Seconds a ban's Retry-After may fall short of BAN_MS: the requests of the probe take some time. */
const BAN_SLACK_S = 60;

export async function banScenario(context: Context): Promise<void> {
  if (!context.selected('rate_limit_ban') || !context.tested('listPets')) return;
  const operation = context.spec.operation('listPets');
  const send = probeSender(context, operation);
  const first = await send(true);
  const remaining = headerInteger(first.response?.headers['x-ratelimit-remaining']);
  if (remaining === undefined || remaining > PROBE_MAX_REQUESTS) {
    context.note(
      'rate_limit_ban',
      operation.id,
      remaining !== undefined
        ? `the window has ${remaining} requests left; the probe exhausts at most ${PROBE_MAX_REQUESTS}`
        : 'no X-RateLimit-Remaining to know how far the window goes',
    );
    return;
  }
  let banned: Exchange | undefined;
  let last = first;
  let whileLimited = 0;
  const most = remaining + BAN_AFTER + 3;
  for (let i = 0; i < most && banned === undefined; i += 1) {
    last = await send(false);
    if (last.response?.status !== 429) continue;
    whileLimited += 1;
    const code = safeCode(last.response.body);
    if (code === 'api_key_banned' || whileLimited > BAN_AFTER + 1) banned = last;
  }
  if (banned === undefined || banned.response === null) {
    record(context, 'rate_limit_ban', operation.id, {
      kind: 'fail',
      exchange: last,
      message: `no ban after ${whileLimited} requests while limited`,
      expected: `429 api_key_banned after more than ${BAN_AFTER} requests while limited`,
    });
    return;
  }
  const error = errorVerdict(context, 'rate_limit_ban', banned, 'api_key_banned');
  if (error !== null) {
    record(context, 'rate_limit_ban', operation.id, error);
    return;
  }
  // The first answer was served, so the key was not limited in its window before the probe: each
  // request the probe sent while limited is one the server counted so (the window may have ended
  // meanwhile, which only puts the ban off). The ban before the (BAN_AFTER + 1)th is too early.
  if (first.response?.status !== 429 && whileLimited <= BAN_AFTER) {
    record(context, 'rate_limit_ban', operation.id, {
      kind: 'fail',
      exchange: banned,
      message: `the key was banned (429 api_key_banned) at its ${ordinal(whileLimited)} request while limited`,
      expected: `429 rate_limited to the first ${BAN_AFTER} requests while limited; the ban only after more than ${BAN_AFTER}`,
    });
    return;
  }
  const retryAfter = banned.response.headers['retry-after'];
  const banS = BAN_MS / 1000;
  const seconds = headerInteger(retryAfter);
  if (retryAfterOffDocument(operation, banned)) {
    context.unverified('rate_limit_ban', operation.id, retryAfterReason(banned, 'the ban ends'));
    return;
  }
  if (seconds === undefined || seconds > banS || seconds < banS - BAN_SLACK_S) {
    record(context, 'rate_limit_ban', operation.id, {
      kind: 'fail',
      exchange: banned,
      message: `the ban's 429 has Retry-After: ${retryAfter ?? '(none)'}`,
      expected: `Retry-After until the ban ends: about ${banS} s (between ${banS - BAN_SLACK_S} and ${banS})`,
    });
    return;
  }
  await context.sleep(seconds * 1000);
  const after = await send(false);
  if (after.response === null || after.response.status === 429) {
    record(context, 'rate_limit_ban', operation.id, {
      kind: 'fail',
      exchange: after,
      message: `still ${after.response?.status ?? after.failure?.message} once the ban's Retry-After (${seconds} s) had passed`,
      expected: 'the key works again when the ban ends',
    });
    return;
  }
  record(context, 'rate_limit_ban', operation.id, { kind: 'pass' });
}

function safeCode(body: string): unknown {
  try {
    return (JSON.parse(body) as { code?: unknown } | null)?.code;
  } catch {
    return undefined;
  }
}

/** 1st, 2nd, 3rd, 4th… */
function ordinal(n: number): string {
  const tens = n % 100;
  const suffix =
    tens >= 11 && tens <= 13 ? 'th' : n % 10 === 1 ? 'st' : n % 10 === 2 ? 'nd' : n % 10 === 3 ? 'rd' : 'th';
  return `${n}${suffix}`;
}

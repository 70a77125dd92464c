// The control API, beside the API and outside its base path: `POST /__petkit/reset` (back to the
// seeded state), `GET /__petkit/requests` (the journal), `GET /__petkit/health`. Not rate limited,
// not journaled, no latency.
import type { MockCall } from './call.js';
import type { JournalEntry } from './journal.js';
import { errorReply, preflightReply, type Reply, reply } from './responses.js';
import type { Awaitable } from './state.js';

/** The control API lives outside the base path. */
export const CONTROL_PREFIX = '/__petkit/';

/** What the control API reads and does of a mock. */
export interface Controlled {
  /** Back to the seeded state; answers how many pets that is. */
  reset(): Awaitable<number>;
  journal(): readonly JournalEntry[];
  health(): Awaitable<{ pets: number; inFlight: number; rateLimitBuckets: number }>;
}

const ALLOW: Readonly<Record<string, string>> = {
  reset: 'POST, OPTIONS',
  requests: 'GET, HEAD, OPTIONS',
  health: 'GET, HEAD, OPTIONS',
};

/** Answers a call under CONTROL_PREFIX (HEAD as GET). */
export async function answerControl(call: MockCall, mock: Controlled): Promise<Reply> {
  const method = call.method === 'HEAD' ? 'GET' : call.method;
  const { pathname } = call.url;
  const name = pathname.slice(CONTROL_PREFIX.length);
  const allow = Object.hasOwn(ALLOW, name) ? ALLOW[name] : undefined;
  if (allow === undefined) return errorReply('route_not_found', `No control route ${pathname}.`);
  if (method === 'OPTIONS') return preflightReply(allow, call.header('access-control-request-headers'));
  if (!allow.split(', ').includes(method)) {
    return errorReply('method_not_allowed', `${method} is not allowed here; use ${allow}.`, undefined, {
      allow,
    });
  }
  if (name === 'reset') return reply(200, JSON.stringify({ status: 'reset', pets: await mock.reset() }));
  if (name === 'requests') return reply(200, JSON.stringify(mock.journal()));
  return reply(200, JSON.stringify({ status: 'ok', ...(await mock.health()) }));
}

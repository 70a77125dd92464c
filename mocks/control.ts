// The control API, beside the API and outside its base path: `POST /__petkit/reset` (back to the
// seeded state, or to other seeded pets or pets of the caller's own), `GET /__petkit/requests` (the
// journal, filtered and a page at a time) and `DELETE` to clear it, `GET /__petkit/health`, the rules
// (`/__petkit/rules`, `/__petkit/rules/{id}`), the clock (`/__petkit/clock`) and each key's windows
// (`/__petkit/limits`), the page (`/__petkit/`, control-page.ts) and the journal live
// (`/__petkit/events`, control-events.ts). Not rate limited as the API is, not journaled, no latency; over a socket, the
// server guards it first (control-guard.ts). Its shapes are openapi.yaml's (`x-petkit-control`).
import { describeFault, loadSpec, type NewPet, type Pet } from '../openapi/index.js';
import type { MockCall } from './call.js';
import { bodyOf, json } from './control-answers.js';
import { answerClock } from './control-clock.js';
import { answerEvents, type EventSource_ } from './control-events.js';
import { answerPage, type PageData } from './control-page.js';
import { answerRule, answerRules } from './control-rules.js';
import type { Controls } from './controls.js';
import type { Journal } from './journal.js';
import { JournalQueryError, parseJournalQuery, queryJournal } from './journal-query.js';
import { MAX_SEED, type ResetOptions } from './options.js';
import { methodNotAllowed, shown } from './refusals.js';
import { errorReply, preflightReply, type Reply, reply } from './responses.js';
import type { Awaitable } from './state.js';

/** The control API lives outside the base path. */
export const CONTROL_PREFIX = '/__petkit/';

/** What the control API reads and does of a mock (its journal live: EventSource_). */
export interface Controlled extends EventSource_ {
  /** The page's form choices (`GET /__petkit/`). */
  readonly pageData: PageData;
  /** Back to a seeded state; answers how many pets that is. */
  reset(options?: ResetOptions): Awaitable<number>;
  readonly journal: Journal;
  /** Hides the keys of the keys file as the journal's entries show them (keyMasker); none for the demo keys. */
  readonly mask: ((text: string) => string) | undefined;
  readonly maxPets: number;
  health(): Awaitable<{ pets: number; inFlight: number; rateLimitBuckets: number }>;
  /** The rules, the clock and the windows: what `mock.rules` and `mock.clock` use too. */
  readonly controls: Controls;
}

/** One control route: the methods it allows (an Allow header) and how it answers one of them. */
interface Route {
  readonly allow: string;
  /** `method` is the call's, HEAD read as GET; `param` the path's last segment where it has one. */
  answer(call: MockCall, method: string, mock: Controlled, param: string): Promise<Reply>;
}

/** Every control route by its path under CONTROL_PREFIX (`{id}`: one segment). */
const ROUTES: Readonly<Record<string, Route>> = {
  '': { allow: 'GET, HEAD, OPTIONS', answer: async (_call, _method, mock) => answerPage(mock.pageData) },
  events: { allow: 'GET, HEAD, OPTIONS', answer: async (call, _method, mock) => answerEvents(call, mock) },
  reset: { allow: 'POST, OPTIONS', answer: (call, _method, mock) => answerReset(call, mock) },
  requests: { allow: 'GET, HEAD, DELETE, OPTIONS', answer: answerRequests },
  health: {
    allow: 'GET, HEAD, OPTIONS',
    answer: async (_call, _method, mock) => json(200, { status: 'ok', ...(await mock.health()) }),
  },
  rules: {
    allow: 'GET, HEAD, POST, DELETE, OPTIONS',
    answer: (call, method, mock) => answerRules(call, method, mock.controls),
  },
  'rules/{id}': {
    allow: 'PATCH, DELETE, OPTIONS',
    answer: (call, method, mock, id) => answerRule(call, method, mock.controls, id),
  },
  clock: {
    allow: 'GET, HEAD, POST, OPTIONS',
    answer: (call, method, mock) => answerClock(call, method, mock.controls),
  },
  limits: {
    allow: 'GET, HEAD, OPTIONS',
    answer: async (_call, _method, mock) => json(200, await mock.controls.windows()),
  },
};

/** The route of a path under CONTROL_PREFIX, and its parameter: `rules/r2` is `rules/{id}` with `r2`. */
function routeOf(name: string): { route: Route | undefined; param: string } {
  if (Object.hasOwn(ROUTES, name)) return { route: ROUTES[name], param: '' };
  const slash = name.indexOf('/');
  const template = `${name.slice(0, slash)}/{id}`;
  const param = name.slice(slash + 1);
  if (slash < 0 || param === '' || param.includes('/') || !Object.hasOwn(ROUTES, template))
    return { route: undefined, param: '' };
  return { route: ROUTES[template], param };
}

/**
 * Answers a call under CONTROL_PREFIX (HEAD as GET). Every answer says that no page of another site
 * may load it as a resource (an <img>, a <script>: the browser blocks it, whatever reached the mock)
 * and that it is never to be sniffed as another type (a journal holds what clients sent: `<script>`).
 */
export async function answerControl(call: MockCall, mock: Controlled): Promise<Reply> {
  const answer = await answerRoute(call, mock);
  answer.headers['x-content-type-options'] = 'nosniff';
  answer.headers['cross-origin-resource-policy'] = 'same-origin';
  return answer;
}

async function answerRoute(call: MockCall, mock: Controlled): Promise<Reply> {
  const method = call.method === 'HEAD' ? 'GET' : call.method;
  const { pathname } = call.url;
  const { route, param } = routeOf(pathname.slice(CONTROL_PREFIX.length));
  if (route === undefined) return noControlRoute(pathname);
  const { allow } = route;
  if (method === 'OPTIONS') return preflightReply(allow, call.header('access-control-request-headers'));
  if (!allow.split(', ').includes(method)) return methodNotAllowed(call.method, allow);
  return route.answer(call, method, mock, param);
}

const noControlRoute = (pathname: string): Reply =>
  errorReply('route_not_found', `No control route ${shown(pathname)}.`);

/**
 * What the control API answers a method no control route has (`FOO`) on `pathname`, with the headers
 * of its every answer: for the server, which refuses a method its parser does not know before the core.
 */
export function controlMethodRefusal(method: string, pathname: string): Reply {
  const { route } = routeOf(pathname.slice(CONTROL_PREFIX.length));
  const answer = route === undefined ? noControlRoute(pathname) : methodNotAllowed(method, route.allow);
  answer.headers['x-content-type-options'] = 'nosniff';
  answer.headers['cross-origin-resource-policy'] = 'same-origin';
  return answer;
}

/** `GET /__petkit/requests` (a page of the journal), `DELETE` (empties it). */
async function answerRequests(call: MockCall, method: string, mock: Controlled): Promise<Reply> {
  if (method === 'DELETE') return json(200, { status: 'cleared', removed: mock.journal.clear() });
  try {
    const { searchParams } = call.url;
    const page = queryJournal(mock.journal, parseJournalQuery(searchParams), searchParams, mock.mask);
    return json(200, page);
  } catch (error) {
    if (error instanceof JournalQueryError) return errorReply('validation_failed', error.message);
    throw error;
  }
}

/** `POST /__petkit/reset`, with no body, `{"seed": N, "pets": N}` or `{"pets": [Pet, …]}`. */
async function answerReset(call: MockCall, mock: Controlled): Promise<Reply> {
  let options: ResetOptions | undefined;
  if (call.body.present) {
    const read = await bodyOf(call);
    if ('refused' in read) return read.refused;
    const parsed = resetOptionsOf(read.value, mock.maxPets);
    if (typeof parsed === 'string') return errorReply('validation_failed', parsed);
    options = parsed;
  }
  return reply(200, JSON.stringify({ status: 'reset', pets: await mock.reset(options) }));
}

/** The reset options a body asks for, or what is wrong with it (naming the entry). */
export function resetOptionsOf(value: unknown, maxPets: number): ResetOptions | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'The reset body must be an object: {"seed": N, "pets": N} or {"pets": [Pet, …]}.';
  const body = value as Record<string, unknown>;
  for (const name of Object.keys(body)) {
    if (name !== 'seed' && name !== 'pets')
      return `Unknown property /${name.slice(0, 40)} in the reset body; use seed and pets.`;
  }
  const { seed, pets } = body;
  if (
    seed !== undefined &&
    !(Number.isSafeInteger(seed) && (seed as number) >= 0 && (seed as number) <= MAX_SEED)
  )
    return `/seed must be an integer from 0 to ${MAX_SEED}.`;
  if (pets === undefined || typeof pets === 'number') {
    if (pets !== undefined && !(Number.isSafeInteger(pets) && pets >= 0 && pets <= maxPets))
      return `/pets must be an integer from 0 to ${maxPets} (the store's size), or an array of pets.`;
    return {
      ...(seed === undefined ? {} : { seed: seed as number }),
      ...(pets === undefined ? {} : { pets }),
    };
  }
  if (!Array.isArray(pets)) return '/pets must be a number of pets to generate or an array of pets.';
  if (seed !== undefined)
    return '/seed applies to generated pets only; give it with "pets": N, not with an array.';
  if (pets.length > maxPets) return `/pets holds ${pets.length} pets; the store holds at most ${maxPets}.`;
  const validate = loadSpec().schema('Pet');
  // Pet allows other properties; NewPet (the same fields, no id) does not, and nothing unknown is stored.
  const validateNew = loadSpec().schema('NewPet');
  const given: NewPet[] = [];
  for (const [index, pet] of pets.entries()) {
    const [fault] = validate(pet);
    if (fault !== undefined) {
      const detail = describeFault(fault);
      return `/pets/${index}${detail.path} ${detail.message} (each pet must be a Pet of openapi.yaml).`;
    }
    const { id, ...fields } = pet as Pet;
    const [extra] = validateNew(fields);
    if (extra !== undefined) {
      const detail = describeFault(extra);
      return `/pets/${index}${detail.path} ${detail.message} (each pet must be a Pet of openapi.yaml).`;
    }
    // A valid int64 that JSON.parse has rounded: stored, it would be another number.
    if (!Number.isSafeInteger(fields.categoryId))
      return `/pets/${index}/categoryId is beyond 2^53-1, the largest integer this mock stores exactly.`;
    // The store numbers pets itself: ids other than 1, 2, 3… would be changed silently, so refused.
    if (id !== index + 1)
      return `/pets/${index}/id must be ${index + 1}: pets are given with ids 1, 2, 3… in order.`;
    given.push(fields);
  }
  return { pets: given };
}

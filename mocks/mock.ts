// createMock: the runtime-agnostic core. A call in, an answer out. createMock wires the parts (the
// seeding gate, the loss tracker, the recorder, the controls); answerApi is the path of one API
// request, top-down in the order it runs: gate → view → route → auth → limit → unrouted → rule →
// refusals → validate → operate → headers, each step a named function that passes on what it decided.
// The mock's time is read once per request, from the control view, and passed to each step.
import {
  type ErrorDetail,
  loadSpec,
  type OperationId,
  type OperationSpec,
  type RequestVerdict,
} from '../openapi/index.js';
import { sentNumber } from '../openapi/request.js';
import { type Authentication, authenticate } from './auth.js';
import { type BodyRefusal, readJsonBody } from './body.js';
import { BodyAbortedError, callFromRequest, type MockCall, refusedHead } from './call.js';
import { type CallKind, callKind } from './call-kind.js';
import { mockTime } from './clock.js';
import { answerControl, type Controlled } from './control.js';
import { createEventStreams } from './control-events.js';
import { pageDataOf } from './control-page.js';
import type { NetworkFault } from './control-types.js';
import { createControls, type MockClock, type MockRules } from './controls.js';
import { createDateHeader } from './date-header.js';
import { createJournal, type Journal, type JournalEntry } from './journal.js';
import { keyMasker } from './key-label.js';
import { anonymousLimits, type Limits, type ResolvedKey } from './keys.js';
import { memoryState } from './memory-state.js';
import { IMPLEMENTATIONS, type OperationInput } from './operations.js';
import {
  kindOf,
  type MockOptions,
  MockOptionsError,
  type NormalizedMockOptions,
  normalizeOptions,
  type ResetOptions,
  resetPets,
} from './options.js';
import { type Preferences, parsePrefer } from './prefer.js';
import { type Answer, createRecorder } from './recorder.js';
import { apiRoutesOf, forced, shown, tooMany, unauthorized, unrouted } from './refusals.js';
import {
  addDeprecationHeaders,
  addRateHeaders,
  errorReply,
  preflightReply,
  type Reply,
  toResponse,
} from './responses.js';
import { createRouter, type RouteMatch } from './router.js';
import { pickRule } from './rules.js';
import { seedPets } from './seed-pets.js';
import { createSeedingGate } from './seeding-gate.js';
import {
  type ActiveRule,
  type Awaitable,
  andThen,
  type BucketRef,
  type ControlView,
  type MockState,
  type RateDecision,
  StaleControlError,
  StateUnavailableError,
} from './state.js';
import { createLossTracker } from './state-loss.js';
import { stateUnavailableReply } from './state-unavailable.js';

export interface HandleContext {
  /** The client's address: requests without a valid key are counted per address. */
  clientAddress?: string;
}

export interface Mock {
  readonly options: NormalizedMockOptions;
  /** The last API requests, oldest first (the control API's `GET /__petkit/requests`). */
  readonly journal: readonly JournalEntry[];
  /** API requests being answered now. */
  readonly inFlight: number;
  /**
   * A rule's network fault is `Response.error()` here (a fetch through it rejects). Given a URL (a
   * string, absolute or a path, or a URL object) in place of a Request, a GET of it, as `fetch(url)`
   * sends; anything else rejects with a MockOptionsError saying what it takes.
   */
  handle(request: Request | URL | string, context?: HandleContext): Promise<Response>;
  /**
   * The core itself, for adapters: a call in, an answer out (status, headers, body, or a network
   * fault to enact), with no Web Request or Response built. handle() is this over a Request. `kind`:
   * whether the call is for the control API, when the adapter has decided it already. A body given
   * as bytes is shared with other answers: read it, never write into it.
   */
  answer(call: MockCall, kind?: CallKind): Promise<Reply>;
  /**
   * Calls handle with a path such as `/v1/pets`, no server needed: or an absolute URL
   * (`'http://localhost/v1/pets'`, a URL object; only its path and query count), or a Request, which
   * `init` changes as `fetch(request, init)` does. Anything else rejects with a MockOptionsError.
   * An aborted signal rejects it with the signal's reason, as fetch does.
   */
  request(path: string | URL | Request, init?: RequestInit): Promise<Response>;
  /**
   * Back to the seeded pets, with empty rate-limit buckets and journal, no rule armed and the clock
   * at real time: done on return in memory; a promise with a shared state (every replica's journal
   * is emptied too). `{ seed, pets }` re-seeds this once (pets as the `pets` option: a count or the
   * pets themselves). Throws MockOptionsError for options that cannot be used, naming the bad one.
   */
  reset(options?: ResetOptions): Awaitable<void>;
  /** Calls `listener` with each journal entry as it is recorded (a HAR writer, a live view); answers how to stop. */
  observe(listener: (entry: JournalEntry) => void): () => void;
  /** The rules armed on this mock: what `/__petkit/rules` does, in process. */
  readonly rules: MockRules;
  /** The mock's clock: what `/__petkit/clock` does, in process; `now()` is its time in ms. */
  readonly clock: MockClock;
}

const LOCAL_ORIGIN = 'http://petkit.local';
/** Reads of a shared control view that went stale under the limiter before answering 503. */
const MAX_VIEW_TRIES = 3;

/**
 * What answerApi's steps have decided so far, filled in as each decides: when a later step throws,
 * the 500 still carries what every answer of the operation carries (its window's rate-limit headers,
 * getPet's deprecation headers) and the journal names the operation and key at the request's time.
 */
interface Decided {
  /** Real time when the call came (its duration is real time). */
  readonly started: number;
  /** The control view the request is answered by (rules, clock), and the mock's time from it. */
  view: ControlView;
  now: number;
  operation?: OperationSpec;
  decision?: RateDecision;
  key?: ResolvedKey;
  /** The request's body as read, when it was (the journal keeps it). */
  requestBody?: Uint8Array | undefined;
}

export function createMock(options: MockOptions = {}): Mock {
  const normalized = normalizeOptions(options);
  const { clock: real, logger, latency, random, resolvedKeys: keys } = normalized;
  const spec = loadSpec();
  const router = createRouter(spec);
  const api = apiRoutesOf(spec);
  const anonymous = anonymousLimits(normalized.keys);
  // A key's bucket is decided once, with the keys: a request with a valid key allocates none.
  const keyBuckets = new Map<string, BucketRef>(keys.map((k) => [k.key, { kind: 'key', id: k.key }]));
  const state = normalized.state ?? memoryState(normalized.maxPets);
  const { store, limiter, control } = state;
  // A key of the keys file a client sent elsewhere than Authorization (a query, a body) is hidden in
  // the journal's entries and the log, as the journal's `key` shows keys.
  const mask = keyMasker(keys.map((entry) => entry.key));
  const journal = createJournal({ limit: normalized.journalLimit, mask });
  const seeded = normalized.fixtures ?? seedPets(normalized.seed, normalized.pets);
  const gate = createSeedingGate(() => state.seed(seeded, normalized.rules));
  const loss = createLossTracker(logger);
  const recorder = createRecorder({ journal, logger, real, mask });
  const dateOf = createDateHeader();
  const controls = createControls({ state, real, rules: { seed: normalized.seed, keys }, keys });
  const fire = (id: string): Awaitable<boolean> => control.fire(id);
  let inFlight = 0;

  /** Back to the seeded pets, or to those `options` asks for (this once: a later reset() is the seeded again). */
  const reset = (options?: ResetOptions): Awaitable<void> => {
    const pets = options === undefined ? seeded : resetPets(options, normalized, seeded);
    // Emptied once the state is reset: a reset that fails (a 503, its database gone) changes nothing,
    // the journal (and the outage's own 503s in it) included.
    return andThen(state.reset(pets), () => {
      journal.clear();
    });
  };
  clearOnReset(state, journal);
  const controlled: Controlled = {
    reset: async (options) => {
      await reset(options);
      return store.count();
    },
    journal,
    mask,
    maxPets: normalized.maxPets,
    controls,
    pageData: pageDataOf(spec, keys),
    observe: recorder.observe,
    records: () => journal.records(),
    streams: createEventStreams(),
    health: async () => {
      // Counts read from tables the engine cannot serve from (petkit_pets dropped) are no health.
      await state.check?.();
      return { pets: await store.count(), inFlight, rateLimitBuckets: await limiter.count() };
    },
  };

  /**
   * Any call: the control API, or the API with its delay, journal entry and log line. The steps hand
   * each other what they decided as arguments, not closures: on the path the in-memory state takes,
   * nothing is allocated but what the answer needs.
   */
  function answer(call: MockCall, kind: CallKind = callKind(call)): Awaitable<Reply> {
    if (kind === 'control') return answerControlCall(call);
    const started = real();
    inFlight += 1;
    const decided: Decided = timeOf(control.last, started);
    let answering: Awaitable<Answer>;
    try {
      answering = answerApi(call, decided);
    } catch (error) {
      return deliver(call, failed(error, call, kind, decided), decided);
    }
    if (answering instanceof Promise) {
      return answering.then(
        (answered) => {
          loss.answered();
          return deliver(call, answered, decided);
        },
        (error: unknown) => deliver(call, failed(error, call, kind, decided), decided),
      );
    }
    loss.answered();
    return deliver(call, answering, decided);
  }

  async function answerControlCall(call: MockCall): Promise<Reply> {
    const reply = await answerControl(call, controlled).catch(
      (error: unknown) => failed(error, call, 'control', timeOf(control.last, real())).reply,
    );
    reply.headers.date = dateOf(mockTime(control.last.clock, real()));
    return reply;
  }

  /** The answer's Date, its delay (a promise only then), its journal entry and log line. */
  function deliver(call: MockCall, answered: Answer, decided: Decided): Awaitable<Reply> {
    answered.reply.headers.date = dateOf(decided.now);
    let delay: number;
    try {
      delay = answered.delay ?? drawLatency();
    } catch (error) {
      inFlight -= 1;
      throw error;
    }
    if (delay > 0) {
      // The wait ends early if the client goes: nobody is left to answer, and neither a test's
      // process nor the server's close() should wait out a minute's delay for it.
      return new Promise<void>((resolve) => {
        let stop: (() => void) | undefined;
        const finish = () => {
          clearTimeout(timer);
          stop?.();
          resolve();
        };
        const timer = setTimeout(finish, delay);
        stop = call.gone?.(finish);
      }).then(() => done(call, answered, decided, delay));
    }
    return done(call, answered, decided, 0);
  }

  function done(call: MockCall, answered: Answer, decided: Decided, delay: number): Reply {
    inFlight -= 1;
    recorder.record(call, answered, decided.now, decided.started, delay, decided.requestBody);
    return answered.reply;
  }

  /**
   * One API call, step by step in the order they run, noting in `decided` what each decided. Each
   * step that may wait (the seeding, a shared state) goes on with andThen: with the in-memory state
   * nothing waits, and the answer is made in the same tick, with no promise.
   */
  function answerApi(call: MockCall, decided: Decided): Awaitable<Answer> {
    const ready = gate.ready();
    if (ready !== undefined) return ready.then(() => viewed(call, decided));
    return viewed(call, decided);
  }

  /** The control view (rules, clock) the call is answered by, then the rest. */
  function viewed(call: MockCall, decided: Decided): Awaitable<Answer> {
    const seen = control.view();
    if (seen instanceof Promise)
      return seen.then((view) => {
        see(decided, view);
        return routed(call, decided);
      });
    if (seen !== decided.view) see(decided, seen);
    return routed(call, decided);
  }

  /** Route, auth and the limit's count. */
  function routed(call: MockCall, decided: Decided): Awaitable<Answer> {
    const route = router.match(call.method, call.url.pathname);
    if (route.kind === 'preflight') {
      const reply = preflightReply(route.allow, call.header('access-control-request-headers'));
      return { reply, operationId: null, delay: 0 };
    }
    if (route.kind === 'operation') decided.operation = route.operation;
    const auth = authenticate(call.header('authorization'), keys);
    if (auth.kind === 'ok') decided.key = auth.key;
    const taken = limit(auth, call, decided);
    return taken instanceof Promise
      ? taken.then((decision) => limited(call, decided, route, auth, decision))
      : limited(call, decided, route, auth, taken);
  }

  /** Counted: off the routes, 404 or 405; else the rule that fires, if any is armed. */
  function limited(
    call: MockCall,
    decided: Decided,
    route: Exclude<RouteMatch, { kind: 'preflight' }>,
    auth: Authentication,
    decision: RateDecision,
  ): Awaitable<Answer> {
    decided.decision = decision;
    if (route.kind !== 'operation') {
      const reply = unrouted(route, call.method, call.url.pathname, api);
      return { reply: addRateHeaders(reply, decision), operationId: null, delay: undefined };
    }
    const { rules } = decided.view;
    if (rules.length === 0) return ruled(call, decided, route, auth, decision, undefined);
    const key = auth.kind === 'ok' ? auth.key : undefined;
    return andThen(ruleFor(rules, call, route.operation, key), (rule) =>
      ruled(call, decided, route, auth, decision, rule),
    );
  }

  /** Once the rule (if any) is known: its fault, the refusals, or the request validated and operated on. */
  function ruled(
    call: MockCall,
    decided: Decided,
    route: Extract<RouteMatch, { kind: 'operation' }>,
    auth: Authentication,
    decision: RateDecision,
    rule: ActiveRule | undefined,
  ): Awaitable<Answer> {
    const { operation } = route;
    const key = auth.kind === 'ok' ? auth.key : undefined;
    const respond = rule?.respond;
    if (respond?.fault !== undefined && respond.fault !== 'truncated') {
      return {
        reply: faultReply(respond.fault),
        operationId: operation.id,
        delay: respond.delayMs,
        key,
        rule: rule?.id,
      };
    }
    const prefer = parsePrefer(call.header('prefer'));
    const refused =
      forced(respond?.status, operation, auth, decision, rule?.id) ??
      tooMany(decision, auth) ??
      forced(prefer.code, operation, auth, decision) ??
      unauthorized(auth);
    if (refused !== undefined) return finish(refused, operation, decision, prefer, auth, rule);
    const request = validate(call, route, decided);
    if (request instanceof Promise)
      return request.then((input) => operated(input, operation, decision, prefer, auth, rule));
    return operated(request, operation, decision, prefer, auth, rule);
  }

  /** Validated: refused, or operated on. */
  function operated(
    request: OperationInput | { refused: Reply },
    operation: OperationSpec,
    decision: RateDecision,
    prefer: Preferences,
    auth: Authentication,
    rule: ActiveRule | undefined,
  ): Awaitable<Answer> {
    if ('refused' in request) return finish(request.refused, operation, decision, prefer, auth, rule);
    const reply = operate(operation, request);
    return reply instanceof Promise
      ? reply.then((made) => finish(made, operation, decision, prefer, auth, rule))
      : finish(reply, operation, decision, prefer, auth, rule);
  }

  /** The reply with the headers every answer of its operation carries, and what the journal keeps of it. */
  function finish(
    reply: Reply,
    operation: OperationSpec,
    decision: RateDecision,
    prefer: Preferences,
    auth: Authentication,
    rule: ActiveRule | undefined,
  ): Answer {
    const respond = rule?.respond;
    withHeaders(reply, operation, decision, prefer);
    if (respond?.fault === 'truncated') reply.fault = 'truncated';
    return {
      reply,
      operationId: operation.id,
      delay: respond?.delayMs ?? prefer.delay,
      key: auth.kind === 'ok' ? auth.key : undefined,
      rule: rule?.id,
    };
  }

  /** The view a request is answered by, and the mock's time from it. */
  function see(decided: Decided, view: ControlView): void {
    decided.view = view;
    decided.now = mockTime(view.clock, decided.started);
  }

  /**
   * Counts the call in its key's bucket, or in its address's when no valid key was sent, at the
   * mock's time. A shared engine whose control changed meanwhile counts nothing and says so
   * (StaleControlError): the view is read again, and the call counted by it.
   */
  function limit(auth: Authentication, call: MockCall, decided: Decided): Awaitable<RateDecision> {
    const bucket: BucketRef =
      auth.kind === 'ok'
        ? (keyBuckets.get(auth.key.key) as BucketRef)
        : { kind: 'address', id: call.clientAddress ?? 'unknown' };
    const limits = auth.kind === 'ok' ? auth.key : anonymous;
    let taken: Awaitable<RateDecision>;
    try {
      taken = limiter.take(bucket, limits, decided.now, decided.view.version);
    } catch (error) {
      return retryStale(error, bucket, limits, decided, 1);
    }
    return taken instanceof Promise
      ? taken.catch((error: unknown) => retryStale(error, bucket, limits, decided, 1))
      : taken;
  }

  async function retryStale(
    error: unknown,
    bucket: BucketRef,
    limits: Limits,
    decided: Decided,
    tries: number,
  ): Promise<RateDecision> {
    if (!(error instanceof StaleControlError) || tries >= MAX_VIEW_TRIES) throw error;
    see(decided, await control.view(true));
    try {
      return await limiter.take(bucket, limits, decided.now, decided.view.version);
    } catch (again) {
      return retryStale(again, bucket, limits, decided, tries + 1);
    }
  }

  /** The armed rule that answers this call, if one fires (each matching rule tried counts it). */
  function ruleFor(
    rules: readonly ActiveRule[],
    call: MockCall,
    operation: OperationSpec,
    key: ResolvedKey | undefined,
  ): Awaitable<ActiveRule | undefined> {
    return pickRule(
      rules,
      {
        operationId: operation.id as OperationId,
        method: call.method,
        path: call.url.pathname,
        key: key?.key ?? null,
      },
      fire,
    );
  }

  /** The request read as its operation's parameters and body say: its input, or why it is refused. */
  function validate(
    call: MockCall,
    route: Extract<RouteMatch, { kind: 'operation' }>,
    decided: Decided,
  ): Awaitable<OperationInput | { refused: Reply }> {
    const { operation } = route;
    const query = call.url.search === '' ? undefined : call.url.searchParams;
    if (operation.requestBody === undefined) {
      const verdict = operation.validateRequest<BodyRefusal>({
        pathParams: route.params,
        query,
        readBody: NO_BODY,
      });
      return verdict instanceof Promise
        ? verdict.then((read) => inputOf(read, route, '', query, call.url.search))
        : inputOf(verdict, route, '', query, call.url.search);
    }
    let bodyText = '';
    const verdict = operation.validateRequest<BodyRefusal>({
      pathParams: route.params,
      query,
      // Its bytes as read go to the journal, whatever the verdict.
      readBody: () =>
        readJsonBody(call).then((read) => {
          decided.requestBody = read.bytes;
          if ('text' in read) bodyText = read.text;
          return read;
        }),
    });
    return andThen(verdict, (read) => inputOf(read, route, bodyText, query, call.url.search));
  }

  function inputOf(
    verdict: RequestVerdict<BodyRefusal>,
    route: Extract<RouteMatch, { kind: 'operation' }>,
    bodyText: string,
    query: URLSearchParams | undefined,
    search: string,
  ): OperationInput | { refused: Reply } {
    if (verdict.kind === 'invalid') {
      const { where } = verdict;
      let { message, details } =
        where === 'body' && bodyText !== ''
          ? numbersAsSent(verdict, where, (pointer) => sentNumber(bodyText, pointer))
          : where === 'query' && query !== undefined
            ? numbersAsSent(verdict, where, (pointer) => query.get(pointer.slice(1)) ?? undefined)
            : verdict;
      if (where === 'query' && search.includes('+'))
        ({ message, details } = plusNoted(message, details, search));
      if (where === 'query' && search.includes('%'))
        ({ message, details } = undecodableNoted(message, details, search));
      return { refused: errorReply('validation_failed', message, details) };
    }
    if (verdict.kind === 'refused')
      return { refused: errorReply(verdict.refusal.code, verdict.refusal.message) };
    return {
      params: verdict.params,
      raw: route.params ?? {},
      body: verdict.body,
      bodyText,
      basePath: api.basePath,
    };
  }

  function operate(operation: OperationSpec, input: OperationInput): Awaitable<Reply> {
    return IMPLEMENTATIONS[operation.id as OperationId](input, store);
  }

  /** The headers every answer of an operation carries: its window's, deprecation, what Prefer applied. */
  function withHeaders(
    reply: Reply,
    operation: OperationSpec,
    decision: RateDecision,
    prefer: Preferences,
  ): Reply {
    addRateHeaders(reply, decision);
    if (operation.deprecated) addDeprecationHeaders(reply);
    if (prefer.delay !== undefined) {
      const applied = reply.headers['preference-applied'];
      reply.headers['preference-applied'] =
        `${applied === undefined ? '' : `${applied}, `}delay=${prefer.delay}`;
    }
    return reply;
  }

  /** The answer when a step threw, with the headers of what the steps before it had decided. */
  function failed(error: unknown, call: MockCall, kind: CallKind, decided: Decided): Answer {
    if (error instanceof StateUnavailableError) {
      loss.failed(error);
      return stateLost(call, kind, decided.now, error.told);
    }
    // The shared control kept changing under the limiter: nothing was counted; retry shortly.
    if (error instanceof StaleControlError) return stateLost(call, kind, decided.now);
    const { operation, decision, key } = decided;
    let reply: Reply;
    let delay: number | undefined;
    // A body cut short is the client's fault, and nobody is left to read the answer: journal it as such.
    if (error instanceof BodyAbortedError) {
      reply = errorReply('malformed_json', error.message);
      delay = 0;
    } else {
      logger.error(`petkit mock: ${call.method} ${call.url.pathname} failed: ${String(error)}`);
      reply = errorReply('internal_error');
    }
    if (decision !== undefined) addRateHeaders(reply, decision);
    if (operation?.deprecated === true) addDeprecationHeaders(reply);
    return { reply, operationId: operation?.id ?? null, delay, key };
  }

  /** The 503 while the shared state is lost: routing and auth again (no state needed) for its headers. */
  function stateLost(call: MockCall, kind: CallKind, now: number, told?: string): Answer {
    if (kind === 'control') {
      return { reply: stateUnavailableReply(undefined, undefined, now, told), operationId: null, delay: 0 };
    }
    const route = router.match(call.method, call.url.pathname);
    const operation = route.kind === 'operation' ? route.operation : undefined;
    const auth = authenticate(call.header('authorization'), keys);
    const reply = stateUnavailableReply(operation, auth.kind === 'ok' ? auth.key : anonymous, now, told);
    return { reply, operationId: operation?.id ?? null, delay: 0 };
  }

  function drawLatency(): number {
    return latency.max === 0 ? 0 : latency.min + Math.floor(random() * (latency.max - latency.min + 1));
  }

  const handle = async (given: Request | URL | string, context?: HandleContext): Promise<Response> => {
    // Rare: not a Request (a URL, a string, or what a caller without types passed).
    const request =
      typeof (given as Partial<Request> | null)?.url === 'string'
        ? (given as Request)
        : handled(given, context);
    const address: unknown = context?.clientAddress;
    // The anonymous bucket's key: another type would count the caller under a key no client has.
    if (address !== undefined && typeof address !== 'string')
      throw new MockOptionsError(
        `mock.handle's context.clientAddress is the client's address as text ('203.0.113.7'); got ${kindOf(address)}.`,
      );
    // What the server refuses of a head before the core (a target or headers over its limits, an
    // Expect it does not serve), refused here too, as it answers them: not journaled, not counted.
    // (A Request whose body was read goes on to callFromRequest, which says so, as fetch does.)
    const refused = request.bodyUsed ? undefined : refusedHead(request);
    if (refused !== undefined) {
      // Not read: the answer is made; a body left unread would hold its stream (MSW keeps a branch of it).
      request.body?.cancel().catch(() => undefined);
      refused.headers.date = dateOf(mockTime(control.last.clock, real()));
      return toResponse(refused, request.method === 'HEAD');
    }
    return toResponse(await answer(callFromRequest(request, address)), request.method === 'HEAD');
  };

  const mock: Mock = {
    options: normalized,
    get journal() {
      return journal.entries();
    },
    get inFlight() {
      return inFlight;
    },
    handle,
    answer: async (call, kind) => answer(call, kind),
    request: async (path, init) => {
      const request = requested(path, init);
      // As fetch: a signal aborted already sends nothing; one that aborts before the answer (a
      // delay ended early for it) rejects with its reason, rather than answering 200 early.
      request.signal.throwIfAborted();
      const response = await handle(request);
      request.signal.throwIfAborted();
      return response;
    },
    reset,
    observe: recorder.observe,
    rules: controls.rules,
    clock: controls.clock,
  };
  answerers.set(mock, answer);
  return mock;
}

const REQUEST_TAKES =
  "mock.request takes a path ('/v1/pets'), a URL ('http://localhost/v1/pets', or a URL object) or a Request";

/** What mock.request was given, as a Request: a path or URL resolved against a local origin. */
function requested(target: unknown, init: RequestInit | undefined): Request {
  if (typeof target === 'string') return new Request(urlOf(target, REQUEST_TAKES), init);
  if (target instanceof URL) return new Request(withoutCredentials(target, REQUEST_TAKES), init);
  if (isRequest(target)) return init === undefined ? target : new Request(target, init);
  throw new MockOptionsError(`${REQUEST_TAKES}; got ${kindOf(target)}.`);
}

/** What mock.handle was given in place of a Request: a URL (string or object) as a GET of it. */
function handled(target: unknown, context: unknown): Request {
  const takes = "mock.handle takes a Request (or a URL, 'http://localhost/v1/pets', for a GET of it)";
  if (typeof target !== 'string' && !(target instanceof URL))
    throw new MockOptionsError(`${takes}; got ${kindOf(target)}.`);
  // `mock.handle(url, { headers })`: a RequestInit where the context goes, which would be dropped unsaid.
  const others =
    typeof context === 'object' && context !== null
      ? Object.keys(context).filter((name) => name !== 'clientAddress')
      : [];
  if (others.length > 0)
    throw new MockOptionsError(
      `mock.handle's second argument is its context, { clientAddress }; got ${others.slice(0, 5).join(', ')}. To send a request with headers, a method or a body: mock.handle(new Request(url, init)), or mock.request(url, init).`,
    );
  return new Request(typeof target === 'string' ? urlOf(target, takes) : withoutCredentials(target, takes));
}

/** A path or an absolute URL, resolved against a local origin; a MockOptionsError when it is neither. */
function urlOf(target: string, takes: string): URL {
  let url: URL;
  try {
    url = new URL(target, LOCAL_ORIGIN);
  } catch {
    // What looks like a URL's user and password is not quoted (it may hold a key).
    const shown = target.slice(0, 100).replace(/\/\/[^/?#]*@/, '//***@');
    throw new MockOptionsError(`${takes}; got ${JSON.stringify(shown)}, which is not a URL.`);
  }
  return withoutCredentials(url, takes);
}

/**
 * The URL, refused when it carries a user or password (`http://user:key@localhost/v1/pets`): Request
 * refuses it too, with a TypeError that quoted the whole URL, the key in it, into the caller's logs.
 */
function withoutCredentials(url: URL, takes: string): URL {
  if (url.username === '' && url.password === '') return url;
  throw new MockOptionsError(
    `${takes}, with no user or password in it (fetch refuses them too); got one that has them, not shown. Send a key as the Authorization header: { headers: { Authorization: 'Bearer <key>' } }.`,
  );
}

const isRequest = (value: unknown): value is Request =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Partial<Request>).url === 'string' &&
  typeof (value as Partial<Request>).method === 'string' &&
  typeof (value as Partial<Request>).headers?.get === 'function';

/** A fault's quoted number at its end: `must be >= 1; got 0`. */
const GOT_NUMBER = /; got (-?\d[\d.eE+-]*)$/;

/**
 * A refused body's or query's faults with each top-level number quoted as it was sent, where reading
 * it made another spelling of it: `-0` was quoted `0` (and in a body `0e5`, `0.50` as `0`, `0.5`), so
 * the message named a value the client never sent. Only on the path of a 400, and only its details'
 * tails change. `sentAt`: the text sent at a pointer (`/categoryId`, `/limit`).
 */
function numbersAsSent(
  verdict: { readonly message: string; readonly details: readonly ErrorDetail[] },
  where: string,
  sentAt: (pointer: string) => string | undefined,
): { message: string; details: readonly ErrorDetail[] } {
  let { message } = verdict;
  const details = verdict.details.map((detail, index) => {
    const got = GOT_NUMBER.exec(detail.message)?.[1];
    const sent = got === undefined ? undefined : sentAt(detail.path);
    if (got === undefined || sent === undefined || sent === got || Number(sent) !== Number(got))
      return detail;
    const changed = { path: detail.path, message: `${detail.message.slice(0, -got.length)}${sent}` };
    // The message repeats the first fault: `Invalid body: /categoryId must be >= 1; got 0.`
    const first = `Invalid ${where}: ${detail.path} ${detail.message}`;
    if (index === 0 && message.startsWith(first))
      message = `Invalid ${where}: ${changed.path} ${changed.message}${message.slice(first.length)}`;
    return changed;
  });
  return { message, details };
}

const PLUS_NOTE = ' (a + in a query string is a space: send %2B for a plus sign)';

/**
 * A refused query's faults, each whose parameter was sent with a `+` told that it reads as a space:
 * `?limit=+5` was told `got " 5"`, a value the client never typed. Only when the query holds a `+`.
 */
function plusNoted(
  message: string,
  details: readonly ErrorDetail[],
  search: string,
): { message: string; details: readonly ErrorDetail[] } {
  const plussed = new Set<string>();
  for (const pair of search.slice(1).split('&')) {
    const equals = pair.indexOf('=');
    if (equals !== -1 && pair.includes('+', equals)) plussed.add(`/${pair.slice(0, equals)}`);
  }
  return noted(message, details, (detail) =>
    plussed.has(detail.path) && /; got "[^"]* [^"]*"$/.test(detail.message) ? PLUS_NOTE : undefined,
  );
}

/**
 * A refused query's faults, each whose parameter's value is percent-encoding that does not decode as
 * UTF-8 (`?status=%E0%A4%A`, `?limit=%FF`), told so with the value as sent: a query string is read
 * leniently (each such byte a U+FFFD), and the fault quoted `got "\uFFFD%A"`, a value the client never
 * sent. (A path's parameter is refused for it outright: "its percent-encoding does not decode".) Only
 * when the query holds a `%`.
 */
function undecodableNoted(
  message: string,
  details: readonly ErrorDetail[],
  search: string,
): { message: string; details: readonly ErrorDetail[] } {
  const sent = new Map<string, string>();
  for (const pair of search.slice(1).split('&')) {
    const equals = pair.indexOf('=');
    if (equals === -1 || !pair.includes('%', equals)) continue;
    const value = pair.slice(equals + 1);
    try {
      decodeURIComponent(value.replaceAll('+', ' '));
    } catch {
      sent.set(`/${pair.slice(0, equals)}`, value);
    }
  }
  if (sent.size === 0) return { message, details };
  return noted(message, details, (detail) => {
    const value = sent.get(detail.path);
    return value === undefined
      ? undefined
      : ` (its percent-encoding ${JSON.stringify(shown(value))} does not decode as UTF-8)`;
  });
}

/** The faults with each one's note (`noteOf`) after its message, the first's in the message too. */
function noted(
  message: string,
  details: readonly ErrorDetail[],
  noteOf: (detail: ErrorDetail) => string | undefined,
): { message: string; details: readonly ErrorDetail[] } {
  let told = message;
  const changed = details.map((detail, index) => {
    const note = noteOf(detail);
    if (note === undefined) return detail;
    if (index === 0 && told.endsWith('.')) {
      const first = `${detail.path} ${detail.message}`;
      const at = told.indexOf(first);
      if (at !== -1) told = `${told.slice(0, at + first.length)}${note}${told.slice(at + first.length)}`;
    }
    return { path: detail.path, message: `${detail.message}${note}` };
  });
  return { message: told, details: changed };
}

/** Each mock's answer as it comes: the reply itself when nothing had to wait. */
const answerers = new WeakMap<Mock, (call: MockCall, kind?: CallKind) => Awaitable<Reply>>();

/**
 * For adapters that can write an answer at once (node:http): `mock.answer`, but the reply itself, not
 * a promise of it, when nothing had to wait (the in-memory state, no delay). A promise otherwise.
 */
export function answerSoon(mock: Mock, call: MockCall, kind?: CallKind): Awaitable<Reply> {
  const soon = answerers.get(mock);
  return soon === undefined ? mock.answer(call, kind) : soon(call, kind);
}

/** A request's time as the control view says: the view, the mock's time, the real time. */
function timeOf(view: ControlView, started: number): Decided {
  return { started, view, now: mockTime(view.clock, started) };
}

/** An operation that takes no body never reads one. */
const NO_BODY = (): Promise<never> => Promise.reject(new Error('This operation takes no body.'));

/** A rule's fault other than `truncated`: no status (the journal and HAR show 0), nothing to send. */
function faultReply(fault: NetworkFault): Reply {
  return { status: 0, body: null, headers: {}, fault };
}

/**
 * A reset through any replica of a shared state empties every replica's journal. The listener holds
 * the journal weakly (and is made out here, so it holds nothing else of the mock): a mock dropped by
 * its caller is not kept alive by a state that outlives it, and its listener goes at the next reset.
 */
function clearOnReset(state: MockState, journal: Journal): void {
  if (state.onReset === undefined) return;
  const held = new WeakRef(journal);
  const stop = state.onReset((event) => {
    const kept = held.deref();
    if (kept === undefined) stop();
    else if (event.kind === 'reset') kept.clear();
  });
}

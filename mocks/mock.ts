// createMock: the runtime-agnostic core. A call in, an answer out. answerApi is the path of one API
// request, top-down in the order openapi.yaml decides: route → auth → limit → forced → validate →
// operate → headers, each step a named function that passes on what it decided.
import { loadSpec, type OperationId, type OperationSpec } from '../openapi/index.js';
import { type Authentication, authenticate } from './auth.js';
import { type BodyRefusal, readJsonBody } from './body.js';
import { BodyAbortedError, callFromRequest, type MockCall } from './call.js';
import { type CallKind, callKind } from './call-kind.js';
import { answerControl, CONTROL_PREFIX, type Controlled } from './control.js';
import { createEventStreams } from './control-events.js';
import { pageDataOf } from './control-page.js';
import { createControls, type MockClock, type MockRules } from './controls.js';
import { createJournal, type Journal, type JournalEntry } from './journal.js';
import { anonymousLimits, type ResolvedKey, resolveKeys } from './keys.js';
import { memoryState } from './memory-state.js';
import { IMPLEMENTATIONS, type OperationInput } from './operations.js';
import {
  type MockOptions,
  type NormalizedMockOptions,
  normalizeOptions,
  type ResetOptions,
  resetPets,
  silentLogger,
} from './options.js';
import { type Preferences, parsePrefer } from './prefer.js';
import { forced, tooMany, unauthorized, unrouted } from './refusals.js';
import {
  addDeprecationHeaders,
  addRateHeaders,
  errorReply,
  preflightReply,
  type Reply,
  toResponse,
} from './responses.js';
import { createRouter, type RouteMatch } from './router.js';
import { seedPets } from './seed-pets.js';
import { type Awaitable, type MockState, type RateDecision, StateUnavailableError } from './state.js';
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
  handle(request: Request, context?: HandleContext): Promise<Response>;
  /**
   * The core itself, for adapters: a call in, an answer out (status, headers, body), with no Web
   * Request or Response built. handle() is this over a Request.
   */
  answer(call: MockCall, kind?: CallKind): Promise<Reply>;
  /** Calls handle with a path such as `/v1/pets`, no server needed. */
  request(path: string, init?: RequestInit): Promise<Response>;
  /**
   * Back to the seeded pets, with empty rate-limit buckets and journal: done on return in memory; a
   * promise with a shared state (every replica's journal is emptied too). `{ seed, pets }` re-seeds
   * this once (pets as the `pets` option: a count or the pets themselves). Throws MockOptionsError
   * for options that cannot be used, naming the bad one (or the bad pet).
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

/** What answering one API call decided: the reply, the operation it was routed to, its delay. */
interface Answer {
  readonly reply: Reply;
  readonly operationId: string | null;
  /** `Prefer: delay=`; undefined: the mock's latency. */
  readonly delay: number | undefined;
  /** The valid key the call carried (the journal names it), if any. */
  readonly key?: ResolvedKey | undefined;
}

/**
 * What answerApi's steps have decided so far, filled in as each decides: when a later step throws,
 * the 500 still carries what every answer of the operation carries (its window's rate-limit headers,
 * getPet's deprecation headers) and the journal names the operation and key.
 */
interface Decided {
  operation?: OperationSpec;
  decision?: RateDecision;
  key?: ResolvedKey;
}

export function createMock(options: MockOptions = {}): Mock {
  const normalized = normalizeOptions(options);
  const { clock, logger, latency, random } = normalized;
  const spec = loadSpec();
  const router = createRouter(spec);
  const api = {
    basePath: spec.basePath,
    routes: spec.operations.map((o) => `${o.method} ${spec.basePath}${o.path}`).join(', '),
  };
  const keys = resolveKeys(normalized.keys);
  const anonymous = anonymousLimits(normalized.keys);
  const state = normalized.state ?? memoryState(normalized.maxPets);
  const { store, limiter } = state;
  const journal = createJournal(normalized.journalLimit);
  const seeded = normalized.fixtures ?? seedPets(normalized.seed, normalized.pets);
  let inFlight = 0;
  /** The shared state is lost: answering 503 since (logged once, and once when it is back). */
  let lost = false;
  const observers = new Set<(entry: JournalEntry) => void>();

  /** Back to the seeded pets, or to those `options` asks for (this once: a later reset() is the seeded again). */
  const reset = (options?: ResetOptions): Awaitable<void> => {
    const pets = options === undefined ? seeded : resetPets(options, normalized, seeded);
    journal.clear();
    return state.reset(pets);
  };
  clearOnReset(state, journal);
  /**
   * The seeded state. An engine that seeds with a promise makes the first calls wait for it; when
   * that fails (its database lost), the next call tries again, and answers 503 meanwhile.
   */
  let seeding: Promise<void> | undefined;
  let seedAgain = false;
  const seed = (): void => {
    const done = state.seed(seeded);
    if (!(done instanceof Promise)) return;
    const attempt = done.then(
      () => {
        seeding = undefined;
      },
      (error: unknown) => {
        seedAgain = true;
        throw error;
      },
    );
    attempt.catch(() => undefined);
    seeding = attempt;
  };
  seed();
  const logging = logger !== silentLogger;
  const control: Controlled = {
    reset: async (options) => {
      await reset(options);
      return store.count();
    },
    journal,
    maxPets: normalized.maxPets,
    pageData: pageDataOf(spec, keys),
    observe: (listener) => observe(listener),
    records: () => journal.records(),
    streams: createEventStreams(),
    health: async () => ({
      pets: await store.count(),
      inFlight,
      rateLimitBuckets: await limiter.count(),
    }),
  };

  /** Any call: the control API, or the API with its latency, journal entry and log line. */
  async function answer(call: MockCall, kind: CallKind = callKind(call)): Promise<Reply> {
    if (kind === 'control') {
      return answerControl(call, control).catch((error: unknown) => failed(error, call, {}).reply);
    }
    const started = clock();
    inFlight += 1;
    const read = bodyRecorder(call);
    let answered: Answer;
    let delay = 0;
    const decided: Decided = {};
    try {
      answered = await answerApi(read.call, decided);
      if (lost) back();
    } catch (error) {
      answered = failed(error, call, decided);
    }
    try {
      delay = answered.delay ?? drawLatency();
      if (delay > 0) await new Promise<void>((resolve) => setTimeout(resolve, delay));
    } finally {
      inFlight -= 1;
    }
    record(call, answered, started, delay, read.bytes());
    return answered.reply;
  }

  /** One API call, step by step in the order they run, noting in `decided` what each decided. */
  async function answerApi(call: MockCall, decided: Decided): Promise<Answer> {
    if (seeding !== undefined) {
      if (seedAgain) {
        seedAgain = false;
        seed();
      }
      await seeding;
    }
    const route = router.match(call.method, call.url.pathname);
    if (route.kind === 'preflight') {
      const reply = preflightReply(route.allow, call.header('access-control-request-headers'));
      return { reply, operationId: null, delay: 0 };
    }
    if (route.kind === 'operation') decided.operation = route.operation;
    const now = clock();
    const auth = authenticate(call.header('authorization'), keys);
    if (auth.kind === 'ok') decided.key = auth.key;
    const decision = await limit(auth, call.clientAddress, now);
    decided.decision = decision;
    if (route.kind !== 'operation') {
      const reply = unrouted(route, call.method, call.url.pathname, api);
      return { reply: addRateHeaders(reply, decision), operationId: null, delay: undefined };
    }
    const { operation } = route;
    const prefer = parsePrefer(call.header('prefer'));
    let reply =
      tooMany(decision, auth) ?? forced(prefer.code, operation, auth, decision, now) ?? unauthorized(auth);
    if (reply === undefined) {
      const request = await validate(call, route);
      reply = 'refused' in request ? request.refused : await operate(operation, request);
    }
    return {
      reply: withHeaders(reply, operation, decision, prefer),
      operationId: operation.id,
      delay: prefer.delay,
      key: auth.kind === 'ok' ? auth.key : undefined,
    };
  }

  /** Counts the call in its key's bucket, or in its address's when no valid key was sent. */
  function limit(
    auth: Authentication,
    clientAddress: string | undefined,
    now: number,
  ): Awaitable<RateDecision> {
    return auth.kind === 'ok'
      ? limiter.take({ kind: 'key', id: auth.key.key }, auth.key, now)
      : limiter.take({ kind: 'address', id: clientAddress ?? 'unknown' }, anonymous, now);
  }

  /** The request read as its operation's parameters and body say: its input, or why it is refused. */
  async function validate(
    call: MockCall,
    route: Extract<RouteMatch, { kind: 'operation' }>,
  ): Promise<OperationInput | { refused: Reply }> {
    let bodyText = '';
    const verdict = await route.operation.validateRequest<BodyRefusal>({
      pathParams: route.params,
      query: call.url.search === '' ? undefined : call.url.searchParams,
      readBody: async () => {
        const read = await readJsonBody(call);
        if ('text' in read) bodyText = read.text;
        return read;
      },
    });
    if (verdict.kind === 'invalid') {
      return { refused: errorReply('validation_failed', verdict.message, verdict.details) };
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

  function operate(operation: OperationSpec, input: OperationInput): Promise<Reply> {
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
  function failed(error: unknown, call: MockCall, decided: Decided): Answer {
    if (error instanceof StateUnavailableError) {
      if (!lost) logger.error(`petkit mock: ${error.message}; answering 503 until it is back`);
      lost = true;
      return stateLost(call);
    }
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
  function stateLost(call: MockCall): Answer {
    if (call.url.pathname.startsWith(CONTROL_PREFIX)) {
      return { reply: stateUnavailableReply(undefined, undefined, clock()), operationId: null, delay: 0 };
    }
    const route = router.match(call.method, call.url.pathname);
    const operation = route.kind === 'operation' ? route.operation : undefined;
    const auth = authenticate(call.header('authorization'), keys);
    const reply = stateUnavailableReply(operation, auth.kind === 'ok' ? auth.key : anonymous, clock());
    return { reply, operationId: operation?.id ?? null, delay: 0 };
  }

  function back(): void {
    lost = false;
    logger.error('petkit mock: the shared state is back; answering again');
  }

  function drawLatency(): number {
    return latency.max === 0 ? 0 : latency.min + Math.floor(random() * (latency.max - latency.min + 1));
  }

  /** The call as answerApi reads it, keeping the body's bytes it read for the journal. */
  function bodyRecorder(call: MockCall): { call: MockCall; bytes(): Uint8Array | undefined } {
    if (!call.body.present) return { call, bytes: () => undefined };
    let bytes: Uint8Array | undefined;
    const { body } = call;
    const recorded: MockCall = {
      method: call.method,
      url: call.url,
      header: (name) => call.header(name),
      rawHeaders: () => call.rawHeaders(),
      clientAddress: call.clientAddress,
      body: {
        present: true,
        read: async (limit) => {
          bytes = await body.read(limit);
          return bytes;
        },
      },
    };
    return { call: recorded, bytes: () => bytes };
  }

  /** The journal entry and the log line: the error code and a forced answer shown, never the key. */
  function record(
    call: MockCall,
    answered: Answer,
    started: number,
    delayMs: number,
    requestBody: Uint8Array | undefined,
  ): void {
    const kept = journal.record({
      time: started,
      method: call.method,
      target: call.url.pathname + call.url.search,
      operationId: answered.operationId,
      key: answered.key,
      requestHeaders: call.rawHeaders(),
      requestBody,
      reply: answered.reply,
      delayMs,
      durationMs: clock() - started,
    });
    if (observers.size > 0) {
      const entry = kept.entry();
      for (const listener of observers) listener(entry);
    }
    if (logging) {
      const { method, path, status, code, forced, durationMs } = kept;
      const why = code === null ? '' : ` ${code}${forced ? ' (forced)' : ''}`;
      logger.info(`${method} ${path} ${status}${why} ${durationMs}ms`);
    }
  }

  const controls = createControls({
    state,
    real: clock,
    rules: { seed: normalized.seed, keys },
    keys,
  });

  const handle = async (request: Request, context?: HandleContext): Promise<Response> =>
    toResponse(await answer(callFromRequest(request, context?.clientAddress)), request.method === 'HEAD');

  function observe(listener: (entry: JournalEntry) => void): () => void {
    observers.add(listener);
    return () => observers.delete(listener);
  }

  return {
    options: normalized,
    get journal() {
      return journal.entries();
    },
    get inFlight() {
      return inFlight;
    },
    handle,
    answer,
    request: (path, init) => handle(new Request(new URL(path, LOCAL_ORIGIN), init)),
    reset,
    observe,
    rules: controls.rules,
    clock: controls.clock,
  };
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

// createMock: the runtime-agnostic core. A Web Request in, a Response out, in the order DESIGN.md
// fixes: route → auth → rate limit → (forced response) → 401 → validation → operation.
import { describeFault, type Fault, loadSpec, type OperationSpec } from '../openapi/index.js';
import { type Authentication, authenticate } from './auth.js';
import { readJsonBody } from './body.js';
import { BodyAbortedError, callFromRequest, type MockCall } from './call.js';
import { ERRORS, FORCED_CODES } from './errors.js';
import { createJournal, type JournalEntry } from './journal.js';
import { anonymousLimits, resolveKeys } from './keys.js';
import { IMPLEMENTATIONS } from './operations.js';
import { type MockOptions, type NormalizedMockOptions, normalizeOptions, silentLogger } from './options.js';
import { parsePrefer } from './prefer.js';
import { createRateLimiter, MAX_ANONYMOUS_BUCKETS, type RateDecision } from './rate-limiter.js';
import {
  addDeprecationHeaders,
  addRateHeaders,
  CHALLENGE,
  errorReply,
  INVALID_TOKEN_CHALLENGE,
  preflightReply,
  type Reply,
  reply,
  toResponse,
} from './responses.js';
import { createRouter, type RouteMatch } from './router.js';
import { seedPets } from './seed-pets.js';
import { createStore } from './store.js';

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
  answer(call: MockCall): Promise<Reply>;
  /** Calls handle with a path such as `/v1/pets`, no server needed. */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** Back to the seeded pets, with empty rate-limit buckets and journal. */
  reset(): void;
}

/** The control API lives outside the base path. */
export const CONTROL_PREFIX = '/__petkit/';
const LOCAL_ORIGIN = 'http://petkit.local';

interface Answer {
  reply: Reply;
  operationId: string | null;
  delay: number | undefined;
}

function whereOf(operation: OperationSpec, name: string): string {
  return operation.parameters.find((p) => p.name === name)?.in ?? 'body';
}

function invalid(where: string, faults: readonly Fault[]): Reply {
  const details = faults.map(describeFault);
  const [first] = details;
  const more = details.length > 1 ? ` (and ${details.length - 1} more)` : '';
  const message =
    first === undefined
      ? undefined
      : `Invalid ${where}: ${first.path === '' ? '' : `${first.path} `}${first.message}${more}.`;
  return errorReply('validation_failed', message, details);
}

export function createMock(options: MockOptions = {}): Mock {
  const normalized = normalizeOptions(options);
  const { clock, logger, latency } = normalized;
  const spec = loadSpec();
  const router = createRouter(spec);
  const basePath = spec.basePath;
  const basePrefix = `${basePath}/`;
  const routeList = spec.operations.map((o) => `${o.method} ${basePath}${o.path}`).join(', ');
  const keys = resolveKeys(normalized.keys);
  const anonymous = anonymousLimits(normalized.keys);
  // Keyed buckets are as many as the keys; anonymous ones (one per client address) are capped.
  const keyLimiter = createRateLimiter();
  const anonymousLimiter = createRateLimiter({ maxBuckets: MAX_ANONYMOUS_BUCKETS });
  const journal = createJournal();
  const store = createStore(normalized.maxPets);
  const seeded = seedPets(normalized.seed, normalized.pets);
  const logging = logger !== silentLogger;
  let inFlight = 0;

  const reset = () => {
    store.clear();
    for (const pet of seeded) store.create(pet);
    keyLimiter.reset();
    anonymousLimiter.reset();
    journal.clear();
  };
  reset();

  const forced = (
    status: number,
    operation: OperationSpec,
    decision: RateDecision,
    now: number,
    auth: Authentication,
  ): Reply => {
    const missing = status === 401 && auth.kind === 'missing';
    const code = missing ? 'missing_api_key' : (FORCED_CODES.get(status) ?? 'internal_error');
    const message = `${ERRORS[code].message} (Forced by Prefer: code=${status}.)`;
    const extra: Record<string, string> = { 'preference-applied': `code=${status}` };
    if (status === 401) extra['www-authenticate'] = missing ? CHALLENGE : INVALID_TOKEN_CHALLENGE;
    if (status === 429) {
      decision = { ...decision, remaining: 0 };
      extra['retry-after'] = String(Math.max(1, Math.ceil((decision.reset * 1000 - now) / 1000)));
    }
    const answer = addRateHeaders(errorReply(code, message, undefined, extra), decision);
    return operation.deprecated ? addDeprecationHeaders(answer) : answer;
  };

  const unauthorized = (auth: Authentication): Reply =>
    auth.kind === 'missing'
      ? errorReply('missing_api_key', undefined, undefined, { 'www-authenticate': CHALLENGE })
      : errorReply('invalid_api_key', undefined, undefined, { 'www-authenticate': INVALID_TOKEN_CHALLENGE });

  const tooMany = (decision: RateDecision, limits: { perMinute: number; perDay: number }): Reply => {
    const retry = { 'retry-after': String(decision.retryAfter) };
    if (decision.banned) {
      return errorReply(
        'api_key_banned',
        `Banned for too many requests while limited. Retry in ${decision.retryAfter} s.`,
        undefined,
        retry,
      );
    }
    const per = decision.limit === limits.perMinute ? 'minute' : 'day';
    return errorReply(
      'rate_limited',
      `Rate limit of ${decision.limit} requests per ${per} exceeded. Retry in ${decision.retryAfter} s.`,
      undefined,
      retry,
    );
  };

  const answerOperation = async (
    call: MockCall,
    route: Extract<RouteMatch, { kind: 'operation' }>,
    auth: Authentication,
    decision: RateDecision,
    limits: { perMinute: number; perDay: number },
    now: number,
  ): Promise<Answer> => {
    const { operation } = route;
    const { url } = call;
    const prefer = parsePrefer(call.header('prefer'));
    const finish = (answer: Reply): Answer => {
      addRateHeaders(answer, decision);
      if (operation.deprecated) addDeprecationHeaders(answer);
      if (prefer.delay !== undefined) answer.headers['preference-applied'] = `delay=${prefer.delay}`;
      return { reply: answer, operationId: operation.id, delay: prefer.delay };
    };
    if (!decision.allowed) return finish(tooMany(decision, limits));
    if (prefer.code !== undefined && prefer.code >= 400 && operation.responses.has(String(prefer.code))) {
      const answer = forced(prefer.code, operation, decision, now, auth);
      if (prefer.delay !== undefined) answer.headers['preference-applied'] += `, delay=${prefer.delay}`;
      return { reply: answer, operationId: operation.id, delay: prefer.delay };
    }
    if (auth.kind !== 'ok') return finish(unauthorized(auth));

    if (route.params === null) {
      return finish(
        errorReply('validation_failed', 'Invalid path: its percent-encoding does not decode.', [
          { path: '', message: 'is not valid percent-encoding' },
        ]),
      );
    }
    const params: Record<string, unknown> = {};
    const faults: Fault[] = [];
    const query = url.search === '' ? undefined : url.searchParams;
    for (const parameter of operation.parameters) {
      const given =
        parameter.in === 'path' ? [route.params[parameter.name]] : (query?.getAll(parameter.name) ?? []);
      if (given.length > 1) {
        // Every parameter of the API takes one value: which of several was meant is not ours to guess.
        faults.push({
          instancePath: `/${parameter.name}`,
          schemaPath: '#/maxItems',
          keyword: 'maxItems',
          params: { limit: 1 },
          message: `must be given once, not ${given.length} times`,
        });
        continue;
      }
      const parsed = parameter.parse(given[0]);
      params[parameter.name] = parsed.value;
      faults.push(...parsed.faults);
    }
    if (faults.length > 0) {
      const where = whereOf(operation, (faults[0]?.instancePath ?? '').slice(1));
      return finish(invalid(where, faults));
    }

    let body: unknown;
    const bodySpec = operation.requestBody?.content.get('application/json');
    if (bodySpec !== undefined) {
      const read = await readJsonBody(call);
      if (!read.ok) return finish(errorReply(read.code, read.message));
      const bodyFaults = bodySpec.validate(read.value);
      if (bodyFaults.length > 0) return finish(invalid('body', bodyFaults));
      body = read.value;
    }
    return finish(
      IMPLEMENTATIONS[operation.id as keyof typeof IMPLEMENTATIONS](
        { params, raw: route.params, body, basePath },
        store,
      ),
    );
  };

  const answerApi = async (call: MockCall): Promise<Answer> => {
    const { method, clientAddress } = call;
    const { pathname } = call.url;
    const underBase = pathname === basePath || pathname.startsWith(basePrefix);
    const route: RouteMatch = underBase ? router.match(method, pathname) : { kind: 'not_found' };
    if (route.kind === 'preflight')
      return {
        reply: preflightReply(route.allow, call.header('access-control-request-headers')),
        operationId: null,
        delay: 0,
      };

    const now = clock();
    const auth = authenticate(call.header('authorization'), keys);
    const limits = auth.kind === 'ok' ? auth.key : anonymous;
    const decision =
      auth.kind === 'ok'
        ? keyLimiter.take(auth.key, limits, now)
        : anonymousLimiter.take(clientAddress ?? 'unknown', limits, now);

    if (route.kind === 'not_found') {
      const answer = errorReply(
        'route_not_found',
        underBase
          ? `No route ${method} ${pathname}. The routes: ${routeList}.`
          : `No route ${method} ${pathname}; the API is under ${basePath}.`,
      );
      return { reply: addRateHeaders(answer, decision), operationId: null, delay: undefined };
    }
    if (route.kind === 'method_not_allowed') {
      const answer = errorReply(
        'method_not_allowed',
        `${method} is not allowed here; use ${route.allow}.`,
        undefined,
        {
          allow: route.allow,
        },
      );
      return { reply: addRateHeaders(answer, decision), operationId: null, delay: undefined };
    }
    return answerOperation(call, route, auth, decision, limits, now);
  };

  const answerControl = (method: string, pathname: string, requestedHeaders: string | null): Reply => {
    const name = pathname.slice(CONTROL_PREFIX.length);
    const allow =
      name === 'reset'
        ? 'POST, OPTIONS'
        : name === 'requests' || name === 'health'
          ? 'GET, HEAD, OPTIONS'
          : '';
    if (allow === '') return errorReply('route_not_found', `No control route ${pathname}.`);
    if (method === 'OPTIONS') return preflightReply(allow, requestedHeaders);
    if (!allow.split(', ').includes(method)) {
      return errorReply('method_not_allowed', `${method} is not allowed here; use ${allow}.`, undefined, {
        allow,
      });
    }
    if (name === 'reset') {
      reset();
      return reply(200, JSON.stringify({ status: 'reset', pets: store.size }));
    }
    if (name === 'requests') return reply(200, JSON.stringify(journal.entries()));
    const rateLimitBuckets = keyLimiter.size + anonymousLimiter.size;
    return reply(200, JSON.stringify({ status: 'ok', pets: store.size, inFlight, rateLimitBuckets }));
  };

  const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

  const answer = async (call: MockCall): Promise<Reply> => {
    const started = clock();
    const { method, url } = call;
    const head = method === 'HEAD';
    if (url.pathname.startsWith(CONTROL_PREFIX))
      return answerControl(
        head ? 'GET' : method,
        url.pathname,
        call.header('access-control-request-headers'),
      );
    inFlight += 1;
    let answered: Answer;
    try {
      answered = await answerApi(call);
    } catch (error) {
      if (error instanceof BodyAbortedError) {
        // The client's fault, and nobody is left to read the answer: journal it as what it is.
        answered = { reply: errorReply('malformed_json', error.message), operationId: null, delay: 0 };
      } else {
        logger.error(`petkit mock: ${method} ${url.pathname} failed: ${String(error)}`);
        answered = { reply: errorReply('internal_error'), operationId: null, delay: undefined };
      }
    }
    const delay =
      answered.delay ??
      (latency.max === 0 ? 0 : latency.min + Math.floor(Math.random() * (latency.max - latency.min + 1)));
    try {
      if (delay > 0) await wait(delay);
    } finally {
      inFlight -= 1;
    }
    const path = url.pathname + url.search;
    const status = answered.reply.status;
    const durationMs = clock() - started;
    journal.record({ time: started, method, path, operationId: answered.operationId, status, durationMs });
    if (logging) logger.info(`${method} ${path} ${status} ${durationMs}ms`);
    return answered.reply;
  };

  const handle = async (request: Request, context?: HandleContext): Promise<Response> =>
    toResponse(await answer(callFromRequest(request, context?.clientAddress)), request.method === 'HEAD');

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
  };
}

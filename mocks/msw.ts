// The MSW adapter (`petkit/msw`): the same core as the server, as request handlers for setupServer
// (msw/node) and setupWorker (msw/browser), and `override`, one operation's answer replaced in a
// test. A rule's network fault reaches MSW as the core's Response.error(), which MSW answers as a
// network error (HttpResponse.error()): the app's fetch rejects. Browser-safe: imports nothing from Node. (One file, so that its CommonJS declarations,
// msw.d.cts, made by scripts/cjs-types.mjs, name msw through `require` throughout.)
import { HttpHandler, type RequestHandler, type RequestHandlerOptions, type ResponseResolver } from 'msw';
import { loadSpec, type OperationId, type operations } from '../openapi/index.js';
import { CONTROL_PREFIX } from './control.js';
import { errorBody } from './errors.js';
import { createMock, type Mock } from './mock.js';
import { type BaseUrl, literal, parseBaseUrl, pathUnder } from './msw-base-url.js';
import { kindOf, type MockOptions, normalizeOptions } from './options.js';
import { type CheckedAnswer, checkAnswer, operationFault } from './override-answer.js';
import { completeHeaders, documentedHeaders, type OverrideHeaders } from './override-headers.js';
import { reply, toResponse } from './responses.js';

/**
 * Where the handlers answer. `baseUrl` is the API's base URL as your app calls it: with an origin
 * (`https://api.example.test/v1`, or `https://api.example.test` for an API at its origin's root),
 * `*` for any origin (the default `*\/v1`: `/v1` on any origin), or relative to the page in a browser
 * (`/api/v1`). The control API answers beside it: `…/__petkit/*` in place of the path's last segment
 * (at the origin's root, `/__petkit/*`).
 */
export type HandlersOptions = (
  | (MockOptions & { mock?: never })
  // The mock's options beside a mock were taken and ignored, the mock's own standing: never both.
  | ({ mock: Mock } & { [Option in keyof MockOptions]?: undefined })
) & { baseUrl?: string | undefined };

export const DEFAULT_BASE_URL = '*/v1';

export function createHandlers(options: HandlersOptions = {}): RequestHandler[] {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new TypeError(
      `petkit/msw: createHandlers takes an object, { mock, baseUrl? } or the mock's options and baseUrl; got ${kindOf(options)}.`,
    );
  const { baseUrl, ...rest } = options;
  let mock = 'mock' in rest ? rest.mock : undefined;
  // Checked now, not on the first request: a wrong option was thrown then inside MSW, which answered
  // the app's request 500 with the error's stack trace as its body.
  if ('mock' in rest) {
    const given = mock as Partial<Mock> | null | undefined;
    if (typeof given !== 'object' || given === null || typeof given.handle !== 'function')
      throw new TypeError(`petkit/msw: mock must be a mock made by createMock(), got ${kindOf(given)}.`);
    // `{ mock, seed: 7 }` answered with the mock's own seed, the 7 dropped unsaid.
    const beside = Object.entries(rest)
      .filter(([name, value]) => name !== 'mock' && value !== undefined)
      .map(([name]) => name);
    if (beside.length > 0)
      throw new TypeError(
        `petkit/msw: createHandlers takes { mock, baseUrl? } or the mock's options, not both: ${beside.slice(0, 5).join(', ')} would be ignored beside a mock, which has its own (give them to createMock).`,
      );
  } else if (Object.keys(rest).length > 0) normalizeOptions(rest as MockOptions);
  // Created on the first request, so importing `handlers` costs nothing until it is used.
  const mockOf = () => {
    mock ??= createMock(rest as MockOptions);
    return mock;
  };
  return handlersFor(mockOf, baseUrl);
}

function handlersFor(mockOf: () => Mock, baseUrl = DEFAULT_BASE_URL): RequestHandler[] {
  const base = parseBaseUrl(baseUrl);
  const apiPath = loadSpec().basePath;
  const controlPath = CONTROL_PREFIX.slice(0, -1);

  /**
   * The request under the path the core knows (`/v1/…`, `/__petkit/…`, or the bare `/v1`,
   * `/__petkit`); undefined: not this base's.
   */
  const rebase = (request: Request, from: string, to: string): Request | undefined => {
    const rest = pathUnder(from, request) ?? (pathIs(from, request) ? '' : undefined);
    if (rest === undefined) return undefined;
    if (from === to) return request;
    const url = new URL(request.url);
    url.pathname = to + rest;
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    return new Request(url, {
      method: request.method,
      headers: request.headers,
      // The app's abort still ends the mock's wait for it (a delay), as at the contract's own path.
      signal: request.signal,
      ...(hasBody ? { body: request.body, duplex: 'half' } : {}),
    } as RequestInit);
  };
  const answer = (request: Request, from: string, to: string) => {
    const rebased = rebase(request, from, to);
    return rebased === undefined ? undefined : mockOf().handle(rebased);
  };
  /**
   * An API answer whose Location and Link name the contract's path (`/v1/pets/51`), and a 404 whose
   * message names it (`No route GET /v1/nope. The routes: GET /v1/pets, …`), at the app's instead.
   */
  const atBase = async (answering: Promise<Response> | undefined): Promise<Response | undefined> => {
    const response = await answering;
    if (response === undefined || response.type === 'error' || atContractPaths) return response;
    const location = response.headers.get('location');
    if (location?.startsWith(`${apiPath}/`))
      response.headers.set('location', base.path + location.slice(apiPath.length));
    const link = response.headers.get('link');
    if (link?.startsWith(`<${apiPath}/`))
      response.headers.set('link', `<${base.path}${link.slice(apiPath.length + 1)}`);
    if (response.status !== 404 || response.body === null) return response;
    const body = (await response.clone().json()) as { code?: unknown; message?: unknown };
    if (body.code !== 'route_not_found' || typeof body.message !== 'string') return response;
    // Each path in it follows a space: the request's (`GET /v1/…`), the routes', the page's.
    const message = body.message.replace(contractPaths, (path: string, at: number, text: string) =>
      path === ` ${apiPath}`
        ? // The bare base path (`the API is under /v1`), at an origin's root `/`.
          ` ${base.path === '' && text[at + path.length] !== '/' ? '/' : base.path}`
        : ` ${base.controlPath}`,
    );
    return new Response(JSON.stringify({ ...body, message }), {
      status: response.status,
      headers: response.headers,
    });
  };

  const atContractPaths = base.path === apiPath && base.controlPath === controlPath;
  /** The contract's base path and control path, where a 404's message names them. */
  const contractPaths = new RegExp(` (?:${escaped(apiPath)}|${escaped(controlPath)})(?=[/.;,]|$)`, 'g');
  const answerApi = ({ request }: { request: Request }) => atBase(answer(request, base.path, apiPath));
  const answerControl = ({ request }: { request: Request }) =>
    atBase(answer(request, base.controlPath, controlPath));

  // The control API first: for an API at its origin's root, `/__petkit/*` is under the API's pattern
  // too. The bare paths (`/v1`, `/__petkit`, without the last `/`) went to the network, unhandled,
  // where `petkit mock` and mock.request answer a 404 that says where the routes and the page are.
  return [
    new UnderBasePath(
      ANY_METHOD,
      `${base.pattern}${literal(base.controlPath)}/*`,
      base,
      base.controlPath,
      answerControl,
      {
        bare: true,
      },
    ),
    new UnderBasePath(ANY_METHOD, `${base.pattern}${literal(base.path)}/*`, base, base.path, answerApi, {
      bare: true,
    }),
  ];
}

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether a request's path is `base` itself, without the last `/`. */
const pathIs = (base: string, request: Request): boolean => new URL(request.url).pathname === base;

/** What `http.all` matches: any method. */
const ANY_METHOD = /.+/;
const GET_OR_HEAD = /^(?:GET|HEAD)$/;

/**
 * MSW's handler for a pattern, that matches a request only when its path starts with the base path
 * and its origin is the base URL's (`BaseUrl.onOrigin`: MSW is given `*` for an origin with a wildcard).
 * MSW's `*` in the origin spans slashes, so `*\/v1/*` matched `/api/v1/pets` too; the handler then
 * answered nothing, and MSW, which counts a matching handler as handling the request, let it through
 * to the network, even under `onUnhandledRequest: 'error'`. Not matched here, it is unhandled, as
 * the app's test expects: MSW's warning or error, or the handlers after this one.
 */
class UnderBasePath extends HttpHandler {
  readonly #base: BaseUrl;
  readonly #basePath: string;
  readonly #bare: boolean;
  constructor(
    method: string | RegExp,
    pattern: string,
    base: BaseUrl,
    basePath: string,
    resolver: ResponseResolver<{ params: Record<string, string | readonly string[] | undefined> }>,
    /** `bare`: the base path itself (`/v1`), which the pattern's `/*` does not match, is answered too. */
    options?: RequestHandlerOptions & { bare?: boolean },
  ) {
    const { bare = false, ...rest } = options ?? {};
    super(method, pattern, resolver as ConstructorParameters<typeof HttpHandler>[2], rest);
    this.#base = base;
    this.#basePath = basePath;
    this.#bare = bare;
  }
  override predicate(args: Parameters<HttpHandler['predicate']>[0]): ReturnType<HttpHandler['predicate']> {
    const bare = this.#bare && pathIs(this.#basePath, args.request);
    // A plain false, not a promise of one: a promise is truthy to an MSW that does not await this.
    if (
      (!bare && pathUnder(this.#basePath, args.request) === undefined) ||
      !this.#base.onOrigin(args.request)
    )
      return false as unknown as ReturnType<HttpHandler['predicate']>;
    // MSW's match of the pattern said no to the bare path: its method is still MSW's to match.
    if (bare)
      return super.predicate({
        ...args,
        parsedResult: { ...args.parsedResult, match: { matches: true, params: {} } },
      });
    return super.predicate(args);
  }
}

/**
 * Ready handlers with the default options. Each spread of them (`setupWorker(...handlers)`,
 * `setupServer(...handlers)`) is a new set over a mock of its own, created on its first request:
 * this module keeps no mock, and two servers in one process share nothing. (Read by index rather
 * than spread, they are one such set.) Reset a mock with `POST /__petkit/reset`, or call
 * createHandlers() for handlers over a mock you hold.
 */
export const handlers: RequestHandler[] = freshOnEachSpread(() => createHandlers());

function freshOnEachSpread(make: () => RequestHandler[]): RequestHandler[] {
  return Object.defineProperty(make(), Symbol.iterator, { value: () => make()[Symbol.iterator]() });
}

// Typed overrides: one operation's answer replaced, in the style of `server.use(http.get(...))`,
// with its status, body and headers typed from openapi.yaml (a body the operation does not document
// for that status is a type error, and is refused when the override is made), and answered whole:
// the headers the document gives that status, filled in where the test leaves them out.

type Responses<Id extends OperationId> = operations[Id]['responses'];
type JsonBody<R> = R extends { content: { 'application/json': infer Body } } ? Body : never;

/** One documented answer of an operation: a status it lists, that status's JSON body, and headers. */
export type OperationAnswer<Id extends OperationId> = {
  [Status in keyof Responses<Id>]: {
    readonly status: Status;
    readonly body: JsonBody<Responses<Id>[Status]>;
    /**
     * Headers of the answer: a documented one typed as openapi.yaml says (`'Retry-After': 5`), any
     * other as a string or a number. Each documented header not given gets a default that agrees
     * with those given (see `override`); Content-Type is application/json.
     */
    readonly headers?: OverrideHeaders<Id, Status>;
  };
}[keyof Responses<Id>];

/** What the override's resolver is given: the request, and the path parameters by name. */
export interface OverrideInfo {
  readonly request: Request;
  readonly params: Readonly<Record<string, string>>;
}

export type OverrideResolver<Id extends OperationId> = (
  info: OverrideInfo,
) => OperationAnswer<Id> | Promise<OperationAnswer<Id>>;

export interface OverrideOptions {
  /** The API's base URL as your code calls it, as for createHandlers. Default `*\/v1`. */
  baseUrl?: string | undefined;
  /** Answer only the first matching request, then let the handlers after it answer (MSW's `once`). */
  once?: boolean | undefined;
  /** The clock of the default rate-limit headers, in ms since the epoch. Default `Date.now`. */
  now?: (() => number) | undefined;
}

/**
 * An override refused when it is made: an operation openapi.yaml does not have, an answer that is not
 * one it documents (its status, body or headers), or an option of the wrong type. Its message says
 * which, and what is documented instead.
 */
export class OverrideError extends TypeError {
  override readonly name = 'OverrideError';
}

/**
 * A request handler that answers one operation as given, for `server.use(...)` or `worker.use(...)`
 * in front of petkit's handlers: a fixed answer (checked now against openapi.yaml), or a function of
 * the request that answers one. The answer carries every header the document gives its status, as
 * the mock's `Prefer: code=` answer would: those given, and for the others the demo-free key's (the
 * Free plan's 60 a minute, the current minute's window; a 429 has none remaining and a Retry-After
 * until the window's end, or the window ends after a given Retry-After), WWW-Authenticate on a 401,
 * Location on a 201, and the deprecation headers on every answer of getPet. An answer a function
 * returns that would be refused is answered as the mock's own failures are: a 500 `internal_error`
 * whose message says what was wrong.
 */
export function override<Id extends OperationId>(
  operationId: Id,
  answer: NoInfer<OperationAnswer<Id> | OverrideResolver<Id>>,
  options: OverrideOptions = {},
): RequestHandler {
  const refuse = (fault: string) => new OverrideError(`override('${String(operationId)}'): ${fault}`);
  const spec = loadSpec();
  const unknownOperation = operationFault(spec, operationId);
  if (unknownOperation !== undefined) throw refuse(unknownOperation);
  const operation = spec.operation(operationId);
  const headerSpecs = documentedHeaders(spec);
  const { now = Date.now, once = false } = optionsChecked(options, refuse);
  const base = parseBaseUrl(options.baseUrl ?? DEFAULT_BASE_URL, refuse);
  let fixed: CheckedAnswer | undefined;
  if (typeof answer !== 'function') {
    const checked = sendable(checkAnswer(operation, answer, headerSpecs));
    if (typeof checked === 'string') throw refuse(checked);
    fixed = checked;
  }
  const path = `${base.pattern}${literal(base.path)}${operation.path.replace(/\{([^}]+)\}/g, ':$1')}`;
  return new UnderBasePath(
    // A HEAD of a GET operation is its answer without the body, as the mock answers it: MSW's GET
    // alone left HEAD to the handlers after it, so HEAD got the mock's 200 where GET got the override.
    operation.method === 'GET' ? GET_OR_HEAD : operation.method,
    path,
    base,
    base.path,
    async ({ request, params }) => {
      const head = request.method === 'HEAD';
      let given = fixed;
      if (given === undefined) {
        let returned: unknown;
        try {
          returned = await (answer as OverrideResolver<Id>)({
            request,
            params: params as Record<string, string>,
          });
        } catch (error) {
          // MSW answered a throw with a 500 of its own whose body held the stack: the mock's 500 instead.
          return refusedAnswer(`its function threw ${thrownText(error)}.`, undefined, head, true);
        }
        const checked = sendable(checkAnswer(operation, returned, headerSpecs));
        // Known only now: answered as the mock answers a failure of its own, a documented 500.
        if (typeof checked === 'string') return refusedAnswer(checked, returned, head);
        given = checked;
      }
      return answered(given, head);
    },
    { once },
  );

  function answered(given: CheckedAnswer, head: boolean): Response {
    const { status, body } = given;
    const nowMs = now();
    // `now: () => '…'` (or a Date): the default headers said Retry-After: NaN and X-RateLimit-Reset: NaN.
    if (typeof nowMs !== 'number' || !Number.isFinite(nowMs)) {
      const fault = refuse(
        `options.now returned ${typeof nowMs === 'string' ? `'${nowMs}'` : String(nowMs)}, not a number of ms since the epoch.`,
      );
      const error = errorBody('internal_error', fault.message);
      const headers = completeHeaders({
        operation,
        basePath: base.path,
        status: error.status,
        body: error,
        given: new Map(),
        nowMs: Date.now(),
      });
      return toResponse(reply(error.status, JSON.stringify(error), headers), head);
    }
    const headers = completeHeaders({
      operation,
      basePath: base.path,
      status,
      body,
      given: given.headers,
      nowMs,
    });
    return toResponse(reply(status, JSON.stringify(body), headers), head);
  }

  function refusedAnswer(fault: string, returned: unknown, head: boolean, threw = false): Response {
    const why = threw
      ? fault
      : returned === undefined
        ? 'its function returned undefined, not an answer { status, body, headers? } (an arrow function returns an object in parentheses: () => ({ status, body })).'
        : `the answer its function returned is refused: ${fault}`;
    const body = errorBody('internal_error', refuse(why).message);
    return answered({ status: body.status, body, headers: new Map() }, head);
  }
}

/** What a resolver threw, as a message says it: `Error: x`, or the value itself; never its stack. */
function thrownText(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message.slice(0, 200)}`;
  try {
    return String(JSON.stringify(error) ?? String(error)).slice(0, 200);
  } catch {
    return 'a value that cannot be shown';
  }
}

/**
 * A checked answer whose headers a Response can carry, or the fault: a character beyond Latin-1 in a
 * value (`'X-Note': '🐶'`) was taken, and every request then failed inside MSW, a 500 whose body was
 * the TypeError and its stack ("Cannot convert argument to a ByteString").
 */
function sendable(checked: CheckedAnswer | string): CheckedAnswer | string {
  if (typeof checked === 'string') return checked;
  for (const [name, value] of checked.headers) {
    const characters = [...value];
    const at = characters.findIndex((character) => (character.codePointAt(0) as number) > 0xff);
    if (at >= 0) {
      const code = (characters[at] as string).codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0');
      return `the ${checked.status} header ${name} has U+${code} at character ${at + 1}, beyond Latin-1, which no header carries; encode it (encodeURIComponent) or leave it out.`;
    }
  }
  return checked;
}

/** The options of an override, checked for callers without types. */
function optionsChecked(options: OverrideOptions, refuse: (fault: string) => OverrideError): OverrideOptions {
  if (typeof options !== 'object' || options === null) {
    throw refuse(`its options are an object { baseUrl?, once?, now? }; got ${String(options)}.`);
  }
  if (options.now !== undefined && typeof options.now !== 'function') {
    throw refuse(`options.now is a function that returns ms since the epoch; got ${typeof options.now}.`);
  }
  if (options.once !== undefined && typeof options.once !== 'boolean') {
    throw refuse(`options.once is true or false; got ${typeof options.once}.`);
  }
  return options;
}

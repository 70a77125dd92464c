// The headers of an override's answer (petkit/msw's `override`): every header openapi.yaml documents
// for its status (X-RateLimit-* on every answer, Retry-After on a 429 or a 503, WWW-Authenticate on
// a 401, Location on a 201) and the deprecation headers of a deprecated operation, each the one the
// test gave or a default that agrees with those given. An app under test meets the answer the mock
// itself would send (`Prefer: code=`), not a bare status that no server of this API sends.
// Browser-safe, as msw.ts is: imports nothing from Node.
import {
  type components,
  describeFault,
  type HeaderSpec,
  type OperationId,
  type OperationSpec,
  type operations,
  PLAN_LIMITS,
  type Spec,
} from '../openapi/index.js';
import { STATE_RETRY_AFTER } from './errors.js';
import { MINUTE_MS } from './rate-limiter.js';
import { CHALLENGE, DEPRECATION, INVALID_TOKEN_CHALLENGE, SUNSET } from './responses.js';

type Responses<Id extends OperationId> = operations[Id]['responses'];
/** A response's documented headers by name, each optional (a default fills it), without the catch-all. */
type Named<Headers> = { [Name in keyof Headers as string extends Name ? never : Name]?: Headers[Name] };
type DocumentedHeaders<Response> = Response extends { headers: infer Headers } ? Named<Headers> : unknown;

/**
 * The headers an override may give for one status: those openapi.yaml documents (for this status,
 * or anywhere: `Retry-After` and `X-RateLimit-*` are numbers of seconds and requests) typed as it
 * says, any other as a string or a number. Names are case-insensitive at run time.
 */
export type OverrideHeaders<Id extends OperationId, Status extends keyof Responses<Id>> = Readonly<
  DocumentedHeaders<Responses<Id>[Status]> & Named<components['headers']> & Record<string, string | number>
>;

const RATE_LIMIT = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];
const DEPRECATION_HEADERS = ['sunset', 'deprecation', 'link'];

/** Every header the document describes, by lower-case name (the first description of each). */
export function documentedHeaders(spec: Spec): ReadonlyMap<string, HeaderSpec> {
  const found = new Map<string, HeaderSpec>();
  for (const operation of spec.operations)
    for (const response of operation.responses.values())
      for (const header of response.headers)
        if (!found.has(header.name.toLowerCase())) found.set(header.name.toLowerCase(), header);
  return found;
}

/** Lower-case names and string values: what a Response will carry. */
export function normalizeHeaders(given: Readonly<Record<string, string | number>> = {}): Map<string, string> {
  return new Map(Object.entries(given).map(([name, value]) => [name.toLowerCase(), String(value)]));
}

/** The first given header that departs from its description in the document, as a sentence; else undefined. */
export function headerFault(
  given: ReadonlyMap<string, string>,
  documented: ReadonlyMap<string, HeaderSpec>,
): string | undefined {
  for (const [name, value] of given) {
    const header = documented.get(name);
    const [fault] = header?.validate(value) ?? [];
    if (header !== undefined && fault !== undefined)
      return `${header.name} departs from openapi.yaml: ${JSON.stringify(value)} ${describeFault(fault).message}`;
  }
  return undefined;
}

export interface AnswerToComplete {
  readonly operation: OperationSpec;
  /** The API's base path as the app calls it (`/v1`, `/api/v1`, `''`): Location and Link name it. */
  readonly basePath: string;
  readonly status: number;
  readonly body: unknown;
  /** The headers the test gave, normalised. */
  readonly given: ReadonlyMap<string, string>;
  /** The time now, in ms since the epoch. */
  readonly nowMs: number;
}

/**
 * The answer's headers: the given ones, and a default for each documented one not given. The
 * defaults are those of the mock's demo-free key at `nowMs` (the Free plan, the window of the current
 * minute), as `Prefer: code=` answers: a 429 has none remaining and Retry-After until the window's
 * end. Given ones are kept and the rest agree with them (a given Retry-After moves the window's end).
 */
export function completeHeaders(answer: AnswerToComplete): Record<string, string> {
  const { operation, status, given } = answer;
  const names = new Set(RATE_LIMIT);
  for (const header of operation.response(status)?.headers ?? []) names.add(header.name.toLowerCase());
  if (operation.deprecated) for (const name of DEPRECATION_HEADERS) names.add(name);

  const headers: Record<string, string> = {};
  const nowS = Math.floor(answer.nowMs / 1000);
  const givenInteger = (name: string) => {
    const value = Number(given.get(name));
    return given.has(name) && Number.isInteger(value) ? value : undefined;
  };
  const retryAfter = givenInteger('retry-after');
  const reset =
    givenInteger('x-ratelimit-reset') ??
    (status === 429 && retryAfter !== undefined
      ? nowS + retryAfter
      : (Math.floor(answer.nowMs / MINUTE_MS) + 1) * (MINUTE_MS / 1000));
  const limit = givenInteger('x-ratelimit-limit') ?? PLAN_LIMITS.free.perMinute;
  const defaults: Record<string, () => string | undefined> = {
    'x-ratelimit-limit': () => String(limit),
    'x-ratelimit-remaining': () => String(status === 429 ? 0 : limit - 1),
    'x-ratelimit-reset': () => String(reset),
    'retry-after': () => (status === 503 ? STATE_RETRY_AFTER : String(Math.max(1, reset - nowS))),
    'www-authenticate': () =>
      (answer.body as { code?: unknown } | null)?.code === 'missing_api_key'
        ? CHALLENGE
        : INVALID_TOKEN_CHALLENGE,
    location: () => `${answer.basePath}/pets/${String((answer.body as { id?: unknown } | null)?.id)}`,
    sunset: () => SUNSET,
    deprecation: () => DEPRECATION,
    link: () => `<${answer.basePath}/pets>; rel="successor-version"`,
  };
  for (const name of names) {
    const value = given.has(name) ? undefined : defaults[name]?.();
    if (value !== undefined) headers[name] = value;
  }
  // Every answer of the mock carries its Date, as HTTP asks of a server with a clock.
  if (!given.has('date')) headers.date = new Date(nowS * 1000).toUTCString();
  for (const [name, value] of given) headers[name] = value;
  return headers;
}

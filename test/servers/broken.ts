// Servers that break the contract in exactly one way each, derived from the reference server by one
// quirk (an internal change) or one wrapper (a change to what goes out). Each names the check ids that
// must fail on it, and the warnings it must raise; every other check must stay quiet. Every check id
// has at least one of them (test/contract-broken.test.ts holds the list to CHECK_IDS).
import type { CheckId, ContractOptions } from '../../contract-tests/index.js';
import { type FakeClock, fakeClock } from './fake-clock.js';
import {
  createReference,
  type Handler,
  type Quirks,
  type RawRequest,
  type RawResponse,
} from './reference.js';

export interface BrokenServer {
  readonly name: string;
  readonly breaks: string;
  /** A fresh server; a server whose break shows over time reads the clock given. */
  readonly handler: (clock?: FakeClock) => Handler;
  /** What the suite must be run with to see the break, on the same clock. Default: nothing more. */
  readonly runWith?: (clock: FakeClock) => Partial<ContractOptions>;
  readonly fails: readonly CheckId[];
  readonly warns?: readonly CheckId[];
}

const quirk = (quirks: Quirks) => () => createReference({ quirks });

/** The reference, with every response passed through `change`. */
const wrapped = (change: (response: RawResponse, request: RawRequest) => void) => () => {
  const reference = createReference();
  return (request: RawRequest) => {
    const response = reference(request);
    change(response, request);
    return response;
  };
};

const isCreate = (request: RawRequest) => request.method === 'POST' && request.pathname === '/v1/pets';
const isList = (request: RawRequest) => request.method === 'GET' && request.pathname === '/v1/pets';

function rewriteBody(response: RawResponse, change: (body: unknown) => unknown): void {
  response.body = JSON.stringify(change(JSON.parse(response.body)));
}

export const BROKEN_SERVERS: readonly BrokenServer[] = [
  {
    name: 'create-answers-200',
    breaks: 'createPet answers 200 instead of 201',
    handler: wrapped((response, request) => {
      if (isCreate(request) && response.status === 201) response.status = 200;
    }),
    fails: ['status_code_conformance', 'positive_data_acceptance'],
  },
  {
    name: 'unauthorised-as-403',
    breaks: 'a missing or wrong key gives 403 instead of 401',
    handler: wrapped((response) => {
      if (response.status === 401) {
        response.status = 403;
        rewriteBody(response, (body) => ({ ...(body as object), status: 403 }));
      }
    }),
    fails: ['auth_enforced', 'status_code_conformance'],
  },
  {
    name: 'errors-as-text-plain',
    breaks: 'error bodies are JSON but sent as text/plain',
    handler: wrapped((response) => {
      if (response.status >= 400) response.headers['content-type'] = 'text/plain; charset=utf-8';
    }),
    fails: ['content_type_conformance'],
  },
  {
    name: 'wrapped-list',
    breaks: 'listPets wraps the array: {"items": [...]}',
    handler: wrapped((response, request) => {
      if (isList(request) && response.status === 200) rewriteBody(response, (items) => ({ items }));
    }),
    fails: ['response_schema_conformance'],
  },
  {
    name: 'string-ids',
    breaks: 'pet ids are sent as strings',
    handler: wrapped((response) => {
      if (response.status !== 200 && response.status !== 201) return;
      const stringify = (pet: unknown) =>
        typeof pet === 'object' && pet !== null && 'id' in pet ? { ...pet, id: String(pet.id) } : pet;
      rewriteBody(response, (body) => (Array.isArray(body) ? body.map(stringify) : stringify(body)));
    }),
    fails: ['response_schema_conformance'],
  },
  {
    name: 'ignores-limit',
    breaks: 'listPets ignores limit and returns every pet',
    handler: quirk({ ignoreLimit: true }),
    fails: ['list_semantics'],
  },
  {
    name: 'ignores-status-filter',
    breaks: 'listPets ignores the status filter',
    handler: quirk({ ignoreStatusFilter: true }),
    fails: ['list_semantics'],
  },
  {
    name: 'descending-list',
    breaks: 'listPets lists ids in descending order',
    handler: quirk({ descendingList: true }),
    fails: ['list_semantics'],
  },
  {
    name: 'forgets-created',
    breaks: 'a created pet is not stored',
    handler: quirk({ forgetCreated: true }),
    fails: ['use_after_create'],
  },
  {
    name: 'trims-names',
    breaks: 'names are stored trimmed, not as sent',
    handler: quirk({ trimNames: true }),
    fails: ['positive_data_acceptance'],
  },
  {
    name: 'auth-not-enforced',
    breaks: 'any request is served, with or without a key',
    handler: quirk({ noAuth: true }),
    fails: ['auth_enforced'],
  },
  {
    name: 'any-auth-scheme',
    breaks: 'the key is accepted under any scheme, not only Bearer',
    handler: quirk({ anyScheme: true }),
    fails: ['auth_enforced'],
  },
  {
    name: 'validates-before-auth',
    breaks: 'without a key, a bad query or an unknown id gets 400/404 instead of 401 (auth after validation)',
    handler: quirk({ validateBeforeAuth: true }),
    fails: ['auth_enforced'],
  },
  {
    name: 'coerces-numeric-strings',
    breaks: 'a numeric string is accepted for an integer: {"name":"a","categoryId":"3"} gives 201',
    handler: quirk({ coerceNumericStrings: true }),
    fails: ['negative_data_rejection'],
  },
  {
    name: 'rejects-valid-boundary-ids',
    breaks: 'petIds 0, -1 and 2^63-1 (valid int64) give 400 instead of 404',
    handler: quirk({ positiveSafeIdsOnly: true }),
    fails: ['not_found'],
  },
  {
    name: 'no-rate-limit-headers-on-errors',
    breaks: 'X-RateLimit-* only on successful responses',
    handler: wrapped((response) => {
      if (response.status < 400) return;
      for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
        delete response.headers[name];
      }
    }),
    fails: ['response_headers_conformance'],
  },
  {
    name: 'reset-in-milliseconds',
    breaks: 'X-RateLimit-Reset in milliseconds, not seconds',
    handler: wrapped((response) => {
      response.headers['x-ratelimit-reset'] = String(Number(response.headers['x-ratelimit-reset']) * 1000);
    }),
    fails: ['response_headers_conformance'],
  },
  {
    name: 'error-status-always-400',
    breaks: 'every Error body says status 400',
    handler: wrapped((response) => {
      if (response.status >= 400) rewriteBody(response, (body) => ({ ...(body as object), status: 400 }));
    }),
    fails: ['error_body_consistency'],
  },
  {
    name: 'clamps-limit',
    breaks: 'a limit out of 1..100 is clamped instead of rejected',
    handler: quirk({ clampLimit: true }),
    fails: ['negative_data_rejection'],
  },
  {
    name: 'drops-unknown-properties',
    breaks: 'unknown properties in NewPet (an id among them) are dropped, not rejected',
    handler: quirk({ dropUnknownProperties: true }),
    fails: ['negative_data_rejection'],
  },
  {
    name: 'parses-any-content-type',
    breaks: 'a body sent as text/plain is parsed as JSON anyway',
    handler: quirk({ anyContentType: true }),
    fails: ['negative_data_rejection'],
  },
  {
    name: 'malformed-json-500',
    breaks: 'malformed JSON gives 500 instead of 400',
    handler: quirk({ malformedJsonAs500: true }),
    fails: ['not_a_server_error'],
  },
  {
    name: 'unknown-id-400',
    breaks: 'an unknown pet id gives 400 instead of 404',
    handler: quirk({ unknownIdAs400: true }),
    fails: ['not_found'],
  },
  {
    name: 'no-deprecation-headers',
    breaks: 'getPet carries no Sunset nor Deprecation (a warning, not a failure: exit 0)',
    handler: wrapped((response) => {
      delete response.headers.sunset;
      delete response.headers.deprecation;
    }),
    fails: [],
    warns: ['deprecation_signalled'],
  },
  {
    name: 'never-recovers',
    breaks: 'once limited, the key stays limited: 429 after Retry-After has passed',
    handler: (clock = fakeClock()) =>
      createReference({ perMinute: 10, now: clock.now, quirks: { neverRecover: true } }),
    runWith: (clock) => ({ probeRateLimit: true, now: clock.now, sleep: clock.sleep, random: () => 0.5 }),
    fails: ['rate_limit_behaviour'],
  },
];

// Servers that break the contract in exactly one way each, derived from the reference server by one
// quirk (an internal change) or one wrapper (a change to what goes out). Each names the check ids that
// must fail on it, and the warnings it must raise; every other check must stay quiet. Every check id
// has at least one of them (test/contract-broken.test.ts holds the list to CHECK_IDS).
import type { CheckId, ContractOptions } from '../../contract-tests/index.js';
import { type FakeClock, fakeClock } from './fake-clock.js';
import {
  type AsyncHandler,
  createReference,
  type Handler,
  type Quirks,
  type RawRequest,
  type RawResponse,
  REFERENCE_KEY,
  type ReferenceOptions,
} from './reference.js';

export interface BrokenServer {
  readonly name: string;
  readonly breaks: string;
  /**
   * A fresh server; a server whose break shows over time reads the clock given. `reference` sets the
   * reference's options (a key's limit, its clock) where the break does not fix them itself.
   */
  readonly handler: (clock?: FakeClock, reference?: ReferenceOptions) => Handler | AsyncHandler;
  /** What the suite must be run with to see the break, on the same clock. Default: nothing more. */
  readonly runWith?: (clock: FakeClock) => Partial<ContractOptions>;
  readonly fails: readonly CheckId[];
  readonly warns?: readonly CheckId[];
}

const quirk =
  (quirks: Quirks) =>
  (_clock?: FakeClock, reference: ReferenceOptions = {}) =>
    createReference({ ...reference, quirks });

/** The rate-limit probe's run: a key of 10 a minute, on the clock the server reads. */
const probing = (quirks: Quirks) => ({
  handler: (clock = fakeClock()) => createReference({ perMinute: 10, now: clock.now, quirks }),
  runWith: (clock: FakeClock) => ({
    probeRateLimit: true,
    now: clock.now,
    sleep: clock.sleep,
    random: () => 0.5,
  }),
});

/** The reference, with every response passed through `change`. */
const wrapped =
  (change: (response: RawResponse, request: RawRequest) => void) =>
  (_clock?: FakeClock, options: ReferenceOptions = {}) => {
    const reference = createReference(options);
    return (request: RawRequest) => {
      const response = reference(request);
      change(response, request);
      return response;
    };
  };

const isCreate = (request: RawRequest) => request.method === 'POST' && request.pathname === '/v1/pets';
const isList = (request: RawRequest) => request.method === 'GET' && request.pathname === '/v1/pets';
const isGetPet = (request: RawRequest) =>
  request.method === 'GET' && request.pathname.startsWith('/v1/pets/');

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
    // Its Location, kept from the 201, now stands on a response that created nothing: http_semantics's.
    fails: ['status_code_conformance', 'positive_data_acceptance', 'http_semantics'],
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
    name: 'repeats-first-pet',
    breaks: 'listPets repeats its first pet when fewer pets match than limit allows: ids [1, 1, 2, …]',
    handler: wrapped((response, request) => {
      if (request.method !== 'GET' || request.pathname !== '/v1/pets' || response.status !== 200) return;
      const pets = JSON.parse(response.body) as unknown[];
      const limit = Number(request.query.get('limit') ?? 20);
      if (pets.length > 0 && pets.length < limit) response.body = JSON.stringify([pets[0], ...pets]);
    }),
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
    breaks: 'a body of any Content-Type (text/plain, application/merge-patch+json) is parsed as JSON anyway',
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
    name: 'invents-unknown-pets',
    breaks:
      'getPet answers 200 {"id":N,"name":"Ghost","categoryId":1} for any id from 1 to 2^53-1 that no pet has, instead of 404 (a larger id, echoed, would break the schema too)',
    handler: wrapped((response, request) => {
      const id = /^\/v1\/pets\/(\d+)$/.exec(request.pathname)?.[1];
      if (request.method !== 'GET' || id === undefined || response.status !== 404) return;
      if (Number(id) < 1 || !Number.isSafeInteger(Number(id))) return;
      response.status = 200;
      response.body = `{"id":${id},"name":"Ghost","categoryId":1}`;
    }),
    fails: ['not_found'],
  },
  {
    name: 'unknown-id-400',
    breaks: 'an unknown pet id gives 400 instead of 404',
    handler: quirk({ unknownIdAs400: true }),
    fails: ['not_found'],
  },
  {
    name: 'no-deprecation-headers',
    breaks: 'getPet carries no Sunset nor Deprecation, which the document requires on its 200, 400 and 404',
    handler: wrapped((response) => {
      delete response.headers.sunset;
      delete response.headers.deprecation;
    }),
    fails: ['deprecation_signalled'],
  },
  {
    name: 'no-deprecation-on-401',
    breaks:
      "getPet's 401 carries no Sunset, Deprecation nor Link (the document leaves them out there: a warning, exit 0)",
    handler: wrapped((response, request) => {
      if (!isGetPet(request) || response.status !== 401) return;
      delete response.headers.sunset;
      delete response.headers.deprecation;
      delete response.headers.link;
    }),
    fails: [],
    warns: ['deprecation_signalled'],
  },
  {
    name: 'no-deprecation-on-404',
    breaks: "getPet's 404 carries no Deprecation",
    handler: wrapped((response, request) => {
      if (isGetPet(request) && response.status === 404) delete response.headers.deprecation;
    }),
    fails: ['deprecation_signalled'],
  },
  {
    name: 'wrong-sunset',
    breaks: 'Sunset is a valid HTTP-date, but a day after the one the document gives',
    handler: wrapped((response) => {
      if (response.headers.sunset !== undefined) response.headers.sunset = 'Fri, 06 Dec 2030 00:00:00 GMT';
    }),
    fails: ['deprecation_signalled'],
  },
  {
    name: 'deprecation-true',
    breaks: 'Deprecation: true (the draft form), not an RFC 9745 @-date',
    handler: wrapped((response) => {
      if (response.headers.deprecation !== undefined) response.headers.deprecation = 'true';
    }),
    // RFC 9745 §2.1 makes Deprecation a structured Date wherever it is sent: http_semantics's too.
    fails: ['deprecation_signalled', 'http_semantics'],
  },
  {
    name: 'link-without-successor',
    breaks: 'Link names /v1/pets with rel="alternate", not rel="successor-version"',
    handler: wrapped((response) => {
      if (response.headers.link !== undefined) response.headers.link = '</v1/pets>; rel="alternate"';
    }),
    fails: ['deprecation_signalled'],
  },
  {
    name: 'errors-as-problem-json',
    breaks: 'error bodies sent as application/problem+json (the document says application/json)',
    handler: wrapped((response) => {
      if (response.status >= 400) response.headers['content-type'] = 'application/problem+json';
    }),
    fails: ['content_type_conformance'],
  },
  {
    name: 'error-codes-upper-case',
    breaks: 'Error codes in upper case (NOT_FOUND), outside the documented set',
    handler: wrapped((response) => {
      if (response.status >= 400)
        rewriteBody(response, (body) => ({
          ...(body as object),
          code: String((body as { code: string }).code).toUpperCase(),
        }));
    }),
    fails: ['response_schema_conformance'],
  },
  {
    name: 'limit-one-too-many-above-default',
    breaks: 'a limit above the default (20) returns one pet more than asked',
    handler: quirk({ limitPlusOneAboveDefault: true }),
    fails: ['list_semantics'],
  },
  {
    name: 'filters-first-page-only',
    breaks: 'the status filter is applied to the first 20 pets only, then cut to limit',
    handler: quirk({ filterFirstPageOnly: true }),
    fails: ['list_semantics'],
  },
  {
    name: 'created-pets-listed-first',
    breaks: 'after creates, the new pets come first in the list (not ascending ids)',
    handler: quirk({ createdFirst: true }),
    fails: ['list_semantics'],
  },
  {
    name: 'remaining-frozen',
    breaks: 'X-RateLimit-Remaining stays at Limit − 1 however many requests are sent',
    handler: wrapped((response) => {
      response.headers['x-ratelimit-remaining'] = String(Number(response.headers['x-ratelimit-limit']) - 1);
    }),
    fails: ['response_headers_conformance'],
  },
  {
    name: 'reset-at-window-start',
    breaks: "X-RateLimit-Reset is the window's start (already past, within the clock-skew allowance)",
    // On a clock 30 s into its minute, shared with the suite. On the real clock, a run that fell in a
    // minute's first second answered with a window's start equal to its own Date: no check can tell
    // that from a window ending now, and the break went unseen about once in sixty runs.
    handler: (clock = fakeClock(), reference: ReferenceOptions = {}) =>
      wrapped((response) => {
        response.headers['x-ratelimit-reset'] = String(Number(response.headers['x-ratelimit-reset']) - 60);
      })(clock, { ...reference, now: clock.now }),
    runWith: (clock) => ({ now: clock.now, sleep: clock.sleep }),
    fails: ['response_headers_conformance'],
  },
  {
    name: 'basic-challenge',
    breaks: 'the 401 challenges with WWW-Authenticate: Basic (RFC 6750 requires Bearer)',
    handler: wrapped((response) => {
      if (response.status === 401) response.headers['www-authenticate'] = 'Basic realm="pets"';
    }),
    // A 401 without a Bearer challenge breaks RFC 6750 §3 on every response: http_semantics's too.
    fails: ['auth_enforced', 'http_semantics'],
  },
  {
    name: 'scheme-case-sensitive',
    breaks: 'the key under `bearer` (lower case) gets 401: the scheme is compared case-sensitively',
    handler: quirk({ caseSensitiveScheme: true }),
    fails: ['auth_enforced'],
  },
  {
    name: 'key-case-insensitive',
    breaks: 'the key with its case changed (TEST-KEY) is accepted',
    handler: quirk({ keyCaseInsensitive: true }),
    fails: ['auth_enforced'],
  },
  {
    name: 'accepts-array-body',
    breaks: 'createPet accepts a JSON array and creates its first item',
    handler: quirk({ acceptArrayBody: true }),
    fails: ['negative_data_rejection'],
  },
  {
    name: 'refuses-charset',
    breaks: 'createPet answers 415 to application/json; charset=utf-8',
    handler: quirk({ refuseMediaTypeParameters: true }),
    fails: ['positive_data_acceptance'],
  },
  {
    name: 'body-limit-one-byte-early',
    breaks: 'a body of exactly 16 KiB (the limit) gets 413',
    handler: quirk({ bodyLimitInclusive: true }),
    fails: ['positive_data_acceptance'],
  },
  {
    name: 'location-elsewhere',
    breaks: "the 201's Location names the next id, not the created pet's",
    handler: wrapped((response, request) => {
      if (!isCreate(request) || response.status !== 201) return;
      const id = (JSON.parse(response.body) as { id: number }).id;
      response.headers.location = `/v1/pets/${id + 1}`;
    }),
    fails: ['use_after_create'],
  },
  {
    name: 'location-other-origin',
    breaks: "the 201's Location names the created pet's path on another origin (http://evil.example)",
    handler: wrapped((response, request) => {
      if (!isCreate(request) || response.status !== 201) return;
      response.headers.location = `http://evil.example${response.headers.location ?? ''}`;
    }),
    fails: ['response_headers_conformance'],
  },
  {
    name: 'location-network-path',
    breaks: "the 201's Location is a network-path reference to another host (//evil.example/v1/pets/{id})",
    handler: wrapped((response, request) => {
      if (!isCreate(request) || response.status !== 201) return;
      response.headers.location = `//evil.example${response.headers.location ?? ''}`;
    }),
    fails: ['response_headers_conformance'],
  },
  {
    name: 'location-echoes-key',
    breaks:
      "the 201's Location carries the bearer token it was sent, upper-cased, in a query: /v1/pets/{id}?key=…",
    handler: wrapped((response, request) => {
      if (!isCreate(request) || response.status !== 201) return;
      const token = /^\S+ +(\S+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
      response.headers.location = `${response.headers.location ?? ''}?key=${encodeURIComponent(token.toUpperCase())}`;
    }),
    fails: ['response_headers_conformance'],
  },
  {
    name: 'racy-ids',
    breaks:
      'creates that overlap get the same id (the id is read when a request arrives, stored when it ends)',
    handler: (_clock, options = {}) => {
      const reference = createReference({ ...options, quirks: { racyIds: true } });
      // A create is held a moment, as a slow store would: creates sent at once all arrive before any ends.
      return async (request: RawRequest) => {
        if (isCreate(request)) await new Promise((resolve) => setTimeout(resolve, 30));
        return reference(request);
      };
    },
    fails: ['use_after_create'],
  },
  {
    // The model catches it on every seed; the sequences too, when a drawn one looks up a listed pet.
    name: 'get-answers-the-next-pet',
    breaks: 'getPet of a pet present before the run answers 200 with the next pet (asked for 1, gets 2)',
    handler: (_clock, options = {}) => {
      const reference = createReference(options);
      const seeded = options.pets ?? 30;
      return (request: RawRequest): RawResponse => {
        const id = /^\/v1\/pets\/(\d+)$/.exec(request.pathname)?.[1];
        // The pets present (1 to the seeded count): an id no pet has answered 200 is not_found's.
        if (request.method === 'GET' && id !== undefined && Number(id) >= 1 && Number(id) < seeded)
          return reference({ ...request, pathname: `/v1/pets/${Number(id) + 1}` });
        return reference(request);
      };
    },
    fails: ['use_after_create'],
  },
  {
    name: 'limit-one-early',
    breaks: 'the rate limit is enforced one request early: the request that takes Remaining to 0 gets 429',
    ...probing({ limitOneEarly: true }),
    fails: ['rate_limit_behaviour'],
  },
  {
    name: 'headers-describe-day-window',
    breaks: 'the headers describe the day window (1000) while the minute window (10) is what runs out',
    ...probing({ headersDescribeDay: true }),
    fails: ['rate_limit_behaviour'],
  },
  {
    name: 'rate-limited-as-text-plain',
    breaks: 'the 429 is text/plain ("Too Many Requests"), not an Error',
    ...probing({}),
    handler: (clock = fakeClock()) => {
      const reference = createReference({ perMinute: 10, now: clock.now });
      return (request: RawRequest) => {
        const response = reference(request);
        if (response.status === 429) {
          response.headers['content-type'] = 'text/plain';
          response.body = 'Too Many Requests';
        }
        return response;
      };
    },
    // The 429's media type is also content_type_conformance's: the probe adds that the 429 is no Error.
    fails: ['content_type_conformance', 'rate_limit_behaviour'],
  },
  {
    name: 'retry-after-in-milliseconds',
    breaks:
      'the 429 (rate_limited) gives Retry-After in milliseconds: 30000 where its X-RateLimit-Reset ends the window in 30 s',
    ...probing({}),
    handler: (clock = fakeClock()) => {
      const reference = createReference({ perMinute: 10, now: clock.now });
      return (request: RawRequest) => {
        const response = reference(request);
        if (response.status === 429)
          response.headers['retry-after'] = String(Number(response.headers['retry-after']) * 1000);
        return response;
      };
    },
    fails: ['rate_limit_behaviour'],
  },
  {
    name: 'ban-retry-after-of-window',
    breaks: "the ban's 429 (api_key_banned) says Retry-After until the minute window's end, not the ban's",
    handler: (clock = fakeClock()) => {
      const reference = createReference({ perMinute: 10, now: clock.now });
      return (request: RawRequest) => {
        const response = reference(request);
        if (response.status === 429 && response.body.includes('api_key_banned')) {
          response.headers['retry-after'] = String(60 - (Math.floor(clock.now() / 1000) % 60));
        }
        return response;
      };
    },
    runWith: (clock) => ({ probeBan: true, now: clock.now, sleep: clock.sleep, random: () => 0.5 }),
    fails: ['rate_limit_ban'],
  },
  {
    name: 'ban-without-retry-after',
    breaks: "the ban's 429 carries no Retry-After",
    handler: (clock = fakeClock()) =>
      createReference({ perMinute: 10, now: clock.now, quirks: { banWithoutRetryAfter: true } }),
    runWith: (clock) => ({ probeBan: true, now: clock.now, sleep: clock.sleep, random: () => 0.5 }),
    // The documented header missing is response_headers_conformance's alone (rate_limit_ban cannot tell
    // when the ban ends: not judged); only the ban probe reaches it.
    fails: ['response_headers_conformance'],
  },
  {
    name: 'bans-without-limiting',
    breaks:
      'bans the key (429 api_key_banned, Retry-After: 300) at its 25th request, in a window that still has most of its requests left: the key was never limited',
    handler: (clock = fakeClock(), options: ReferenceOptions = {}) => {
      const reference = createReference({ ...options, now: clock.now });
      let withKey = 0;
      return (request: RawRequest) => {
        const response = reference(request);
        if (request.headers.authorization !== `Bearer ${REFERENCE_KEY}`) return response;
        withKey += 1;
        if (withKey < 25) return response;
        const { location: _created, ...headers } = response.headers;
        return {
          status: 429,
          headers: { ...headers, 'content-type': 'application/json', 'retry-after': '300' },
          body: JSON.stringify({
            code: 'api_key_banned',
            message: 'Banned for too many requests while limited. Retry in 300 s.',
            status: 429,
          }),
        };
      };
    },
    runWith: (clock) => ({ now: clock.now, sleep: clock.sleep, random: () => 0.5 }),
    // The ban ends the run: what it did not reach is skipped.
    fails: ['response_headers_conformance'],
  },
  {
    name: 'bans-at-the-first-limited-request',
    breaks: 'bans the key at its first request while limited, not after more than 10',
    handler: (clock = fakeClock()) =>
      createReference({ perMinute: 10, now: clock.now, quirks: { banAfter: 0 } }),
    runWith: (clock) => ({ probeBan: true, now: clock.now, sleep: clock.sleep, random: () => 0.5 }),
    fails: ['rate_limit_ban'],
  },
  {
    name: 'never-recovers',
    breaks: 'once limited, the key stays limited: 429 after Retry-After has passed',
    handler: (clock = fakeClock()) =>
      createReference({ perMinute: 10, now: clock.now, quirks: { neverRecover: true } }),
    runWith: (clock) => ({ probeRateLimit: true, now: clock.now, sleep: clock.sleep, random: () => 0.5 }),
    fails: ['rate_limit_behaviour'],
  },
  {
    name: 'retry-after-everywhere',
    breaks: 'Retry-After: 1 on every response, as if every client had to wait (RFC 9110 §10.2.3)',
    handler: wrapped((response) => {
      response.headers['retry-after'] = response.headers['retry-after'] ?? '1';
    }),
    fails: [],
    warns: ['http_advisories'],
  },
  {
    name: 'names-nfc-normalised',
    breaks:
      'names are stored and echoed in Unicode NFC (e + U+0308 becomes ë), not exactly as sent, as a "sanitising" layer does',
    handler: (_clock, options: ReferenceOptions = {}) => {
      const reference = createReference(options);
      return (request: RawRequest) =>
        reference(isCreate(request) ? { ...request, body: request.body.normalize('NFC') } : request);
    },
    fails: ['positive_data_acceptance'],
  },
  {
    name: 'html-escapes-names',
    breaks: 'names are stored and echoed HTML-escaped (<b> becomes &lt;b&gt;), not exactly as sent',
    handler: (_clock, options: ReferenceOptions = {}) => {
      const reference = createReference(options);
      return (request: RawRequest) =>
        reference(
          isCreate(request)
            ? { ...request, body: request.body.replaceAll('<', '&lt;').replaceAll('>', '&gt;') }
            : request,
        );
    },
    fails: ['positive_data_acceptance'],
  },
  {
    name: 'caps-pages-at-25',
    breaks:
      'answers at most 25 pets whatever limit asks (a page size capped below the documented 100): limit=100 gets 25 of the 30 and more',
    handler: (_clock, options: ReferenceOptions = {}) => {
      const reference = createReference(options);
      return (request: RawRequest) => {
        const limit = Number(request.query.get('limit'));
        if (!isList(request) || !(limit > 25 && limit <= 100)) return reference(request);
        const query = new URLSearchParams(request.query);
        query.set('limit', '25');
        return reference({ ...request, query });
      };
    },
    // The store has the pets the short page leaves out (getPet answers them): the list is wrong, not
    // the creates, at the end of the run too.
    fails: ['list_semantics'],
  },
  {
    name: 'takes-any-json-suffix',
    breaks:
      "createPet parses a body sent as application/merge-patch+json (any +json suffix, as Flask's is_json does) where the document makes anything but application/json a 415",
    handler: (_clock, options: ReferenceOptions = {}) => {
      const reference = createReference(options);
      return (request: RawRequest) => {
        const type = request.headers['content-type'] ?? '';
        return /^application\/[^;]*\+json\s*(;|$)/i.test(type)
          ? reference({ ...request, headers: { ...request.headers, 'content-type': 'application/json' } })
          : reference(request);
      };
    },
    fails: ['negative_data_rejection'],
  },
];

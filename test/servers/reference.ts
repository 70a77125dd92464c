// A small, correct Pet Adoption API over plain node:http, in memory. It keeps the whole contract,
// rate-limit headers and bearer auth included, so that each broken server in broken.ts can be derived
// from it by exactly one change. Test code only: the contract suite never imports it.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  BAN_AFTER,
  BAN_MS,
  describeFault,
  type Fault,
  loadSpec,
  MAX_BODY_BYTES,
  type NewPet,
  type Pet,
} from '../../openapi/index.js';

export interface RawRequest {
  readonly method: string;
  readonly pathname: string;
  readonly query: URLSearchParams;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: string;
  /** How many requests the server had answered when this one arrived (set by serve). */
  readonly answeredBefore?: number;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  /** The body as sent; JSON bodies are already serialised. */
  body: string;
}

export type Handler = (request: RawRequest) => RawResponse;
/** What serve takes: a handler that may answer later (a server that holds a request). */
export type AsyncHandler = (request: RawRequest) => RawResponse | Promise<RawResponse>;

/** Internal departures a wrapper cannot make from outside; every one is off in the reference. */
export interface Quirks {
  /** listPets returns every pet, whatever `limit` says. */
  ignoreLimit?: boolean;
  /** listPets ignores the `status` filter. */
  ignoreStatusFilter?: boolean;
  /** listPets returns the pets in descending id order. */
  descendingList?: boolean;
  /** createPet answers 201 but forgets the pet. */
  forgetCreated?: boolean;
  /** createPet stores and echoes the name trimmed. */
  trimNames?: boolean;
  /** Any Authorization header, or none, is accepted. */
  noAuth?: boolean;
  /** The key is accepted under any scheme (`Token KEY`, not only `Bearer KEY`). */
  anyScheme?: boolean;
  /** `limit` out of 1..100 is clamped instead of rejected. */
  clampLimit?: boolean;
  /** Unknown properties in NewPet are dropped instead of rejected. */
  dropUnknownProperties?: boolean;
  /** A body of any Content-Type is parsed as JSON. */
  anyContentType?: boolean;
  /** Malformed JSON gives a (well-formed, documented) 500 instead of a 400. */
  malformedJsonAs500?: boolean;
  /** An unknown petId gives 400 validation_failed instead of 404. */
  unknownIdAs400?: boolean;
  /** After a 429 the window never recovers. */
  neverRecover?: boolean;
  /** Validation and lookup come before auth: a bad or unknown request without a key gets 400/404, not 401. */
  validateBeforeAuth?: boolean;
  /** A numeric string is accepted for an integer property (ajv's coerceTypes): `"categoryId": "3"`. */
  coerceNumericStrings?: boolean;
  /** Only ids 1..2^53-1 are accepted: 0, -1 and 2^63-1 (valid int64 ids) give 400 instead of 404. */
  positiveSafeIdsOnly?: boolean;
  /** A limit above the default returns one pet more than asked. */
  limitPlusOneAboveDefault?: boolean;
  /** The status filter is applied to the first page only: `limit` pets are read, then filtered. */
  filterFirstPageOnly?: boolean;
  /** Pets created during the run are listed first, before the seeded ones. */
  createdFirst?: boolean;
  /** The limit is enforced one request early: the request that takes Remaining to 0 gets the 429. */
  limitOneEarly?: boolean;
  /** The headers describe the day window (perDay) while the minute window is what runs out. */
  headersDescribeDay?: boolean;
  /** The scheme is compared case-sensitively: `bearer KEY` is a 401. */
  caseSensitiveScheme?: boolean;
  /** The key is compared case-insensitively: the key with its case changed is accepted. */
  keyCaseInsensitive?: boolean;
  /** A JSON array body is accepted: its first item is created. */
  acceptArrayBody?: boolean;
  /** A Content-Type with parameters (`application/json; charset=utf-8`) is a 415. */
  refuseMediaTypeParameters?: boolean;
  /** Ids come from a count read when the request arrived: creates that overlap get the same id. */
  racyIds?: boolean;
  /** A body of exactly the limit (16 KiB) is refused 413, as if the limit were exclusive. */
  bodyLimitInclusive?: boolean;
  /** createPet gives the ids of the seeded pets, the last first, overwriting each; then fresh ones. */
  overwriteSeeded?: boolean;
  /** The ban's 429 carries no Retry-After. */
  banWithoutRetryAfter?: boolean;
  /** The key is banned after more than this many requests while limited (BAN_AFTER, 10, in the contract). */
  banAfter?: number;
}

export interface ReferenceOptions {
  readonly key?: string;
  readonly perMinute?: number;
  /** The key's day limit. Default 100 × perMinute. */
  readonly perDay?: number;
  /** The anonymous bucket's limit (requests without a valid key); perMinute when absent. */
  readonly anonymousPerMinute?: number;
  readonly pets?: number;
  /** Milliseconds since the epoch. */
  readonly now?: () => number;
  readonly quirks?: Quirks;
}

export const REFERENCE_KEY = 'test-key';
const STATUSES = ['available', 'pending', 'sold'] as const;
const NAMES = ['Biscuit', 'Mochi', 'Pepper', 'Luna', 'Olive', 'Ziggy', 'Nala', 'Tofu', 'Maple', 'Rex'];
const DEPRECATION = {
  sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
  deprecation: '@1735689600',
  link: '</v1/pets>; rel="successor-version"',
};

function json(status: number, body: unknown, headers: Record<string, string> = {}): RawResponse {
  return {
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  };
}

function error(status: number, code: string, message: string, details?: Fault[]): RawResponse {
  const body = { code, message, status, ...(details ? { details: details.map(describeFault) } : {}) };
  return json(status, body);
}

export function createReference(options: ReferenceOptions = {}): Handler {
  const spec = loadSpec();
  const key = options.key ?? REFERENCE_KEY;
  const perMinuteForKey = options.perMinute ?? 100_000;
  const now = options.now ?? Date.now;
  const quirks = options.quirks ?? {};
  const pets = new Map<number, Pet>();
  let nextId = 1;
  for (let i = 0; i < (options.pets ?? 30); i += 1) {
    const id = nextId++;
    pets.set(id, {
      id,
      name: NAMES[i % NAMES.length] ?? 'Pet',
      categoryId: (i % 5) + 1,
      status: STATUSES[i % 3] ?? 'available',
    });
  }
  const seeded = nextId - 1;
  let overwritten = seeded;
  const limitSchema = spec.operation('listPets').parameters.find((p) => p.name === 'limit')?.schema;
  const defaultLimit = typeof limitSchema?.default === 'number' ? limitSchema.default : 20;
  const windows = new Map<string, { start: number; count: number; limited: boolean; whileLimited: number }>();
  const days = new Map<string, { start: number; count: number }>();
  const bans = new Map<string, number>();

  const rateLimit = (
    bucket: string,
  ): { headers: Record<string, string>; retryAfter: number | null; banned: boolean } => {
    const perMinute =
      bucket === 'anonymous' ? (options.anonymousPerMinute ?? perMinuteForKey) : perMinuteForKey;
    const perDay = options.perDay ?? perMinute * 100;
    const at = now();
    const start = Math.floor(at / 60_000) * 60_000;
    let window = windows.get(bucket);
    if (window === undefined || (window.start !== start && !(quirks.neverRecover && window.limited))) {
      window = { start, count: 0, limited: false, whileLimited: 0 };
      windows.set(bucket, window);
    }
    const dayStart = Math.floor(at / 86_400_000) * 86_400_000;
    let day = days.get(bucket);
    if (day === undefined || day.start !== dayStart) {
      day = { start: dayStart, count: 0 };
      days.set(bucket, day);
    }
    window.count += 1;
    day.count += 1;
    const end = window.start + 60_000;
    const headers = quirks.headersDescribeDay
      ? {
          'x-ratelimit-limit': String(perDay),
          'x-ratelimit-remaining': String(Math.max(0, perDay - day.count)),
          'x-ratelimit-reset': String((day.start + 86_400_000) / 1000),
        }
      : {
          'x-ratelimit-limit': String(perMinute),
          'x-ratelimit-remaining': String(Math.max(0, perMinute - window.count)),
          'x-ratelimit-reset': String(end / 1000),
        };
    const bannedUntil = bans.get(bucket) ?? 0;
    if (bannedUntil > at) {
      return { headers, retryAfter: Math.max(1, Math.ceil((bannedUntil - at) / 1000)), banned: true };
    }
    const allowed = quirks.limitOneEarly ? perMinute - 1 : perMinute;
    if (window.count <= allowed) return { headers, retryAfter: null, banned: false };
    window.limited = true;
    window.whileLimited += 1;
    // More than BAN_AFTER requests while limited, within one window, ban a key (never the anonymous bucket).
    if (bucket !== 'anonymous' && window.whileLimited > (quirks.banAfter ?? BAN_AFTER)) {
      bans.set(bucket, at + BAN_MS);
      return { headers, retryAfter: Math.ceil(BAN_MS / 1000), banned: true };
    }
    return { headers, retryAfter: Math.max(1, Math.ceil((end - at) / 1000)), banned: false };
  };

  const authenticate = (header: string | undefined): RawResponse | null => {
    if (quirks.noAuth) return null;
    if (header === undefined || header === '') {
      const response = error(401, 'missing_api_key', 'An API key is required.');
      response.headers['www-authenticate'] = 'Bearer realm="pets"';
      return response;
    }
    // RFC 9110 §11.4: the scheme, 1*SP, the token (openapi.yaml's bearerAuth decision).
    const match = /^(\S+) +(.+)$/.exec(header);
    const scheme = quirks.caseSensitiveScheme ? match?.[1] : match?.[1]?.toLowerCase();
    const schemeOk =
      scheme === (quirks.caseSensitiveScheme ? 'Bearer' : 'bearer') || quirks.anyScheme === true;
    const keyOk = quirks.keyCaseInsensitive
      ? match?.[2]?.toLowerCase() === key.toLowerCase()
      : match?.[2] === key;
    if (match === null || !schemeOk || !keyOk) {
      const response = error(401, 'invalid_api_key', 'The API key is not valid.');
      response.headers['www-authenticate'] = 'Bearer realm="pets", error="invalid_token"';
      return response;
    }
    return null;
  };

  const listPets = (request: RawRequest): RawResponse => {
    const operation = spec.operation('listPets');
    const values: Record<string, unknown> = {};
    const faults: Fault[] = [];
    for (const parameter of operation.parameters) {
      const given = request.query.getAll(parameter.name);
      const raw = given[0];
      // Given twice, even equal, is a 400 (openapi.yaml's Limit and StatusFilter decisions).
      let parsed =
        given.length > 1
          ? {
              value: raw,
              faults: [
                {
                  instancePath: `/${parameter.name}`,
                  schemaPath: '#/maxItems',
                  keyword: 'maxItems',
                  params: { limit: 1 },
                  message: 'must be given once',
                },
              ],
            }
          : parameter.parse(raw);
      if (quirks.clampLimit && parameter.name === 'limit' && typeof parsed.value === 'number') {
        parsed = { value: Math.min(100, Math.max(1, Math.trunc(parsed.value))), faults: [] };
      }
      values[parameter.name] = parsed.value;
      faults.push(...parsed.faults);
    }
    if (faults.length > 0) return error(400, 'validation_failed', 'Invalid query.', faults);
    let list = [...pets.values()].sort((a, b) => a.id - b.id);
    if (quirks.createdFirst)
      list = [...list.filter((pet) => pet.id > seeded), ...list.filter((pet) => pet.id <= seeded)];
    if (quirks.filterFirstPageOnly && values.status !== undefined)
      list = list.slice(0, values.limit as number);
    if (values.status !== undefined && !quirks.ignoreStatusFilter) {
      list = list.filter((pet) => pet.status === values.status);
    }
    if (quirks.descendingList) list.reverse();
    const limit = values.limit as number;
    if (!quirks.ignoreLimit)
      list = list.slice(0, quirks.limitPlusOneAboveDefault && limit > defaultLimit ? limit + 1 : limit);
    return json(200, list);
  };

  const createPet = (request: RawRequest): RawResponse => {
    const size = Buffer.byteLength(request.body);
    if (size > MAX_BODY_BYTES || (quirks.bodyLimitInclusive && size === MAX_BODY_BYTES)) {
      return error(413, 'payload_too_large', `The body is larger than ${MAX_BODY_BYTES} bytes.`);
    }
    const contentType = request.headers['content-type'] ?? '';
    const type = contentType.split(';')[0]?.trim().toLowerCase();
    if (
      (type !== 'application/json' && !quirks.anyContentType) ||
      (quirks.refuseMediaTypeParameters && contentType.includes(';'))
    ) {
      return error(415, 'unsupported_media_type', 'The body must be application/json.');
    }
    let body: unknown;
    try {
      body = JSON.parse(request.body);
    } catch {
      if (quirks.malformedJsonAs500) return error(500, 'internal_error', 'The server failed.');
      return error(400, 'malformed_json', 'The body is not valid JSON.');
    }
    if (quirks.acceptArrayBody && Array.isArray(body)) body = body[0];
    if (quirks.dropUnknownProperties && typeof body === 'object' && body !== null && !Array.isArray(body)) {
      const { name, categoryId, status } = body as Record<string, unknown>;
      body = Object.fromEntries(
        Object.entries({ name, categoryId, status }).filter(([, value]) => value !== undefined),
      );
    }
    if (quirks.coerceNumericStrings && typeof body === 'object' && body !== null) {
      const fields = body as Record<string, unknown>;
      if (typeof fields.categoryId === 'string' && /^\d+$/.test(fields.categoryId)) {
        fields.categoryId = Number(fields.categoryId);
      }
    }
    const faults = spec.schema('NewPet')(body);
    if (faults.length > 0) return error(400, 'validation_failed', 'Invalid body.', faults);
    const fresh = body as NewPet;
    const id = quirks.racyIds
      ? 1_000_000 + (request.answeredBefore ?? 0)
      : quirks.overwriteSeeded && overwritten > 0
        ? overwritten--
        : nextId++;
    const pet: Pet = { id, ...fresh, ...(quirks.trimNames ? { name: fresh.name.trim() } : {}) };
    if (!quirks.forgetCreated) pets.set(pet.id, pet);
    return json(201, pet, { location: `/v1/pets/${pet.id}` });
  };

  const getPet = (raw: string): RawResponse => {
    const parsed = spec.operation('getPet').parameters[0]?.parse(raw);
    if (parsed === undefined || parsed.faults.length > 0) {
      return error(400, 'validation_failed', 'Invalid path.', parsed?.faults);
    }
    const id = parsed.value as number;
    if (quirks.positiveSafeIdsOnly && !(Number.isSafeInteger(id) && id >= 1)) {
      return error(400, 'validation_failed', 'Invalid path.');
    }
    const pet = pets.get(id);
    if (pet !== undefined) return json(200, pet);
    if (quirks.unknownIdAs400) return error(400, 'validation_failed', 'Invalid path.');
    return error(404, 'not_found', `No pet has id ${String(parsed.value)}.`);
  };

  return (request) => {
    const petMatch = /^\/v1\/pets\/([^/]+)$/.exec(request.pathname);
    const route = request.pathname === '/v1/pets' ? 'pets' : petMatch ? 'pet' : null;
    const allowed = route === 'pets' ? ['GET', 'POST'] : route === 'pet' ? ['GET'] : [];
    const authHeader = request.headers.authorization;
    const limited = rateLimit(authenticate(authHeader) === null ? `key:${key}` : 'anonymous');
    const answer = (): RawResponse => {
      if (route === null) return error(404, 'route_not_found', `No route ${request.pathname}.`);
      if (!allowed.includes(request.method)) {
        const response = error(405, 'method_not_allowed', `Use ${allowed.join(' or ')}.`);
        response.headers.allow = allowed.join(', ');
        return response;
      }
      const unauthorised = authenticate(authHeader);
      if (unauthorised !== null && quirks.validateBeforeAuth) {
        const early = operate();
        if (early.status === 400 || early.status === 404) return early;
      }
      // The anonymous bucket throttles key guessing: an exhausted one answers 429, not 401.
      if (unauthorised !== null && limited.retryAfter === null) return unauthorised;
      if (limited.retryAfter !== null) {
        const response = limited.banned
          ? error(
              429,
              'api_key_banned',
              `Banned for too many requests while limited. Retry in ${limited.retryAfter} s.`,
            )
          : error(429, 'rate_limited', `Rate limit exceeded. Retry in ${limited.retryAfter} s.`);
        if (!(limited.banned && quirks.banWithoutRetryAfter)) {
          response.headers['retry-after'] = String(limited.retryAfter);
        }
        return response;
      }
      return operate();
    };
    const operate = (): RawResponse => {
      if (route === 'pet') return getPet(decodeURIComponent(petMatch?.[1] ?? ''));
      return request.method === 'POST' ? createPet(request) : listPets(request);
    };
    const response = answer();
    Object.assign(response.headers, limited.headers, { date: new Date(now()).toUTCString() });
    if (route === 'pet') {
      Object.assign(response.headers, {
        sunset: DEPRECATION.sunset,
        deprecation: DEPRECATION.deprecation,
        link: DEPRECATION.link,
      });
    }
    return response;
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export interface Served {
  /** The base URL, with `/v1`. */
  readonly url: string;
  close(): Promise<void>;
}

/** Serves a handler on 127.0.0.1, on a free port. A thrown handler answers a bare 500. */
export async function serve(handler: AsyncHandler): Promise<Served> {
  let answered = 0;
  const server = createServer((req, res) => {
    const answeredBefore = answered;
    void readBody(req).then(async (body) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const headers: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      let response: RawResponse;
      try {
        response = await handler({
          method: req.method ?? 'GET',
          pathname: url.pathname,
          query: url.searchParams,
          headers,
          body,
          answeredBefore,
        });
      } catch {
        response = { status: 500, headers: { 'content-type': 'text/plain' }, body: 'Internal Server Error' };
      }
      answered += 1;
      res.writeHead(response.status, response.headers);
      res.end(response.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((cause) => (cause ? reject(cause) : resolve()));
      }),
  };
}

// The ceiling: a bare node:http server that answers the bench's scenarios with the same headers petkit
// sends (CORS and rate-limit headers on every answer, Location on 201, the deprecation headers on
// getPet, WWW-Authenticate on 401). Two kinds:
// - precomputed (the default): every body computed once; it validates nothing beyond what tells the
//   scenarios apart, so it is what node:http alone costs on this machine when each answer is written
//   as soon as it is made (petkit's node:http adapter writes a turn's answers together, and can be as
//   fast: docs/performance.md);
// - work-matched (`work: true`): it also does the work the contract demands of any implementation,
//   as plainly as it can be done: it looks the key up and counts the request in the key's (or the
//   address's) minute window, from which its rate-limit headers come; a POST's body is read, parsed,
//   validated with the same precompiled validator as petkit's, given an id and serialised, and an
//   invalid one gets its 400 with the faults described. What petkit does beyond that is its overhead.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { describeFault, loadSpec } from '../openapi/index.js';
import { BENCH_KEY, BENCH_PETS } from './scenarios.js';

export interface CeilingOptions {
  /** The key answered with 200/201; any other Authorization gets a 401. Default: the bench key. */
  readonly key?: string;
  /** The rate-limit window's size, shown in X-RateLimit-Limit. Default 1,000,000,000. */
  readonly limit?: number;
  /** Unix seconds, for X-RateLimit-Reset. Default: now plus a day, read once. */
  readonly resetAt?: number;
  /** How many pets the precomputed store holds. Default BENCH_PETS (as petkit is seeded). */
  readonly pets?: number;
  /** The work-matched ceiling: keys looked up, requests counted per key, bodies validated and serialised. */
  readonly work?: boolean;
  /** Milliseconds since the epoch, for the work-matched ceiling's windows. Default Date.now. */
  readonly now?: () => number;
}

interface Answer {
  readonly status: number;
  readonly body: Buffer;
  /** Header name/value pairs besides the rate-limit ones. */
  readonly headers: readonly string[];
}

const STATUSES = ['available', 'pending', 'sold'] as const;
const DEPRECATION = [
  'Sunset',
  'Thu, 05 Dec 2030 00:00:00 GMT',
  'Deprecation',
  '@1735689600',
  'Link',
  '</v1/pets>; rel="successor-version"',
];

/** petkit's CORS headers, sent on every answer so browser apps can read the others. */
const CORS = [
  'Access-Control-Allow-Origin',
  '*',
  'Access-Control-Expose-Headers',
  'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, Location, Sunset, Deprecation, Link, WWW-Authenticate, Preference-Applied',
];

function json(status: number, value: unknown, extra: readonly string[] = []): Answer {
  const body = Buffer.from(JSON.stringify(value));
  return {
    status,
    body,
    headers: [...CORS, 'Content-Type', 'application/json', 'Content-Length', String(body.length), ...extra],
  };
}

function error(
  status: number,
  code: string,
  message: string,
  extra: readonly string[] = [],
  details?: readonly unknown[],
): Answer {
  return json(status, { code, message, status, ...(details === undefined ? {} : { details }) }, extra);
}

/** A `node:http` request listener: `http.createServer(createCeilingListener())`. */
export function createCeilingListener(options: CeilingOptions = {}): RequestListener {
  const auth = `Bearer ${options.key ?? BENCH_KEY}`;
  const limit = options.limit ?? 1_000_000_000;
  const limitValue = String(limit);
  const resetValue = String(options.resetAt ?? Math.floor(Date.now() / 1000) + 86_400);
  const pets = Array.from({ length: options.pets ?? BENCH_PETS }, (_, i) => ({
    id: i + 1,
    name: `Pet number ${i + 1}`,
    categoryId: (i % 7) + 1,
    status: STATUSES[i % 3],
  }));
  const gets = new Map<string, Answer>([
    ['/v1/pets', json(200, pets.slice(0, 20))],
    ['/v1/pets?status=available', json(200, pets.filter((p) => p.status === 'available').slice(0, 20))],
    ['/v1/pets/1', json(200, pets[0], DEPRECATION)],
  ]);
  for (let limit = 1; limit <= 100; limit += 1)
    gets.set(`/v1/pets?limit=${limit}`, json(200, pets.slice(0, limit)));
  const created = json(201, { id: pets.length + 1, name: 'Biscuit', categoryId: 3, status: 'available' }, [
    'Location',
    `/v1/pets/${pets.length + 1}`,
  ]);
  const invalid = error(
    400,
    'validation_failed',
    'Invalid body: /name must NOT have fewer than 1 characters.',
  );
  const malformed = error(400, 'malformed_json', 'The body is not valid JSON.');
  const unauthorized = error(401, 'missing_api_key', 'An API key is required.', [
    'WWW-Authenticate',
    'Bearer realm="pets"',
  ]);
  const notFound = error(404, 'route_not_found', 'No route matches.');
  if (options.work === true) return workMatched(options, { gets, unauthorized, notFound, malformed, pets });
  let remaining = limit;

  function send(res: ServerResponse, answer: Answer): void {
    remaining = remaining > 0 ? remaining - 1 : 0;
    res.writeHead(answer.status, [
      ...answer.headers,
      'X-RateLimit-Limit',
      limitValue,
      'X-RateLimit-Remaining',
      String(remaining),
      'X-RateLimit-Reset',
      resetValue,
    ]);
    res.end(answer.body);
  }

  function create(req: IncomingMessage, res: ServerResponse): void {
    readJson(
      req,
      (body) => send(res, isNewPet(body) ? created : invalid),
      () => send(res, malformed),
    );
  }

  return (req, res) => {
    const url = req.url ?? '/';
    if (req.headers.authorization !== auth) {
      req.resume();
      send(res, url.startsWith('/v1/pets') ? unauthorized : notFound);
      return;
    }
    if (req.method === 'POST' && url === '/v1/pets') {
      create(req, res);
      return;
    }
    req.resume();
    send(res, (req.method === 'GET' && gets.get(url)) || notFound);
  };
}

/** Just enough to tell the bench's valid body from its invalid one, as cheaply as a real check. */
function isNewPet(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { name, categoryId } = value as { name?: unknown; categoryId?: unknown };
  return (
    typeof name === 'string' && name.length > 0 && Number.isInteger(categoryId) && Number(categoryId) >= 1
  );
}

const MINUTE_MS = 60_000;

/** A key's (or an address's) minute window: when it began, and the requests counted in it. */
interface Window {
  start: number;
  count: number;
}

/** The work-matched ceiling's listener: see the file's head. */
function workMatched(
  options: CeilingOptions,
  answers: {
    readonly gets: ReadonlyMap<string, Answer>;
    readonly unauthorized: Answer;
    readonly notFound: Answer;
    readonly malformed: Answer;
    readonly pets: readonly unknown[];
  },
): RequestListener {
  const now = options.now ?? Date.now;
  const limit = options.limit ?? 1_000_000_000;
  const limitValue = String(limit);
  const keys = new Map<string, Window>([[options.key ?? BENCH_KEY, { start: 0, count: 0 }]]);
  const addresses = new Map<string, Window>();
  const validateNewPet = loadSpec().schema('NewPet');
  let nextId = answers.pets.length + 1;

  /** Counts the request in its window (a new one when the last has ended) and sends the answer. */
  function send(res: ServerResponse, window: Window, answer: Answer): void {
    const at = now();
    if (at - window.start >= MINUTE_MS) {
      window.start = at - (at % MINUTE_MS);
      window.count = 0;
    }
    window.count += 1;
    res.writeHead(answer.status, [
      ...answer.headers,
      'X-RateLimit-Limit',
      limitValue,
      'X-RateLimit-Remaining',
      String(Math.max(0, limit - window.count)),
      'X-RateLimit-Reset',
      String((window.start + MINUTE_MS) / 1000),
    ]);
    res.end(answer.body);
  }

  function create(req: IncomingMessage, res: ServerResponse, window: Window): void {
    readJson(
      req,
      (body) => {
        const faults = validateNewPet(body);
        if (faults.length > 0) {
          const details = faults.slice(0, 20).map(describeFault);
          const message = `Invalid body: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}.`;
          send(res, window, error(400, 'validation_failed', message, [], details));
          return;
        }
        const pet = { id: nextId++, ...(body as object) };
        send(res, window, json(201, pet, ['Location', `/v1/pets/${pet.id}`]));
      },
      () => send(res, window, answers.malformed),
    );
  }

  return (req, res) => {
    const url = req.url ?? '/';
    const header = req.headers.authorization;
    const window =
      header?.startsWith('Bearer ') === true ? keys.get(header.slice('Bearer '.length)) : undefined;
    if (window === undefined) {
      req.resume();
      const address = req.socket.remoteAddress ?? '';
      let anonymous = addresses.get(address);
      if (anonymous === undefined) {
        anonymous = { start: 0, count: 0 };
        addresses.set(address, anonymous);
      }
      send(res, anonymous, url.startsWith('/v1/pets') ? answers.unauthorized : answers.notFound);
      return;
    }
    if (req.method === 'POST' && url === '/v1/pets') {
      create(req, res, window);
      return;
    }
    req.resume();
    send(res, window, (req.method === 'GET' && answers.gets.get(url)) || answers.notFound);
  };
}

/** Reads a request's body whole and parses it as JSON: `onBody` with the value, or `onMalformed`. */
function readJson(req: IncomingMessage, onBody: (value: unknown) => void, onMalformed: () => void): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      onMalformed();
      return;
    }
    onBody(body);
  });
}

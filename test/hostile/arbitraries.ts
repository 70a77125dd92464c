// Requests as a hostile or clumsy client sends them, for fast-check: methods the API has and has
// not, targets near the routes and far from them (prototype keys, encodings, long and deep queries),
// headers the mock reads with values it must refuse, and bodies from valid pets to junk; and
// createPet requests that reach validation with bodies nested thousands deep or thousands wide in
// each field, near the 16 KiB limit and just over it.
import fc from 'fast-check';
import { MAX_BODY_BYTES } from '../../openapi/index.js';

/** A key of a private keys file: it must never appear in an answer or a log line. */
export const SECRET_KEY = 'sk_fuzz_9f8e7d6c5b4a39281706';

export interface HostileRequest {
  readonly method: string;
  readonly target: string;
  readonly headers: Record<string, string>;
  readonly body: string | undefined;
}

const token = fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,20}$/);
const printable = (max: number) => fc.stringMatching(new RegExp(`^[\\x20-\\x7e]{0,${max}}$`));
// No `#`: a fragment is never sent on the wire.
const pathChars = (max: number) => fc.stringMatching(new RegExp(`^[\\x21\\x22\\x24-\\x7e]{0,${max}}$`));

const method = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('GET', 'POST', 'HEAD', 'OPTIONS') },
  { weight: 2, arbitrary: fc.constantFrom('PUT', 'DELETE', 'PATCH', 'TRACE', 'get', 'Post') },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Z]{1,12}$/) },
);

const target = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '/v1/pets',
      '/v1/pets?limit=5',
      '/v1/pets?limit=0',
      '/v1/pets?status=sold&limit=100',
      '/v1/pets?limit=1.5&limit=2',
      '/v1/pets/1',
      '/v1/pets/51',
      '/v1/pets/0',
      '/v1/pets/-1',
      '/v1/pets/99999999999999999999',
      '/v1/pets/__proto__',
      '/v1/pets/constructor',
      '/v1/pets?__proto__=1&constructor=2',
      '/v1/pets/%00',
      '/v1/pets/%E0%A4%A',
      '/v1/./pets',
      '/v1/pets/1/..',
      '/v1',
      '/',
      '/__petkit/health',
      '/__petkit/requests?limit=3',
      '/__petkit/requests?status=4xx&path=/v1',
      '/__petkit/requests?since=abc',
      '/__petkit/nope',
    ),
  },
  { weight: 2, arbitrary: pathChars(60).map((rest) => `/v1/pets/${rest}`) },
  { weight: 1, arbitrary: pathChars(60).map((rest) => `/v1/pets?${rest}`) },
  { weight: 1, arbitrary: pathChars(60).map((rest) => `/${rest}`) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 4_000 }).map((n) => `/v1/pets?q=${'a'.repeat(n)}`) },
  // Long values where a message quotes them: a status, a limit, a petId.
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom('/v1/pets?status=', '/v1/pets?limit=', '/v1/pets/'),
        fc.integer({ min: 1, max: 8_000 }),
      )
      .map(([start, n]) => `${start}${'9'.repeat(n)}`),
  },
);

const authorization = fc.constantFrom(
  `Bearer ${SECRET_KEY}`,
  `bearer ${SECRET_KEY}`,
  'Bearer demo-free',
  'Bearer wrong-key',
  'Bearer ',
  SECRET_KEY,
  `Basic ${SECRET_KEY}`,
  `Bearer ${SECRET_KEY}x`,
  `Bearer ${'k'.repeat(300)}`,
);

const contentType = fc.oneof(
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'APPLICATION/JSON',
    'text/plain',
    'application/jsonx',
    'multipart/form-data; boundary=x',
    '',
  ),
  // The 415 quotes the Content-Type it got.
  fc.integer({ min: 1, max: 8_000 }).map((n) => `application/${'x'.repeat(n)}`),
);

const prefer = fc.constantFrom(
  'code=400',
  'code=401',
  'code=404',
  'code=413',
  'code=415',
  'code=429',
  'code=500',
  'code=507',
  'code=999',
  'code=abc',
  'delay=5',
  'delay=-1',
  'delay=abc',
  'code=404, delay=1',
  'return=minimal',
);

const headers = fc.record(
  {
    authorization,
    'content-type': contentType,
    prefer,
    accept: fc.constantFrom('application/json', '*/*', 'text/html'),
    origin: fc.constantFrom('http://localhost:5173', 'https://evil.example', 'null'),
    'access-control-request-method': fc.constantFrom('GET', 'POST', 'DELETE'),
    'access-control-request-headers': printable(60),
    'x-extra': printable(100),
  },
  { requiredKeys: [] },
);

const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

const body = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  {
    weight: 3,
    arbitrary: fc
      .record({
        name: fc.string({ minLength: 0, maxLength: 110 }),
        categoryId: fc.integer({ min: -2, max: 20 }),
      })
      .map((pet) => JSON.stringify(pet)),
  },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '{"__proto__":{"admin":true},"name":"Proto","categoryId":1}',
      '{"constructor":{"prototype":{"x":1}},"name":"C","categoryId":1}',
      '{"name":"Big","categoryId":9007199254740993}',
      '{"name":"Dup","name":"Dup2","categoryId":1}',
      '{"name":"Id","categoryId":1,"id":5}',
      deep(5_000),
      `{"name":"${'x'.repeat(17_000)}","categoryId":1}`,
      '\uFEFF{"name":"Bom","categoryId":1}',
      '',
    ),
  },
  { weight: 1, arbitrary: printable(200) },
);

/**
 * JSON text of one shape filling at most `bytes`, written as a string: fast-check builds no tree, so a
 * value 8,000 deep costs what one 8 deep does. Each is [the bytes one step takes, the text of n steps].
 */
const SHAPES: readonly (readonly [step: number, text: (n: number) => string])[] = [
  [2, (n) => `${'['.repeat(n)}${']'.repeat(n)}`],
  [6, (n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`],
  [8, (n) => `${'[{"a":'.repeat(n)}0${'}]'.repeat(n)}`],
  [2, (n) => `[${'0,'.repeat(n)}0]`],
  // Members `"0":0`, `"1":0`, … (keys in base 36): the widest object the bytes allow.
  [8, (n) => `{${Array.from({ length: n }, (_, i) => `"${i.toString(36)}":0`).join(',')}}`],
  [1, (n) => `"${'x'.repeat(n)}"`],
  [1, (n) => `{"${'k'.repeat(n)}":1}`],
  // Nested, never closed: malformed_json.
  [1, (n) => `${'['.repeat(n)}`],
];

/** Where a deep or wide value goes: the whole body, or a field of a NewPet (known or not). */
const PLACES: readonly ((value: string) => string)[] = [
  (value) => value,
  (value) => `{"name":${value},"categoryId":1}`,
  (value) => `{"name":"Rex","categoryId":${value}}`,
  (value) => `{"name":"Rex","categoryId":1,"status":${value}}`,
  (value) => `{"name":"Rex","categoryId":1,"tag":${value}}`,
];

/** A body of a value deep or wide in one place, its size small, near MAX_BODY_BYTES, or just over it. */
export const deepOrWideBody: fc.Arbitrary<string> = fc
  .record({
    place: fc.integer({ min: 0, max: PLACES.length - 1 }),
    shape: fc.integer({ min: 0, max: SHAPES.length - 1 }),
    bytes: fc.oneof(
      fc.integer({ min: 1, max: 200 }),
      fc.integer({ min: MAX_BODY_BYTES - 1_024, max: MAX_BODY_BYTES }),
      fc.integer({ min: MAX_BODY_BYTES + 1, max: MAX_BODY_BYTES + 256 }),
    ),
  })
  .map(({ place, shape, bytes }) => {
    const wrap = PLACES[place] ?? ((value: string) => value);
    const [step, text] = SHAPES[shape] ?? [1, (n: number) => `${n}`];
    const room = Math.max(bytes - wrap('').length - 3, step);
    return wrap(text(Math.floor(room / step)));
  });

/** A createPet that reaches validation (a valid key, a JSON body, nothing forced) with a body to refuse. */
export const createPetRequest: fc.Arbitrary<HostileRequest> = fc.record({
  method: fc.constant('POST'),
  target: fc.constant('/v1/pets'),
  headers: fc.record({
    authorization: fc.constant(`Bearer ${SECRET_KEY}`),
    'content-type': fc.constantFrom('application/json', 'application/json; charset=utf-8'),
  }),
  // Always a body: one announced and never sent (a junk `transfer-encoding: chunked`) waits for its
  // 408, which the other requests already cover.
  body: fc.oneof(
    { weight: 4, arbitrary: deepOrWideBody },
    { weight: 1, arbitrary: body.filter((text): text is string => text !== undefined) },
  ),
});

export const hostileRequest: fc.Arbitrary<HostileRequest> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ method, target, headers, body }) },
  { weight: 1, arbitrary: createPetRequest },
);

/** Raw lines a broken client may add to a request's head: header names and values Node must refuse. */
export const junkHeaderLine = fc.oneof(
  fc.constantFrom(
    'bad header: 1',
    'x-nul: a\x00b',
    'content-length: 5\r\ncontent-length: 6',
    'transfer-encoding: chunked\r\ncontent-length: 3',
    'transfer-encoding: gzip, chunked',
    'expect: 200-ok',
    ` x-folded: continuation`,
  ),
  fc.tuple(token, printable(60)).map(([name, value]) => `${name}: ${value}`),
);

import { describe, expect, test } from 'vitest';
import { loadSpec } from './index.js';
import { checkResponse, type ResponseToCheck } from './response-checks.js';

const spec = loadSpec();
const NOW = Date.UTC(2026, 5, 1, 12, 0, 0);
const RESET = String(NOW / 1000 + 30);

interface Exchange {
  readonly operationId: string;
  readonly response: ResponseToCheck;
}

function exchange(
  operationId: string,
  status: number,
  headers: Record<string, string>,
  body: unknown,
): Exchange {
  return {
    operationId,
    response: {
      status,
      headers: {
        'content-type': 'application/json',
        'x-ratelimit-limit': '60',
        'x-ratelimit-remaining': '59',
        'x-ratelimit-reset': RESET,
        ...headers,
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    },
  };
}

const check = (ex: Exchange) =>
  checkResponse(spec, spec.operation(ex.operationId), ex.response, { nowMs: NOW });

const failing = (ex: Exchange) =>
  check(ex)
    .filter((verdict) => verdict.finding !== undefined)
    .map((verdict) => `${verdict.check}: ${verdict.finding?.message}`);

const pets = [{ id: 1, name: 'Biscuit', categoryId: 3, status: 'available' }];

describe('every response is held to the contract', () => {
  test('a conforming list passes every check', () => {
    expect(failing(exchange('listPets', 200, {}, pets))).toEqual([]);
  });

  test('a 5xx is a server error, even when documented', () => {
    const ex = exchange('listPets', 500, {}, { code: 'internal_error', message: 'x', status: 500 });
    expect(failing(ex)).toEqual(['not_a_server_error: the server answered 500']);
  });

  test('an undocumented status', () => {
    const ex = exchange('listPets', 403, {}, { code: 'forbidden', message: 'x', status: 403 });
    expect(failing(ex)).toEqual(['status_code_conformance: 403 is not a documented status of listPets']);
  });

  test('JSON under another Content-Type, and a body that is not JSON', () => {
    expect(failing(exchange('listPets', 200, { 'content-type': 'text/plain' }, pets))).toEqual([
      'content_type_conformance: Content-Type is text/plain',
    ]);
    expect(failing(exchange('listPets', 200, {}, '<html>'))).toEqual([
      'content_type_conformance: the body is not JSON (Content-Type: application/json): it breaks at byte 0 (line 1, column 1), where a JSON value was due: "<html>"',
    ]);
  });

  test('a body that is not JSON: where it breaks, said once, from the body as it may be shown', () => {
    const body = '{"code":"not_found","message":"No pet for s3cret-key-42" "status":404}';
    const notFound = exchange('getPet', 404, {}, body);
    const [finding] = check(notFound).filter((v) => v.check === 'content_type_conformance');
    expect(finding?.finding).toMatchObject({
      message:
        'the body is not JSON (Content-Type: application/json): it breaks at byte 57 (line 1, column 58), where , or } was due: "… pet for s3cret-key-42\\" \\"status\\":404}"',
      // The same cause for every such body, whatever its place.
      cause: 'the body is not JSON (Content-Type: application/json)',
    });
    // With the key hidden: the place is the body's as it came, the excerpt the hidden body's.
    const hidden = checkResponse(spec, spec.operation('getPet'), notFound.response, {
      nowMs: NOW,
      hide: (text) => text.replaceAll('s3cret-key-42', '$API_KEY'),
    }).find((v) => v.check === 'content_type_conformance');
    expect(hidden?.finding?.message).toBe(
      'the body is not JSON (Content-Type: application/json): it breaks at byte 57 (line 1, column 58), where , or } was due: "…\\":\\"No pet for $API_KEY\\" \\"status\\":404}"',
    );
    expect(hidden?.finding?.message).not.toMatch(/s3cret|key-42/);
    // A place its reader found already (the suite's, from the body before its key was hidden) is taken as it is.
    const given = checkResponse(
      spec,
      spec.operation('listPets'),
      {
        ...exchange('listPets', 200, { 'content-length': '9' }, '[{"id":1,').response,
        notJson: {
          line: 1,
          column: 10,
          byte: 9,
          expected: 'a member name (a string)',
          ended: true,
          bodyBytes: 9,
          excerpt: '[{"id":1,',
        },
      },
      { nowMs: NOW },
    ).find((v) => v.check === 'content_type_conformance');
    expect(given?.finding?.message).toBe(
      'the body is not JSON (Content-Type: application/json): it ends inside the JSON, where its Content-Length: 9 ends it (a member name (a string) was due), cut there, as by a Content-Length shorter than the body sent; its end: "[{\\"id\\":1,"',
    );
    // Cut elsewhere than its Content-Length (none, or a content coding's): said where it ends.
    expect(failing(exchange('listPets', 200, {}, '[{"id":1,"name":"Bis'))).toEqual([
      'content_type_conformance: the body is not JSON (Content-Type: application/json): it ends inside the JSON, at byte 20 (line 1, column 21) (the rest of a string was due); its end: "[{\\"id\\":1,\\"name\\":\\"Bis"',
    ]);
  });

  test('a body off its schema, pointed at', () => {
    expect(failing(exchange('listPets', 200, {}, [{ ...pets[0], id: '1' }]))).toEqual([
      'response_schema_conformance: /0/id must be integer',
    ]);
  });

  test('rate-limit headers: missing, Remaining above Limit, Reset not a current window', () => {
    const missing = exchange('listPets', 200, {}, pets);
    const { 'x-ratelimit-limit': _, ...rest } = missing.response?.headers ?? {};
    expect(
      failing({ ...missing, response: { status: 200, headers: rest, body: JSON.stringify(pets) } }),
    ).toEqual(['response_headers_conformance: X-RateLimit-Limit is missing']);
    expect(failing(exchange('listPets', 200, { 'x-ratelimit-remaining': '61' }, pets))).toEqual([
      'response_headers_conformance: X-RateLimit-Remaining 61 is more than X-RateLimit-Limit 60',
    ]);
    expect(failing(exchange('listPets', 200, { 'x-ratelimit-reset': String(NOW) }, pets))).toHaveLength(1);
  });

  test('a rate-limit header that is not digits is reported as such, never read as a number', () => {
    expect(failing(exchange('listPets', 200, { 'x-ratelimit-limit': '' }, pets))).toEqual([
      'response_headers_conformance: X-RateLimit-Limit: "" must be integer',
    ]);
    expect(failing(exchange('listPets', 200, { 'x-ratelimit-reset': ' ' }, pets))).toEqual([
      'response_headers_conformance: X-RateLimit-Reset: " " must be integer',
    ]);
    expect(
      failing(
        exchange('listPets', 200, { 'x-ratelimit-limit': '0x10', 'x-ratelimit-remaining': '12' }, pets),
      ),
    ).toEqual(['response_headers_conformance: X-RateLimit-Limit: "0x10" must be integer']);
  });

  test('a 429 needs Retry-After; a 201 needs Location', () => {
    const limited = exchange('listPets', 429, {}, { code: 'rate_limited', message: 'x', status: 429 });
    expect(failing(limited)).toEqual(['response_headers_conformance: Retry-After is missing']);
    expect(failing(exchange('createPet', 201, {}, pets[0]))).toEqual([
      'response_headers_conformance: Location is missing',
    ]);
  });

  test("an Error's status must repeat the HTTP status", () => {
    const ex = exchange('listPets', 400, {}, { code: 'validation_failed', message: 'x', status: 422 });
    expect(failing(ex)).toEqual([
      'error_body_consistency: the Error body says status 422, the HTTP status is 400',
    ]);
  });

  test("an Error off its schema is response_schema_conformance's alone: error_body_consistency is inconclusive", () => {
    const ex = exchange('listPets', 400, {}, { code: 'validation_failed', message: 'x', status: '400' });
    expect(failing(ex)).toEqual(['response_schema_conformance: /status must be integer']);
    // Neither a pass nor a finding: the check did not judge it.
    expect(check(ex).filter((verdict) => verdict.check === 'error_body_consistency')).toEqual([]);
  });

  test('getPet without Sunset and Deprecation where the document requires them is an error', () => {
    const verdicts = check(exchange('getPet', 200, { link: '</v1/pets>; rel="successor-version"' }, pets[0]));
    const found = verdicts.filter((verdict) => verdict.finding !== undefined);
    expect(found.map((verdict) => [verdict.check, verdict.finding?.severity])).toEqual([
      ['deprecation_signalled', 'error'],
      ['deprecation_signalled', 'error'],
    ]);
  });

  test('on a getPet 401, where the document leaves them out, missing deprecation headers are a warning only', () => {
    const ex = exchange(
      'getPet',
      401,
      { 'www-authenticate': 'Bearer realm="pets"' },
      { code: 'missing_api_key', message: 'x', status: 401 },
    );
    const found = check(ex).filter((verdict) => verdict.finding !== undefined);
    expect(found.map((verdict) => [verdict.check, verdict.finding?.severity])).toEqual([
      ['deprecation_signalled', 'warning'],
      ['deprecation_signalled', 'warning'],
      ['deprecation_signalled', 'warning'],
    ]);
  });

  const deprecated = {
    sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
    deprecation: '@1735689600',
    link: '</v1/pets>; rel="successor-version"',
  };

  test('getPet without Link is an error too', () => {
    const { link: _, ...noLink } = deprecated;
    expect(failing(exchange('getPet', 200, noLink, pets[0]))).toEqual([
      'deprecation_signalled: getPet is deprecated but the response has no Link header',
    ]);
  });

  test('Sunset is the document\'s HTTP-date exactly, Deprecation an @-date, Link rel="successor-version" to the successor', () => {
    expect(failing(exchange('getPet', 200, deprecated, pets[0]))).toEqual([]);
    expect(
      failing(
        exchange(
          'getPet',
          200,
          { ...deprecated, link: '<https://api.example/v1/pets>; REL=successor-version' },
          pets[0],
        ),
      ),
    ).toEqual([]);
    expect(
      failing(exchange('getPet', 200, { ...deprecated, sunset: 'Fri, 06 Dec 2030 00:00:00 GMT' }, pets[0])),
    ).toEqual(['deprecation_signalled: Sunset: "Fri, 06 Dec 2030 00:00:00 GMT" must be equal to constant']);
    expect(failing(exchange('getPet', 200, { ...deprecated, deprecation: 'true' }, pets[0]))).toEqual([
      'deprecation_signalled: Deprecation: "true" must match pattern "^@-?[0-9]+$"',
    ]);
    expect(
      failing(exchange('getPet', 200, { ...deprecated, link: '</v1/pets>; rel="alternate"' }, pets[0])),
    ).toEqual([
      'deprecation_signalled: Link: "</v1/pets>; rel=\\"alternate\\"" has no rel="successor-version" link',
    ]);
    expect(
      failing(
        exchange('getPet', 200, { ...deprecated, link: '</v2/animals>; rel="successor-version"' }, pets[0]),
      ),
    ).toEqual([
      'deprecation_signalled: Link: "</v2/animals>; rel=\\"successor-version\\"" names </v2/animals>, not </v1/pets>',
    ]);
  });

  test('Link under the base path the server is reached at: listPets of that API, at its origin', () => {
    const link = (target: string, baseUrl?: string) =>
      checkResponse(
        spec,
        spec.operation('getPet'),
        exchange('getPet', 200, { ...deprecated, link: `<${target}>; rel="successor-version"` }, pets[0])
          .response,
        { nowMs: NOW, ...(baseUrl === undefined ? {} : { baseUrl }) },
      )
        .filter((verdict) => verdict.finding !== undefined)
        .map((verdict) => `${verdict.finding?.message} | ${verdict.finding?.expected}`);
    // Mounted under /api: its listPets is /api/pets, however it is written.
    for (const target of ['/api/pets', 'http://host.test/api/pets', '../pets', '/api/pets?status=available'])
      expect(link(target, 'http://host.test/api'), target).toEqual([]);
    expect(link('/api/v2/pets', 'https://x.test/api/v2/')).toEqual([]);
    expect(link('/pets', 'http://host.test')).toEqual([]);
    // The document's own /v1/pets is not this API's collection there, nor is another origin's.
    for (const target of ['/v1/pets', 'https://elsewhere.test/api/pets', '/api/animals', '/api/pets/1'])
      expect(link(target, 'http://host.test/api'), target).toEqual([
        `Link: ${JSON.stringify(`<${target}>; rel="successor-version"`)} names <${target}>, not </api/pets> | Link: </api/pets>; rel="successor-version" on every response of the deprecated getPet`,
      ]);
    // At /v1, as before: the document's example, and an absolute URL to the same origin, not to another.
    expect(link('/v1/pets', 'http://127.0.0.1:4010/v1')).toEqual([]);
    expect(link('http://127.0.0.1:4010/v1/pets', 'http://127.0.0.1:4010/v1')).toEqual([]);
    expect(link('https://elsewhere.test/v1/pets', 'http://127.0.0.1:4010/v1')).toHaveLength(1);
    expect(link('/v2/animals', 'http://127.0.0.1:4010/v1')).toHaveLength(1);
    // No base URL given: as before, a target that ends with the document's /v1/pets.
    expect(link('/v1/pets')).toEqual([]);
    expect(link('https://api.example/v1/pets')).toEqual([]);
    expect(link('/api/v1/pets')).toEqual([]);
    expect(link('/api/pets')).toHaveLength(1);
  });

  test("a 304 to a conditional request is HTTP's answer, no undocumented status; its headers still held", () => {
    const notModified = exchange('listPets', 304, { etag: 'W/"1"' }, '');
    const held = (conditional: boolean) =>
      checkResponse(spec, spec.operation('listPets'), notModified.response, { nowMs: NOW, conditional })
        .filter((verdict) => verdict.finding !== undefined)
        .map((verdict) => `${verdict.check}: ${verdict.finding?.message}`);
    expect(held(false)).toEqual(['status_code_conformance: 304 is not a documented status of listPets']);
    expect(held(true)).toEqual([]);
    // Every response carries the X-RateLimit-* headers, a 304 too.
    const { 'x-ratelimit-limit': _, ...withoutLimit } = notModified.response.headers;
    expect(
      checkResponse(
        spec,
        spec.operation('listPets'),
        { ...notModified.response, headers: withoutLimit },
        { nowMs: NOW, conditional: true },
      ).flatMap((verdict) => (verdict.finding === undefined ? [] : [verdict.finding.message])),
    ).toEqual(['X-RateLimit-Limit is missing']);
    // Only a 304: another undocumented status to a conditional request is still one.
    expect(
      checkResponse(spec, spec.operation('listPets'), exchange('listPets', 412, {}, '').response, {
        nowMs: NOW,
        conditional: true,
      }).some((verdict) => verdict.check === 'status_code_conformance' && verdict.finding !== undefined),
    ).toBe(true);
  });

  test('the documented media type exactly, with parameters allowed', () => {
    const error = { code: 'validation_failed', message: 'x', status: 400 };
    expect(
      failing(exchange('listPets', 200, { 'content-type': 'application/json; charset=utf-8' }, pets)),
    ).toEqual([]);
    expect(failing(exchange('listPets', 400, { 'content-type': 'application/problem+json' }, error))).toEqual(
      ['content_type_conformance: Content-Type is application/problem+json'],
    );
  });

  test('an Error code outside the documented set, case included, is a schema finding', () => {
    expect(
      failing(exchange('listPets', 400, {}, { code: 'bad_request', message: 'x', status: 400 })),
    ).toEqual(['response_schema_conformance: the Error code "bad_request" is not one the document lists']);
    expect(
      failing(exchange('listPets', 400, {}, { code: 'Validation_Failed', message: 'x', status: 400 })),
    ).toEqual([
      'response_schema_conformance: the Error code "Validation_Failed" is not one the document lists',
    ]);
  });

  test("a Reset out of every current window says so, and that the server's clock is off when its own Date is as far off", () => {
    // A server 10 minutes slow: its Date and its Reset alike. The finding named the Reset alone, so the
    // user looked for a bug in the rate limiter where the clock was wrong.
    const slowS = NOW / 1000 - 600;
    const date = new Date(slowS * 1000).toUTCString();
    const reset = String(slowS + 30);
    const shown = `X-RateLimit-Reset ${reset} (${new Date((slowS + 30) * 1000).toISOString()}) is not the end of a current window`;
    expect(failing(exchange('listPets', 200, { date, 'x-ratelimit-reset': reset }, pets))).toEqual([
      `response_headers_conformance: ${shown}; the response's own Date (${date}) is 600 s behind this machine's clock: the server's clock is off, and its Reset with it`,
    ]);
    // A Date on time: the Reset alone is wrong (and before that Date).
    const onTime = new Date(NOW).toUTCString();
    expect(failing(exchange('listPets', 200, { date: onTime, 'x-ratelimit-reset': reset }, pets))).toEqual([
      `response_headers_conformance: ${shown}`,
      `response_headers_conformance: X-RateLimit-Reset ${reset} (${new Date((slowS + 30) * 1000).toISOString()}) is before the response's own Date (${onTime})`,
    ]);
  });

  test("X-RateLimit-Reset before the response's own Date is found, though within the clock-skew allowance", () => {
    const date = new Date(NOW).toUTCString();
    const past = String(NOW / 1000 - 30);
    expect(failing(exchange('listPets', 200, { date, 'x-ratelimit-reset': past }, pets))).toEqual([
      `response_headers_conformance: X-RateLimit-Reset ${past} (${new Date((NOW / 1000 - 30) * 1000).toISOString()}) is before the response's own Date (${date})`,
    ]);
    expect(failing(exchange('listPets', 200, { date }, pets))).toEqual([]);
  });

  test('a response outside every operation: rate-limit headers and an Error that repeats the status', () => {
    const outside = (status: number, headers: Record<string, string>, body: unknown) =>
      checkResponse(spec, undefined, exchange('listPets', status, headers, body).response, { nowMs: NOW })
        .filter((verdict) => verdict.finding !== undefined)
        .map((verdict) => `${verdict.check}: ${verdict.finding?.message}`);
    expect(outside(404, {}, { code: 'route_not_found', message: 'x', status: 404 })).toEqual([]);
    // A body off the Error schema is the schema's finding alone (one check per fault).
    expect(outside(404, {}, { code: 'route_not_found', status: 405 })).toEqual([
      'response_schema_conformance: /message is required',
    ]);
    expect(outside(404, {}, { code: 'route_not_found', message: 'x', status: 405 })).toEqual([
      'error_body_consistency: the Error body says status 405, the HTTP status is 404',
    ]);
    expect(
      outside(
        405,
        { 'x-ratelimit-limit': 'sixty' },
        { code: 'method_not_allowed', message: 'x', status: 405 },
      ),
    ).toEqual(['response_headers_conformance: X-RateLimit-Limit: "sixty" must be integer']);
  });

  test('a response to HEAD has no body to check', () => {
    const head = exchange('listPets', 200, {}, '');
    const verdicts = checkResponse(spec, spec.operation('listPets'), head.response, {
      nowMs: NOW,
      head: true,
    });
    expect(verdicts.filter((verdict) => verdict.finding !== undefined)).toEqual([]);
  });
});

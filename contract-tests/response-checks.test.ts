import { describe, expect, test } from 'vitest';
import { loadSpec } from '../openapi/index.js';
import type { Exchange } from './exchange.js';
import { checkResponse } from './response-checks.js';

const spec = loadSpec();
const NOW = Date.UTC(2026, 5, 1, 12, 0, 0);
const RESET = String(NOW / 1000 + 30);

function exchange(
  operationId: string,
  status: number,
  headers: Record<string, string>,
  body: unknown,
): Exchange {
  return {
    operationId,
    request: { method: 'GET', url: 'http://x/v1/pets', headers: {} },
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
    durationMs: 1,
  };
}

const failing = (ex: Exchange) =>
  checkResponse(spec, ex, NOW)
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
      'content_type_conformance: the body is not JSON (Content-Type: application/json)',
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

  test('getPet without Sunset and Deprecation is a warning, not a failure', () => {
    const verdicts = checkResponse(
      spec,
      exchange('getPet', 200, { link: '</v1/pets>; rel="successor-version"' }, pets[0]),
      NOW,
    );
    const found = verdicts.filter((verdict) => verdict.finding !== undefined);
    expect(found.map((verdict) => [verdict.check, verdict.finding?.severity])).toEqual([
      ['deprecation_signalled', 'warning'],
      ['deprecation_signalled', 'warning'],
    ]);
  });
});

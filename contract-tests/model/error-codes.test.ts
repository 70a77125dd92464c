import { expect, test } from 'vitest';
import { loadSpec } from '../../openapi/index.js';
import { invalidBodyCode, readErrorCodes } from './error-codes.js';

const spec = loadSpec();
const codes = readErrorCodes(spec);

test('a code the document gives to other statuses only does not fit: validation_failed on a 415, not_found on a 400', () => {
  expect([...(codes.misfit('validation_failed', 415)?.statuses ?? [])]).toEqual([400]);
  expect(codes.misfit('validation_failed', 415)?.because[0]?.kind).toBe('document');
  expect([...(codes.misfit('not_found', 400)?.statuses ?? [])]).toEqual([404]);
  expect([...(codes.misfit('unsupported_media_type', 400)?.statuses ?? [])]).toEqual([415]);
  expect([...(codes.misfit('request_timeout', 400)?.statuses ?? [])]).toEqual([408]);
  expect(codes.codesOf(415)).toEqual(['unsupported_media_type']);
  expect([...codes.codesOf(400)].sort()).toEqual(['malformed_json', 'validation_failed']);
});

test('each code fits the statuses the document gives it, and a code it gives to no status is not judged', () => {
  for (const [code, status] of [
    ['validation_failed', 400],
    ['malformed_json', 400],
    ['invalid_api_key', 401],
    ['payload_too_large', 413],
    ['unsupported_media_type', 415],
    ['not_found', 404],
    ['rate_limited', 429],
    ['api_key_banned', 429],
    ['store_full', 507],
    ['request_timeout', 408],
    // Named in the list of codes, for no status: not judged.
    ['missing_api_key', 401],
    ['route_not_found', 404],
    ['method_not_allowed', 405],
  ] as const)
    expect(codes.misfit(code, status), `${code} on ${status}`).toBeUndefined();
  // Not a code the document lists: response_schema_conformance's, not this.
  expect(codes.misfit('NOT_FOUND', 400)).toBeUndefined();
  expect(codes.listed('NOT_FOUND')).toBe(false);
  expect(codes.listed('not_found')).toBe(true);
});

test('an invalid body: malformed_json when it is not JSON or empty, validation_failed when it is JSON off the schema', () => {
  expect(invalidBodyCode(spec, 'a body that is not JSON').code).toBe('malformed_json');
  expect(invalidBodyCode(spec, 'an empty body').code).toBe('malformed_json');
  expect(JSON.stringify(invalidBodyCode(spec, 'an empty body').because[0])).toMatch(
    /Malformed JSON and an empty body are a 400 with code malformed_json/,
  );
  expect(invalidBodyCode(spec, 'a body off its schema').code).toBe('validation_failed');
});

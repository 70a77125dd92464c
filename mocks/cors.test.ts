// CORS as a browser app meets it: the preflight allows the headers the app adds, says it varies with
// them, may be cached, and is not counted; the expose list is exactly the headers an app reads.
import { describe, expect, it } from 'vitest';
import { createMock } from './mock.js';
import { checkedRequest, withKey } from './test-helpers.js';

const preflight = (requestHeaders?: string, path = '/v1/pets') =>
  checkedRequest(createMock(), path, {
    method: 'OPTIONS',
    headers: {
      origin: 'http://localhost:5173',
      'access-control-request-method': 'GET',
      ...(requestHeaders === undefined ? {} : { 'access-control-request-headers': requestHeaders }),
    },
  });

describe('the CORS preflight', () => {
  it('allows the headers the browser asks for, tracing headers among them', async () => {
    const res = await preflight('authorization,sentry-trace,traceparent,x-request-id');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-headers')).toBe(
      'authorization, sentry-trace, traceparent, x-request-id',
    );
  });

  it('says the answer varies with Access-Control-Request-Headers, and may be cached for 10 minutes', async () => {
    const res = await preflight('traceparent');
    expect(res.headers.get('vary')).toBe('Access-Control-Request-Headers');
    expect(res.headers.get('access-control-max-age')).toBe('600');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('allows the API’s own headers when the browser asks for none', async () => {
    const res = await preflight();
    expect(res.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type, Prefer');
    expect(res.headers.get('vary')).toBe('Access-Control-Request-Headers');
  });

  it('does not echo a request header that is not a list of header names', async () => {
    const res = await preflight('x-ok, bad header(, x-other');
    expect(res.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type, Prefer');
  });

  it('answers the control API’s preflight the same way', async () => {
    const res = await preflight('content-type,traceparent', '/__petkit/reset');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
    expect(res.headers.get('access-control-allow-headers')).toBe('content-type, traceparent');
  });

  it('is not counted against the rate limit', async () => {
    const mock = createMock();
    await checkedRequest(mock, '/v1/pets', {
      method: 'OPTIONS',
      headers: { 'access-control-request-headers': 'authorization,traceparent' },
    });
    const next = await checkedRequest(mock, '/v1/pets', withKey('demo-free'));
    expect(next.headers.get('x-ratelimit-remaining')).toBe('59');
  });
});

describe('exposed headers', () => {
  it('exposes exactly the headers an app reads, whatever the request asked', async () => {
    const res = await checkedRequest(
      createMock(),
      '/v1/pets',
      withKey('demo-free', {
        headers: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
      }),
    );
    expect(res.headers.get('access-control-expose-headers')).toBe(
      'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, Location, Sunset, Deprecation, Link, WWW-Authenticate, Preference-Applied',
    );
  });
});

// What a 401 (or, for two credentials, a 400) says of an Authorization header that is not `Bearer <key>`, through the core.
import { describe, expect, it } from 'vitest';
import { createMock } from './mock.js';

describe('authenticate: what came instead', () => {
  it('says a tab after Bearer is where a space goes, rather than that the Bearer scheme was sent', async () => {
    const mock = createMock();
    const response = await mock.request('/v1/pets', { headers: { authorization: 'Bearer\tdemo-free' } });
    expect(response.status).toBe(401);
    // It said "this request sent the Bearer scheme.", the scheme it asks for.
    expect(await response.json()).toEqual({
      code: 'missing_api_key',
      message:
        'An API key is required, sent as "Authorization: Bearer <API_KEY>"; this request sent the Bearer scheme followed by a tab, where a space goes.',
      status: 401,
    });
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="pets"');
  });
  it('never quotes a key of the keys file sent where the scheme goes', async () => {
    const secret = 'tok-Secret42';
    const mock = createMock({ keys: { keys: [{ key: secret, plan: 'free' }] } });
    const response = await mock.request('/v1/pets', { headers: { authorization: `${secret} Bearer` } });
    expect(response.status).toBe(401);
    const body = (await response.json()) as { message: string };
    // It said "this request sent the tok-Secret42 scheme.", the key itself.
    expect(body.message).not.toContain(secret);
    expect(body.message).toBe(
      'An API key is required, sent as "Authorization: Bearer <API_KEY>"; this request sent an API key where the scheme goes.',
    );
  });
});

describe('authenticate: more than one credential', () => {
  const TWO =
    'The request carries 2 credentials in Authorization (the header sent more than once, or several values in one), and which one is meant is unknown; send one, "Authorization: Bearer <API_KEY>".';
  it.each([
    ['a valid key, then a wrong one', ['Bearer demo-free', 'Bearer not-a-key']],
    ['the same valid key twice', ['Bearer demo-free', 'Bearer demo-free']],
    ['another scheme, then a key', ['Basic dXNlcjpwYXNz', 'Bearer demo-free']],
  ])('answers %s with a 400 that says two came, not a 401 "not valid"', async (_what, values) => {
    const mock = createMock();
    const response = await mock.request('/v1/pets', {
      headers: values.map((value) => ['authorization', value] as [string, string]),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ code: 'validation_failed', message: TWO, status: 400 });
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="pets", error="invalid_request"');
    // Counted as a request without a valid key: the address's window.
    expect(response.headers.get('x-ratelimit-remaining')).toBe('59');
  });
  it('reads one credential with parameters (commas between them) as one', async () => {
    const mock = createMock();
    const digest = await mock.request('/v1/pets', {
      headers: { authorization: 'Digest username="a", realm="pets", nonce="x"' },
    });
    expect(digest.status).toBe(401);
    expect(((await digest.json()) as { message: string }).message).toContain('the Digest scheme');
    const trailing = await mock.request('/v1/pets', { headers: { authorization: 'Bearer not-a-key,' } });
    expect(await trailing.json()).toMatchObject({ code: 'invalid_api_key', status: 401 });
  });
  it('still serves a key given once, and lets Prefer force its 401 over two', async () => {
    const mock = createMock();
    expect((await mock.request('/v1/pets', { headers: { authorization: 'Bearer demo-free' } })).status).toBe(
      200,
    );
    const forced = await mock.request('/v1/pets', {
      headers: [
        ['authorization', 'Bearer demo-free'],
        ['authorization', 'Bearer demo-pro'],
        ['prefer', 'code=401'],
      ],
    });
    expect(forced.status).toBe(401);
  });
});

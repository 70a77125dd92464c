// What a 401 says of an Authorization header that is not `Bearer <key>`, through the core.
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

// Reading a request body: what the refusals of body.ts say, in process (no port).
import { describe, expect, it } from 'vitest';
import { createMock } from './mock.js';

const SECRET = 'sk_live_Body4Secret';
const KEYS = { keys: [{ key: SECRET, plan: 'free' as const }] };
const PET = '{"name":"Rex","categoryId":1}';

describe('readJsonBody: a content coding', () => {
  it('quotes the Content-Encoding as sent, so a key of the keys file in it is masked in the journal', async () => {
    const mock = createMock({ keys: KEYS });
    const post = (encoding: string) =>
      mock.request('/v1/pets', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${SECRET}`,
          'content-type': 'application/json',
          'content-encoding': encoding,
        },
        body: PET,
      });
    const gzip = await post('GZIP');
    expect(gzip.status).toBe(415);
    expect((await gzip.json()).message).toBe(
      'The body must be sent as it is; this request sent Content-Encoding "GZIP", which the mock does not decode.',
    );
    // Quoted lower-cased, the key was no longer the key the journal masks: it kept it, lower-cased.
    const leaked = await post(`x-${SECRET}`);
    expect(leaked.status).toBe(415);
    const journal = JSON.stringify(mock.journal).toLowerCase();
    expect(journal).not.toContain(SECRET.toLowerCase());
    expect(journal).toContain('sk_l…');
  });
});

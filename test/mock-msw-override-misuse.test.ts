// petkit/msw's override given what a caller without types may give: a header value no Response can
// carry, a clock that answers no number. Refused with words, never an MSW 500 carrying a stack.
import { setupServer } from 'msw/node';
import { OverrideError, override } from 'petkit/msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const BASE = 'https://override-misuse.test/v1';
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('override', () => {
  it('refuses a header value beyond Latin-1 when made, and answers a function that returns one with a 500 that says so', async () => {
    expect(() =>
      override('listPets', { status: 200, body: [], headers: { 'X-Note': 'good 🐶' } }, { baseUrl: BASE }),
    ).toThrow(
      new OverrideError(
        "override('listPets'): the 200 header x-note has U+1F436 at character 6, beyond Latin-1, which no header carries; encode it (encodeURIComponent) or leave it out.",
      ),
    );
    server.use(
      override('listPets', () => ({ status: 200, body: [], headers: { 'X-Note': '🐶' } }), { baseUrl: BASE }),
    );
    const res = await fetch(`${BASE}/pets`);
    expect(res.status).toBe(500);
    const body = (await res.json()) as { code: string; message: string; stack?: string };
    expect(body.code).toBe('internal_error');
    expect(body.message).toContain('has U+1F436 at character 1, beyond Latin-1');
    expect(body.stack).toBeUndefined();
  });

  it('answers a function that throws with the mock’s documented 500 naming what it threw, never a stack', async () => {
    server.use(
      override(
        'getPet',
        () => {
          throw new TypeError('pets is undefined');
        },
        { baseUrl: BASE },
      ),
      override('listPets', () => Promise.reject('offline'), { baseUrl: BASE }),
    );
    const res = await fetch(`${BASE}/pets/1`);
    expect(res.status).toBe(500);
    const body = (await res.json()) as { code: string; message: string; stack?: string };
    expect(body).toEqual({
      code: 'internal_error',
      message: "override('getPet'): its function threw TypeError: pets is undefined.",
      status: 500,
    });
    const rejected = await fetch(`${BASE}/pets`);
    expect(rejected.status).toBe(500);
    expect(((await rejected.json()) as { message: string }).message).toBe(
      `override('listPets'): its function threw "offline".`,
    );
  });

  it('answers a 500 that names options.now when it returns no number, not Retry-After: NaN', async () => {
    const limited = { code: 'rate_limited' as const, message: 'slow down', status: 429 };
    server.use(
      override('listPets', { status: 429, body: limited }, { baseUrl: BASE, now: () => 'x' as never }),
    );
    const res = await fetch(`${BASE}/pets`);
    expect(res.status).toBe(500);
    expect(res.headers.get('retry-after')).toBeNull();
    expect(res.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
    expect(((await res.json()) as { message: string }).message).toBe(
      "override('listPets'): options.now returned 'x', not a number of ms since the epoch.",
    );
  });
});

// mock.request and mock.handle given what a user would try: a path, a URL string, a URL, a Request.
// Each is answered as the same request over a socket is; anything else is a MockOptionsError that
// says what each takes, never "Invalid URL" or a 404 for a path nobody sent (`/[object%20Request]`).
import { describe, expect, it } from 'vitest';
import { createMock } from './mock.js';
import { MockOptionsError } from './options.js';

const auth = { headers: { authorization: 'Bearer demo-free' } };

describe('mock.request', () => {
  it('takes a path, an absolute URL string, a URL or a Request, each answered as that request', async () => {
    const mock = createMock({ seed: 42 });
    const expected = await (await mock.request('/v1/pets?limit=2', auth)).json();
    expect(expected).toHaveLength(2);
    for (const target of [
      'http://localhost/v1/pets?limit=2',
      'v1/pets?limit=2',
      new URL('http://localhost:4010/v1/pets?limit=2'),
    ]) {
      const res = await mock.request(target, auth);
      expect(res.status, String(target)).toBe(200);
      expect(await res.json()).toEqual(expected);
    }
    const viaRequest = await mock.request(new Request('http://localhost/v1/pets?limit=2', auth));
    expect(viaRequest.status).toBe(200);
    expect(await viaRequest.json()).toEqual(expected);
    // A Request's init, given beside it, is applied as fetch(request, init) applies it.
    const overridden = await mock.request(new Request('http://localhost/v1/pets?limit=2'), auth);
    expect(overridden.status).toBe(200);
  });

  it('rejects with a MockOptionsError naming what it takes, for anything else', async () => {
    const mock = createMock();
    const takes =
      "mock.request takes a path ('/v1/pets'), a URL ('http://localhost/v1/pets', or a URL object) or a Request";
    for (const [target, got] of [
      [undefined, 'undefined'],
      [42, 'a number'],
      [{ url: '/v1/pets' }, 'an object'],
      ['http://', '"http://", which is not a URL'],
      ['http://[::1/v1/pets', '"http://[::1/v1/pets", which is not a URL'],
    ] as const) {
      await expect(mock.request(target as never, auth)).rejects.toThrow(
        new MockOptionsError(`${takes}; got ${got}.`),
      );
    }
    expect(mock.journal).toEqual([]);
  });
});

describe('a URL with a user and password (a key in it)', () => {
  it('is refused by mock.request and mock.handle without quoting it, where Request’s TypeError quoted the key', async () => {
    const mock = createMock();
    const attempts = [
      () => mock.request('http://user:sk-secret@localhost/v1/pets'),
      () => mock.request(new URL('http://user:sk-secret@localhost/v1/pets')),
      () => mock.request('http://sk-secret@localhost/v1/pets', auth),
      () => mock.handle('http://user:sk-secret@localhost/v1/pets'),
      () => mock.handle(new URL('http://:sk-secret@localhost/v1/pets')),
    ];
    for (const attempt of attempts) {
      const error: unknown = await attempt().then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(MockOptionsError);
      expect((error as Error).message).toMatch(
        /, with no user or password in it \(fetch refuses them too\); got one that has them, not shown\. Send a key as the Authorization header/,
      );
      expect((error as Error).message).not.toContain('sk-secret');
    }
    // One that is no URL at all is quoted, its user and password hidden.
    await expect(mock.request('http://user:sk-secret@[::1/v1/pets')).rejects.toThrow(
      '; got "http://***@[::1/v1/pets", which is not a URL.',
    );
    expect(mock.journal).toEqual([]);
  });
});

describe('mock.request given a signal', () => {
  it('rejects as fetch does when the signal aborts during a delay, rather than answering 200 early', async () => {
    const mock = createMock();
    const headers = { ...auth.headers, prefer: 'delay=2000' };
    const started = Date.now();
    await expect(
      mock.request('/v1/pets?limit=1', { headers, signal: AbortSignal.timeout(50) }),
    ).rejects.toMatchObject({
      name: 'TimeoutError',
    });
    expect(Date.now() - started).toBeLessThan(1_500);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(
      mock.request('/v1/pets?limit=1', { headers, signal: controller.signal }),
    ).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('sends nothing when the signal is aborted already, as fetch: no pet created, nothing journaled', async () => {
    const mock = createMock();
    const controller = new AbortController();
    controller.abort();
    const init = {
      method: 'POST',
      headers: { ...auth.headers, 'content-type': 'application/json' },
      body: '{"name":"Rex","categoryId":1}',
      signal: controller.signal,
    };
    await expect(mock.request('/v1/pets', init)).rejects.toMatchObject({ name: 'AbortError' });
    expect(mock.journal).toEqual([]);
    expect(await (await mock.request('/v1/pets/51', auth)).json()).toMatchObject({ code: 'not_found' });
  });
});

describe('mock.handle', () => {
  it('takes a Request, and a URL string or URL as a GET of it', async () => {
    const mock = createMock();
    expect((await mock.handle(new Request('http://localhost/v1/pets', auth))).status).toBe(200);
    for (const target of ['http://localhost/v1/pets', '/v1/pets', new URL('http://localhost/v1/pets')]) {
      const res = await mock.handle(target as never);
      expect(res.status, String(target)).toBe(401); // no key: a GET of it, as fetch(url) sends
      expect(await res.json()).toMatchObject({ code: 'missing_api_key' });
    }
  });

  it('refuses a RequestInit where its context goes, and anything but a Request, URL or string', async () => {
    const mock = createMock();
    await expect(mock.handle('/v1/pets' as never, auth as never)).rejects.toThrow(
      new MockOptionsError(
        "mock.handle's second argument is its context, { clientAddress }; got headers. To send a request with headers, a method or a body: mock.handle(new Request(url, init)), or mock.request(url, init).",
      ),
    );
    await expect(mock.handle(undefined as never)).rejects.toThrow(
      new MockOptionsError(
        "mock.handle takes a Request (or a URL, 'http://localhost/v1/pets', for a GET of it); got undefined.",
      ),
    );
  });

  it('refuses a clientAddress that is not text, where it counted the caller under a key no client has', async () => {
    const mock = createMock();
    const request = new Request('http://localhost/v1/pets');
    await expect(mock.handle(request, { clientAddress: 5 as never })).rejects.toThrow(
      new MockOptionsError(
        "mock.handle's context.clientAddress is the client's address as text ('203.0.113.7'); got a number.",
      ),
    );
    // Text, or none, is served: the anonymous window of that address.
    const answered = await mock.handle(request, { clientAddress: '203.0.113.7' });
    expect(answered.status).toBe(401);
    expect(answered.headers.get('x-ratelimit-remaining')).toBe('59');
    expect(mock.journal).toHaveLength(1);
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { KeysFileError } from './keys.js';
import { loadKeysFile } from './keys-file.js';
import { createMock } from './mock.js';
import { MockOptionsError } from './options.js';
import { checkedRequest, withKey } from './test-helpers.js';

const NOW = Date.UTC(2030, 0, 1, 12, 0, 30);
const fresh = () => createMock({ clock: () => NOW });
const KEY = 'demo-free';

describe('Prefer: code', () => {
  it('forces a documented 401 even with a valid key, and says so', async () => {
    const res = await checkedRequest(fresh(), '/v1/pets', withKey(KEY, { headers: { prefer: 'code=401' } }));
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ code: 'invalid_api_key', status: 401 });
    expect(res.headers.get('preference-applied')).toBe('code=401');
    expect(res.headers.get('www-authenticate')).toContain('Bearer realm="pets"');
  });
  it('forces 401 missing_api_key, with the plain challenge, when no key is sent', async () => {
    const res = await checkedRequest(fresh(), '/v1/pets', { headers: { prefer: 'code=401' } });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ code: 'missing_api_key', status: 401 });
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="pets"');
  });
  it('forces a 429 with Retry-After and Remaining 0', async () => {
    const res = await checkedRequest(fresh(), '/v1/pets', withKey(KEY, { headers: { prefer: 'code=429' } }));
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('30');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
  });
  it('forces 404 on getPet and 500 anywhere', async () => {
    const mock = fresh();
    const missing = await checkedRequest(
      mock,
      '/v1/pets/1',
      withKey(KEY, { headers: { prefer: 'code=404' } }),
    );
    expect(missing.json).toMatchObject({ code: 'not_found', status: 404 });
    const failed = await checkedRequest(mock, '/v1/pets', withKey(KEY, { headers: { prefer: 'code=500' } }));
    expect(failed.json).toMatchObject({ code: 'internal_error', status: 500 });
  });
  it('ignores a code the operation does not document (RFC 7240)', async () => {
    const res = await checkedRequest(fresh(), '/v1/pets', withKey(KEY, { headers: { prefer: 'code=404' } }));
    expect(res.status).toBe(200);
    expect(res.headers.get('preference-applied')).toBeNull();
  });
  it('never answers 500 unless forced', async () => {
    const res = await checkedRequest(
      fresh(),
      '/v1/pets',
      withKey(KEY, { headers: { prefer: 'code=abc, foo' } }),
    );
    expect(res.status).toBe(200);
  });
  it('counts a forced response against the rate limit', async () => {
    const mock = fresh();
    await checkedRequest(mock, '/v1/pets', withKey(KEY, { headers: { prefer: 'code=500' } }));
    const res = await checkedRequest(mock, '/v1/pets', withKey(KEY));
    expect(res.headers.get('x-ratelimit-remaining')).toBe('58');
  });
});

describe('delays', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  it.each(['60000', '99999999999999999999999'])(
    'waits Prefer: delay=%s capped at 10 s, however many digits it has',
    async (ms) => {
      vi.useFakeTimers({ toFake: ['setTimeout'] });
      const mock = fresh();
      let done = false;
      const pending = mock
        .request('/v1/pets', withKey(KEY, { headers: { prefer: `delay=${ms}` } }))
        .then((r) => {
          done = true;
          return r;
        });
      await vi.advanceTimersByTimeAsync(9_999);
      expect(done).toBe(false);
      expect(mock.inFlight).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      const res = await pending;
      expect(res.headers.get('preference-applied')).toBe('delay=10000');
      expect(mock.inFlight).toBe(0);
    },
  );
  it('ends the wait of a request its caller aborted (MSW, mock.handle): nothing left in flight', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const mock = fresh();
    const leaving = new AbortController();
    const pending = mock.request(
      '/v1/pets',
      withKey(KEY, { headers: { prefer: 'delay=10000' }, signal: leaving.signal }),
    );
    await vi.advanceTimersByTimeAsync(100);
    expect(mock.inFlight).toBe(1);
    leaving.abort();
    await pending.catch(() => undefined);
    expect(mock.inFlight).toBe(0);
  });
  it('adds the latency option to every answer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const mock = createMock({ clock: () => NOW, latency: 200 });
    let done = false;
    const pending = mock.request('/v1/nope').then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(199);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await pending;
    expect(done).toBe(true);
  });
  it('draws a latency range from the injected random source', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const draws = [0, 0.999, 0.5];
    const mock = createMock({
      clock: () => NOW,
      latency: { min: 100, max: 200 },
      random: () => draws.shift() ?? 0,
    });
    for (const expected of [100, 200, 150]) {
      let done = false;
      const pending = mock.request('/v1/nope').then(() => {
        done = true;
      });
      await vi.advanceTimersByTimeAsync(expected - 1);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await pending;
      expect(done).toBe(true);
    }
  });
});

describe('control API, journal and reset', () => {
  it('records requests in the journal and serves it, health and reset', async () => {
    const mock = fresh();
    await checkedRequest(mock, '/v1/pets', withKey(KEY, { json: { name: 'New', categoryId: 1 } }));
    await checkedRequest(mock, '/v1/pets/51?x=1', withKey(KEY));
    expect(mock.journal.map((e) => [e.method, e.path, e.operationId, e.status])).toEqual([
      ['POST', '/v1/pets', 'createPet', 201],
      ['GET', '/v1/pets/51?x=1', 'getPet', 200],
    ]);
    const journal = await checkedRequest(mock, '/__petkit/requests');
    expect(journal.json).toEqual({ entries: mock.journal, total: 2, next: null, dropped: 0 });
    expect((await checkedRequest(mock, '/__petkit/health')).json).toEqual({
      status: 'ok',
      pets: 51,
      inFlight: 0,
      rateLimitBuckets: 1,
    });
    const reset = await checkedRequest(mock, '/__petkit/reset', { method: 'POST' });
    expect(reset.json).toEqual({ status: 'reset', pets: 50 });
    expect(mock.journal).toEqual([]);
    expect((await checkedRequest(mock, '/v1/pets/51', withKey(KEY))).status).toBe(404);
    expect((await checkedRequest(mock, '/v1/pets', withKey(KEY))).headers.get('x-ratelimit-remaining')).toBe(
      '58',
    );
  });
  it('answers 405 and 404 on the control API', async () => {
    const mock = fresh();
    const wrong = await checkedRequest(mock, '/__petkit/reset');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST, OPTIONS');
    expect((await checkedRequest(mock, '/__petkit/nope')).status).toBe(404);
  });
});

describe('data', () => {
  it('gives the same pets for the same seed, other pets for another', async () => {
    const list = async (seed: number) =>
      (await checkedRequest(createMock({ seed, clock: () => NOW }), '/v1/pets?limit=100', withKey(KEY))).text;
    expect(await list(42)).toBe(await list(42));
    expect(await list(7)).not.toBe(await list(42));
  });
  it('seeds --pets pets with plausible names, categories and statuses', async () => {
    const pets = (
      await checkedRequest(createMock({ pets: 7, clock: () => NOW }), '/v1/pets?limit=100', withKey(KEY))
    ).json as { name: string; status: string }[];
    expect(pets).toHaveLength(7);
    expect(new Set(pets.map((p) => p.name)).size).toBeGreaterThan(3);
  });
  it('keeps two mocks apart', async () => {
    const a = fresh();
    const b = fresh();
    await checkedRequest(a, '/v1/pets', withKey(KEY, { json: { name: 'Only in A', categoryId: 1 } }));
    expect((await checkedRequest(b, '/v1/pets/51', withKey(KEY))).status).toBe(404);
    expect((await checkedRequest(b, '/v1/pets', withKey(KEY))).headers.get('x-ratelimit-remaining')).toBe(
      '58', // b counted only its own two requests,
    );
  });
});

describe('options and the keys file', () => {
  it('normalises options with their defaults', () => {
    const { options } = createMock();
    expect(options).toMatchObject({ seed: 42, pets: 50, maxPets: 100_000, latency: { min: 0, max: 0 } });
    expect(options.keys.keys.map((k) => k.key)).toEqual([
      'demo-free',
      'demo-pro',
      'demo-business',
      'demo-enterprise',
    ]);
  });
  it('refuses options out of range with a named error', () => {
    expect(() => createMock({ pets: 10, maxPets: 5 })).toThrow(MockOptionsError);
    expect(() => createMock({ latency: { min: 5, max: 1 } })).toThrow(/latency.max/);
  });
  it('loads a keys file and names the file and the fault when it is wrong', () => {
    const dir = mkdtempSync(join(tmpdir(), 'petkit-keys-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    expect(loadKeysFile(file('ok.json', '{"keys":[{"key":"k1","plan":"pro"}]}'))).toEqual({
      keys: [{ key: 'k1', plan: 'pro' }],
    });
    expect(
      loadKeysFile(
        file('anon.json', '{"keys":[{"key":"k1","plan":"pro"}],"anonymous":{"perMinute":5,"perDay":9}}'),
      ),
    ).toEqual({ keys: [{ key: 'k1', plan: 'pro' }], anonymous: { perMinute: 5, perDay: 9 } });
    const cases: [string, RegExp][] = [
      ['{"keys":[],"anonymous":{"perMinute":5}}', /anonymous must be an object with positive integers/],
      ['{"keys":[],"anonymous":{"perMinute":5,"perDay":0}}', /anonymous must be an object/],
      [
        '{"keys":[],"anonymous":{"perMinute":5,"perDay":9,"ban":1}}',
        /anonymous has an unknown property "ban"/,
      ],
      ['{"keys":[],"anon":{}}', /unknown property "anon"/],
      ['{"keys":', /not valid JSON/],
      ['{"keys":[{"key":"k","plan":"gold"}]}', /keys\[0\]\.plan must be one of/],
      ['{"keys":[{"key":"k","plan":"enterprise"}]}', /perMinute is required for the enterprise plan/],
      [
        '{"keys":[{"key":"k","plan":"free"},{"key":"k2","plan":"pro"},{"key":"k","plan":"pro"}]}',
        /: keys\[2\] repeats the key of keys\[0\]\.$/,
      ],
      ['{"keys":[{"key":"k","plan":"free","perDay":-1}]}', /perDay must be a positive integer/],
      ['[]', /"keys" array/],
    ];
    cases.forEach(([text, fault], i) => {
      const path = file(`bad${i}.json`, text);
      expect(() => loadKeysFile(path)).toThrow(KeysFileError);
      expect(() => loadKeysFile(path)).toThrow(fault);
      expect(() => loadKeysFile(path)).toThrow(path);
    });
    expect(() => loadKeysFile(join(dir, 'missing.json'))).toThrow(/missing\.json: no such file/);
  });
});

import { describe, expect, it } from 'vitest';
import { createMock } from './mock.js';
import { checkedRequest, checkResponse, withKey } from './test-helpers.js';

// 2030-01-01T12:00:30Z: mid-minute, so the minute window ends at 12:01:00.
const START = Date.UTC(2030, 0, 1, 12, 0, 30);
const MINUTE_END = Date.UTC(2030, 0, 1, 12, 1, 0);

function clocked() {
  const clock = { now: START };
  return { clock, mock: createMock({ clock: () => clock.now }) };
}

describe('rate limits', () => {
  it('lets 60 requests a minute through on demo-free and answers the 61st 429 with Retry-After', async () => {
    const { mock } = clocked();
    for (let i = 1; i <= 60; i += 1) {
      const res = await checkedRequest(mock, '/v1/pets?limit=1', withKey('demo-free'));
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(60 - i));
    }
    const limited = await checkedRequest(mock, '/v1/pets?limit=1', withKey('demo-free'));
    expect(limited.status).toBe(429);
    expect(limited.json).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(limited.headers.get('retry-after')).toBe('30');
    expect(limited.headers.get('x-ratelimit-limit')).toBe('60');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('x-ratelimit-reset')).toBe(String(MINUTE_END / 1000));
  });
  it('resets the minute window on time', async () => {
    const { mock, clock } = clocked();
    for (let i = 0; i < 61; i += 1) await checkedRequest(mock, '/v1/pets?limit=1', withKey('demo-free'));
    clock.now = MINUTE_END - 1;
    expect((await checkedRequest(mock, '/v1/pets?limit=1', withKey('demo-free'))).status).toBe(429);
    clock.now = MINUTE_END;
    const res = await checkedRequest(mock, '/v1/pets?limit=1', withKey('demo-free'));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('59');
  });
  it('binds on the day window when it is the tighter one', async () => {
    const clock = { now: START };
    const keys = { keys: [{ key: 'tiny', plan: 'enterprise' as const, perMinute: 100, perDay: 5 }] };
    const mock = createMock({ clock: () => clock.now, keys });
    for (let i = 0; i < 5; i += 1) {
      const res = await checkedRequest(mock, '/v1/pets?limit=1', withKey('tiny'));
      expect(res.headers.get('x-ratelimit-limit')).toBe('5');
    }
    clock.now += 5 * 60_000;
    const limited = await checkedRequest(mock, '/v1/pets?limit=1', withKey('tiny'));
    expect(limited.status).toBe(429);
    const dayEnd = Date.UTC(2030, 0, 2);
    expect(limited.headers.get('x-ratelimit-reset')).toBe(String(dayEnd / 1000));
    expect(limited.headers.get('retry-after')).toBe(String((dayEnd - clock.now) / 1000));
    clock.now = dayEnd;
    expect((await checkedRequest(mock, '/v1/pets?limit=1', withKey('tiny'))).status).toBe(200);
  });
  it('bans a key for 5 minutes after more than 10 requests while limited, then lets it back', async () => {
    const { mock, clock } = clocked();
    for (let i = 0; i < 60; i += 1) await checkedRequest(mock, '/v1/pets?limit=1', withKey('demo-free'));
    for (let i = 0; i < 10; i += 1) {
      const res = await checkedRequest(mock, '/v1/pets?limit=1', withKey('demo-free'));
      expect((res.json as { code: string }).code).toBe('rate_limited');
    }
    const banned = await checkedRequest(mock, '/v1/pets?limit=1', withKey('demo-free'));
    expect(banned.json).toMatchObject({ code: 'api_key_banned', status: 429 });
    expect(banned.headers.get('retry-after')).toBe('300');
    clock.now = START + 4 * 60_000;
    const still = await checkedRequest(mock, '/v1/pets?limit=1', withKey('demo-free'));
    expect(still.json).toMatchObject({ code: 'api_key_banned' });
    expect(still.headers.get('retry-after')).toBe('60');
    clock.now = START + 5 * 60_000;
    expect((await checkedRequest(mock, '/v1/pets?limit=1', withKey('demo-free'))).status).toBe(200);
  });
  it('counts keys apart: one key limited does not limit another', async () => {
    const { mock } = clocked();
    for (let i = 0; i < 61; i += 1) await checkedRequest(mock, '/v1/pets?limit=1', withKey('demo-free'));
    const pro = await checkedRequest(mock, '/v1/pets?limit=1', withKey('demo-pro'));
    expect(pro.status).toBe(200);
    expect(pro.headers.get('x-ratelimit-limit')).toBe('300');
  });
  it('never lets more than the limit through under concurrent requests', async () => {
    const { mock } = clocked();
    const all = await Promise.all(
      Array.from({ length: 100 }, () =>
        checkedRequest(mock, '/v1/pets', withKey('demo-free', { json: { name: 'R', categoryId: 1 } })),
      ),
    );
    expect(all.filter((r) => r.status === 201)).toHaveLength(60);
    expect(all.filter((r) => r.status === 429)).toHaveLength(40);
  });
  it('counts requests without a valid key per client address, with Free limits', async () => {
    const { mock } = clocked();
    const from = (clientAddress: string, key?: string) =>
      mock.handle(new Request('http://x/v1/pets', key === undefined ? {} : withKey(key)), { clientAddress });
    for (let i = 1; i <= 60; i += 1) {
      const res = await from('10.0.0.1', i % 2 === 0 ? 'guess' : undefined);
      expect(res.status).toBe(401);
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(60 - i));
    }
    expect((await from('10.0.0.1', 'demo-guess')).status).toBe(429);
    const other = await from('10.0.0.2');
    expect(other.status).toBe(401);
    expect(other.headers.get('x-ratelimit-remaining')).toBe('59');
    expect((await from('10.0.0.1', 'demo-free')).status).toBe(200);
  });
  it('uses the anonymous limits of the keys file for requests without a valid key', async () => {
    const clock = { now: START };
    const mock = createMock({
      clock: () => clock.now,
      keys: { keys: [{ key: 'k1', plan: 'free' }], anonymous: { perMinute: 3, perDay: 5 } },
    });
    const anonymous = () => checkedRequest(mock, '/v1/pets');
    for (let i = 1; i <= 3; i += 1) {
      const res = await anonymous();
      expect(res.status).toBe(401);
      expect(res.headers.get('x-ratelimit-limit')).toBe('3');
    }
    expect((await anonymous()).status).toBe(429);
    // The key's own Free limits are untouched by the anonymous ones.
    const keyed = await checkedRequest(mock, '/v1/pets', withKey('k1'));
    expect(keyed.headers.get('x-ratelimit-limit')).toBe('60');
    // The day window binds on the 6th request, a minute later.
    clock.now = MINUTE_END;
    for (let i = 1; i <= 2; i += 1) expect((await anonymous()).status).toBe(401);
    const limited = await anonymous();
    expect(limited.status).toBe(429);
    expect(limited.json).toMatchObject({ message: expect.stringMatching(/5 requests per day/) });
  });
  it('uses the enterprise limits of the keys file', async () => {
    const res = await checkedRequest(clocked().mock, '/v1/pets', withKey('demo-enterprise'));
    expect(res.headers.get('x-ratelimit-limit')).toBe('100000');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('99999');
  });

  it('drops the buckets of a flood of addresses once their day is over', async () => {
    const { mock, clock } = clocked();
    const from = async (clientAddress: string) =>
      checkResponse(
        'GET',
        '/v1/pets',
        await mock.handle(new Request('http://x/v1/pets'), { clientAddress }),
        clock.now,
      );
    const buckets = async () =>
      ((await checkedRequest(mock, '/__petkit/health')).json as { rateLimitBuckets: number })
        .rateLimitBuckets;
    for (let i = 0; i < 500; i += 1) expect((await from(`10.1.${i >> 8}.${i & 255}`)).status).toBe(401);
    expect(await buckets()).toBe(500);
    // 10.9.9.9 floods at 23:58 UTC: limited, never banned.
    clock.now = Date.UTC(2030, 0, 1, 23, 58, 0);
    for (let i = 0; i < 71; i += 1) await from('10.9.9.9');
    expect((await from('10.9.9.9')).json).toMatchObject({ code: 'rate_limited' });
    expect(await buckets()).toBe(501);
    // The first request of the new day sweeps: only the new bucket is left.
    clock.now = Date.UTC(2030, 0, 2, 0, 0, 30);
    expect((await from('10.2.0.1')).headers.get('x-ratelimit-remaining')).toBe('59');
    expect(await buckets()).toBe(1);
    // A swept address starts afresh.
    expect((await from('10.9.9.9')).headers.get('x-ratelimit-remaining')).toBe('59');
    expect(await buckets()).toBe(2);
  });
  it('never bans an address that sends no valid key: once the window ends it gets its 401 again', async () => {
    const { mock, clock } = clocked();
    const from = async (key?: string) =>
      checkResponse(
        'GET',
        '/v1/pets',
        await mock.handle(new Request('http://x/v1/pets', key === undefined ? {} : withKey(key)), {
          clientAddress: '10.0.0.7',
        }),
        clock.now,
      );
    for (let i = 0; i < 60; i += 1) expect((await from()).status).toBe(401);
    // Far more than BAN_AFTER requests while limited: each is a 429 that says why, none a ban.
    for (let i = 0; i < 30; i += 1) {
      const limited = await from(i % 2 === 0 ? undefined : 'wrong-key');
      expect(limited.status).toBe(429);
      expect(limited.json).toMatchObject({
        code: 'rate_limited',
        message:
          'No valid API key was sent, and requests without one are limited per address: 60 requests per minute from this address. Send "Authorization: Bearer <key>", or retry in 30 s.',
      });
    }
    clock.now = MINUTE_END;
    const wrong = await from('wrong-key');
    expect(wrong.status).toBe(401);
    expect(wrong.json).toMatchObject({ code: 'invalid_api_key' });
    expect((await from()).json).toMatchObject({ code: 'missing_api_key' });
  });
});

// The control API's clock and limits over mock.request, with the real time injected.
import { describe, expect, it } from 'vitest';
import { createMock, type Mock } from './mock.js';
import { checkedRequest, withKey } from './test-helpers.js';

const START = Date.parse('2030-01-01T12:00:30Z');

function mockAt() {
  const real = { now: START };
  const keys = {
    keys: [
      { key: 'demo-free', plan: 'free' as const },
      { key: 'sk_live_4f9a8b7c6d5e4f3a2b1c', plan: 'pro' as const },
    ],
  };
  return { real, mock: createMock({ keys, clock: () => real.now }) };
}

const move = (mock: Mock, change: unknown) =>
  checkedRequest(mock, '/__petkit/clock', {
    method: 'POST',
    body: JSON.stringify(change),
    headers: { 'content-type': 'application/json' },
  });

describe('/__petkit/clock', () => {
  it('reads the mock’s time, real time until moved', async () => {
    const { mock } = mockAt();
    const read = await checkedRequest(mock, '/__petkit/clock');
    expect([read.status, read.json]).toEqual([
      200,
      { now: '2030-01-01T12:00:30.000Z', frozen: false, offsetSeconds: 0 },
    ]);
  });

  it('advances: a spent minute window is a new one, and the API’s headers say the new time', async () => {
    const { mock } = mockAt();
    for (let i = 0; i < 60; i += 1) await checkedRequest(mock, '/v1/pets?limit=1', withKey('demo-free'));
    expect((await checkedRequest(mock, '/v1/pets?limit=1', withKey('demo-free'))).status).toBe(429);
    const moved = await move(mock, { advanceSeconds: 30 });
    expect(moved.json).toEqual({ now: '2030-01-01T12:01:00.000Z', frozen: false, offsetSeconds: 30 });
    const next = await checkedRequest(mock, '/v1/pets?limit=1', withKey('demo-free'));
    expect(next.status).toBe(200);
    expect(next.headers.get('x-ratelimit-reset')).toBe(String(Date.parse('2030-01-01T12:02:00Z') / 1000));
    expect(mock.clock.now()).toBe(Date.parse('2030-01-01T12:01:00Z'));
  });

  it('freezes: real time passes, the mock’s does not, until unfrozen', async () => {
    const { mock, real } = mockAt();
    expect((await move(mock, { frozen: true })).json).toMatchObject({ frozen: true });
    real.now += 90_000;
    expect((await checkedRequest(mock, '/__petkit/clock')).json).toEqual({
      now: '2030-01-01T12:00:30.000Z',
      frozen: true,
      offsetSeconds: -90,
    });
    await move(mock, { frozen: false });
    real.now += 1_000;
    expect((await checkedRequest(mock, '/__petkit/clock')).json).toMatchObject({
      now: '2030-01-01T12:00:31.000Z',
    });
  });

  it('refuses to go back before a counted window: 409 clock_refused, saying why and what to do', async () => {
    const { mock } = mockAt();
    await checkedRequest(mock, '/v1/pets?limit=1', withKey('demo-free'));
    const refused = await move(mock, { set: '2030-01-01T11:00:00Z' });
    expect(refused.status).toBe(409);
    expect(refused.json).toEqual({
      code: 'clock_refused',
      message:
        'The clock cannot go back to 2030-01-01T11:00:00.000Z: requests were counted in the minute window from 2030-01-01T12:00:00.000Z, and a window never goes back. Set 2030-01-01T12:00:00.000Z or later, or POST /__petkit/reset (empties the counts and returns to real time).',
      status: 409,
    });
    expect((await move(mock, { set: '2030-01-01T12:00:00Z' })).status).toBe(200);
    // A reset empties the counts and returns to real time: then any time may be set.
    await checkedRequest(mock, '/__petkit/reset', { method: 'POST' });
    expect((await checkedRequest(mock, '/__petkit/clock')).json).toMatchObject({ offsetSeconds: 0 });
    expect((await move(mock, { set: '2030-01-01T11:00:00Z' })).status).toBe(200);
  });

  it('refuses a change that is not one: 400 validation_failed with details', async () => {
    const { mock } = mockAt();
    const cases: [unknown, string][] = [
      [{}, 'Invalid clock change: must NOT have fewer than 1 properties; got {}.'],
      [{ advanceSeconds: 0 }, 'Invalid clock change: /advanceSeconds must be >= 1; got 0.'],
      [{ set: 'tomorrow' }, 'Invalid clock change: /set must match format "date-time"; got "tomorrow".'],
      [{ rewind: 5 }, 'Invalid clock change: /rewind is not an allowed property.'],
      [
        { advanceSeconds: 5, set: '2030-01-01T00:00:00Z' },
        'Invalid clock change: advanceSeconds and set together: give one (frozen may go with either).',
      ],
    ];
    for (const [change, message] of cases) {
      const refused = await move(mock, change);
      expect([refused.status, (refused.json as { message: string }).message], JSON.stringify(change)).toEqual(
        [400, message],
      );
    }
    const notJson = await checkedRequest(mock, '/__petkit/clock', { method: 'POST', body: 'x' });
    expect(notJson.status).toBe(415);
    expect((await checkedRequest(mock, '/__petkit/clock', { method: 'PUT' })).headers.get('allow')).toBe(
      'GET, HEAD, POST, OPTIONS',
    );
  });

  it('is what mock.clock does in process', async () => {
    const { mock } = mockAt();
    expect(await mock.clock.change({ advanceSeconds: 3600 })).toMatchObject({ offsetSeconds: 3600 });
    expect(await mock.clock.read()).toMatchObject({ now: '2030-01-01T13:00:30.000Z' });
    await expect(mock.clock.change({ advanceSeconds: -1 })).rejects.toMatchObject({
      code: 'validation_failed',
    });
  });
});

describe('/__petkit/limits', () => {
  it('shows each key’s windows and ban at the mock’s time, counting nothing, a private key masked', async () => {
    const { mock } = mockAt();
    for (let i = 0; i < 72; i += 1) await checkedRequest(mock, '/v1/pets?limit=1', withKey('demo-free'));
    const limits = await checkedRequest(mock, '/__petkit/limits');
    expect(limits.status).toBe(200);
    expect(limits.json).toEqual({
      now: '2030-01-01T12:00:30.000Z',
      keys: [
        {
          key: 'demo-free',
          plan: 'free',
          minute: { limit: 60, remaining: 0, reset: Date.parse('2030-01-01T12:01:00Z') / 1000 },
          day: { limit: 1000, remaining: 940, reset: Date.parse('2030-01-02T00:00:00Z') / 1000 },
          bannedUntil: '2030-01-01T12:05:30.000Z',
        },
        {
          key: 'sk_live…',
          plan: 'pro',
          minute: { limit: 300, remaining: 300, reset: Date.parse('2030-01-01T12:01:00Z') / 1000 },
          day: { limit: 10000, remaining: 10000, reset: Date.parse('2030-01-02T00:00:00Z') / 1000 },
          bannedUntil: null,
        },
      ],
    });
    expect((await checkedRequest(mock, '/__petkit/limits')).json).toEqual(limits.json);
  });
});

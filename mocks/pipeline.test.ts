// The request path with rules and a moved clock, over mock.request: a rule's answer is as complete as
// any other, a fault is a network error in process, and the mock's time is one per request.
import { describe, expect, it } from 'vitest';
import { callFromRequest } from './call.js';
import type { NetworkFault } from './control-types.js';
import type { ControlErrorCode } from './controls.js';
import { ERRORS, type ErrorCode } from './errors.js';
import { memoryState } from './memory-state.js';
import { answerSoon, createMock } from './mock.js';
import { MINUTE_MS } from './rate-limiter.js';
import { type MockState, type RateDecision, StaleControlError, StateUnavailableError } from './state.js';
import { checkedRequest, storedRule, withKey } from './test-helpers.js';

const NOW = Date.UTC(2030, 0, 1, 12, 0, 30);
const FREE = 'demo-free';

/** A mock on its own memory state, whose control store the test arms directly. */
function ruled(options: Parameters<typeof createMock>[0] = {}) {
  const state = memoryState(1000);
  const mock = createMock({ clock: () => NOW, state, ...options });
  return { mock, state };
}

const rule = storedRule;

const OPERATIONS = [
  { id: 'listPets', path: '/v1/pets', init: withKey(FREE) },
  { id: 'createPet', path: '/v1/pets', init: withKey(FREE, { json: { name: 'Rex', species: 'dog' } }) },
  { id: 'getPet', path: '/v1/pets/1', init: withKey(FREE) },
] as const;

describe("a rule's status", () => {
  for (const operation of OPERATIONS) {
    for (const status of [500, 429, 401]) {
      it(`is a complete ${status} on ${operation.id}: Error body, rate-limit headers, and what the status carries`, async () => {
        const { mock, state } = ruled();
        state.control.arm(rule({ operation: operation.id, respond: { status } }));
        const res = await checkedRequest(mock, operation.path, operation.init);
        expect(res.status).toBe(status);
        expect(res.json).toMatchObject({ status, message: expect.stringContaining('(Forced by rule r1.)') });
        expect(res.headers.get('x-ratelimit-limit')).toBe('60');
        const reset = (Math.floor(NOW / MINUTE_MS) + 1) * 60;
        expect(res.headers.get('x-ratelimit-reset')).toBe(String(reset));
        expect(res.headers.get('x-ratelimit-remaining')).toBe(status === 429 ? '0' : '59');
        expect(res.headers.get('retry-after')).toBe(status === 429 ? String(reset - NOW / 1000) : null);
        expect(res.headers.get('www-authenticate')).toBe(
          status === 401 ? 'Bearer realm="pets", error="invalid_token"' : null,
        );
        expect(res.headers.get('deprecation')).toBe(operation.id === 'getPet' ? '@1735689600' : null);
        expect(res.headers.get('preference-applied')).toBeNull();
        expect(mock.journal.at(-1)).toMatchObject({
          status,
          operationId: operation.id,
          rule: 'r1',
          fault: null,
          forced: false,
        });
      });
    }
  }

  it('beats a real 429: the rule answers, the window still says none remain', async () => {
    const { mock, state } = ruled();
    for (let i = 0; i < 60; i += 1) await mock.request('/v1/pets', withKey(FREE));
    expect((await mock.request('/v1/pets', withKey(FREE))).status).toBe(429);
    state.control.arm(rule({ operation: 'listPets', respond: { status: 500 } }));
    const res = await checkedRequest(mock, '/v1/pets', withKey(FREE));
    expect(res.status).toBe(500);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(mock.journal.at(-1)?.rule).toBe('r1');
  });

  it('beats Prefer: code=, and says it was the rule', async () => {
    const { mock, state } = ruled();
    state.control.arm(rule({ operation: 'listPets', respond: { status: 503 } }));
    const res = await checkedRequest(mock, '/v1/pets', withKey(FREE, { headers: { prefer: 'code=500' } }));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(mock.journal.at(-1)).toMatchObject({ rule: 'r1', forced: false, code: 'state_unavailable' });
  });

  it('matches its key only: another key is answered as usual', async () => {
    const { mock, state } = ruled();
    state.control.arm(rule({ key: 'demo-pro', respond: { status: 500 } }));
    expect((await mock.request('/v1/pets', withKey(FREE))).status).toBe(200);
    expect((await mock.request('/v1/pets', withKey('demo-pro'))).status).toBe(500);
    expect(mock.journal.map((e) => e.rule)).toEqual([null, 'r1']);
  });

  it('fires `times` times, then the answers are the real ones again', async () => {
    const { mock, state } = ruled();
    state.control.arm(rule({ operation: 'getPet', times: 2, respond: { status: 500 } }));
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await mock.request('/v1/pets/1', withKey(FREE))).status);
    expect(statuses).toEqual([500, 500, 200, 200]);
  });

  it('delays by its delayMs, and the journal says so', async () => {
    const { mock, state } = ruled();
    state.control.arm(rule({ respond: { delayMs: 30 } }));
    const started = performance.now();
    expect((await mock.request('/v1/pets', withKey(FREE))).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
    expect(mock.journal.at(-1)).toMatchObject({ delayMs: 30, rule: 'r1' });
  });
});

describe("a rule's fault", () => {
  const FAULTS: NetworkFault[] = ['reset', 'close', 'malformed', 'truncated', 'hang'];
  it.each(FAULTS)(
    '%s is a network error in process (Response.error()), journaled with its rule',
    async (fault) => {
      const { mock, state } = ruled();
      state.control.arm(rule({ operation: 'listPets', respond: { fault } }));
      const res = await mock.request('/v1/pets', withKey(FREE));
      expect(res.type).toBe('error');
      expect(res.status).toBe(0);
      expect(mock.journal.at(-1)).toMatchObject({
        status: fault === 'truncated' ? 200 : 0,
        fault,
        rule: 'r1',
        operationId: 'listPets',
      });
    },
  );

  it('makes fetch through handle reject as a network error does', async () => {
    const { mock, state } = ruled();
    state.control.arm(rule({ respond: { fault: 'reset' } }));
    await expect(fetchVia(mock.handle, 'http://petkit.local/v1/pets')).rejects.toThrow(TypeError);
  });

  it('is logged as "0 fault reset (rule r1)"', async () => {
    const lines: string[] = [];
    const { mock, state } = ruled({ logger: { info: (line) => lines.push(line), error: () => undefined } });
    state.control.arm(rule({ respond: { fault: 'reset' } }));
    await mock.request('/v1/pets', withKey(FREE));
    expect(lines).toEqual([expect.stringMatching(/^GET \/v1\/pets 0 fault reset \(rule r1\) \d+ms$/)]);
  });
});

/** What a fetch does with a Response.error(): rejects with a TypeError. */
async function fetchVia(handle: (request: Request) => Promise<Response>, url: string): Promise<Response> {
  const response = await handle(new Request(url, withKey(FREE)));
  if (response.type === 'error') throw new TypeError('fetch failed');
  return response;
}

describe("the mock's clock", () => {
  it('moves the Date header, X-RateLimit-Reset, the journal time and mock.clock.now() together', async () => {
    const { mock, state } = ruled();
    const hour = 3_600_000;
    state.control.setClock({ offsetMs: hour, frozenAt: null }, state.control.last.version);
    const res = await checkedRequest(mock, '/v1/pets', withKey(FREE));
    expect(res.headers.get('date')).toBe(new Date(NOW + hour).toUTCString());
    expect(res.headers.get('x-ratelimit-reset')).toBe(
      String((Math.floor((NOW + hour) / MINUTE_MS) + 1) * 60),
    );
    expect(mock.journal.at(-1)?.time).toBe(NOW + hour);
    expect(mock.clock.now()).toBe(NOW + hour);
  });

  it('frozen, gives every request the same instant while real time goes on', async () => {
    let real = NOW;
    const state = memoryState(1000);
    const mock = createMock({ clock: () => real, state });
    const frozen = NOW - 10 * MINUTE_MS;
    state.control.setClock({ offsetMs: 0, frozenAt: frozen }, state.control.last.version);
    await mock.request('/v1/pets', withKey(FREE));
    real += 5 * MINUTE_MS;
    const res = await mock.request('/v1/pets', withKey(FREE));
    expect(res.headers.get('date')).toBe(new Date(frozen).toUTCString());
    expect(res.headers.get('x-ratelimit-remaining')).toBe('58');
    expect(mock.journal.map((e) => e.time)).toEqual([frozen, frozen]);
  });

  it('puts a ban in its own time: a forced 429 waits until the window of the moved clock ends', async () => {
    const { mock, state } = ruled();
    state.control.setClock({ offsetMs: 0, frozenAt: NOW + 50_000 }, state.control.last.version);
    state.control.arm(rule({ respond: { status: 429 } }));
    const res = await mock.request('/v1/pets', withKey(FREE));
    // NOW is 30 s into its minute; 50 s later is 20 s into the next, which ends 40 s after.
    expect(res.headers.get('retry-after')).toBe('40');
  });
});

describe('mock.reset()', () => {
  it('disarms every rule, puts the clock back to real time and numbers rules from r1 again', async () => {
    const { mock, state } = ruled();
    state.control.arm(rule({ respond: { status: 500 } }));
    state.control.arm(rule({ respond: { status: 503 } }));
    state.control.setClock({ offsetMs: 86_400_000, frozenAt: null }, state.control.last.version);
    await mock.reset();
    const res = await mock.request('/v1/pets', withKey(FREE));
    expect(res.status).toBe(200);
    expect(res.headers.get('date')).toBe(new Date(NOW).toUTCString());
    expect(state.control.list()).toEqual([]);
    expect(state.control.arm(rule({ respond: { status: 500 } }))?.id).toBe('r1');
  });
});

describe('a shared control view that went stale', () => {
  /** A state whose limiter refuses the first `stale` takes as counted against an older view. */
  function staleState(stale: number): { state: MockState; takes: number[] } {
    const memory = memoryState(1000);
    const takes: number[] = [];
    const moved = { version: 99, clock: { offsetMs: MINUTE_MS, frozenAt: null }, rules: [] };
    let fresh = false;
    const state: MockState = {
      ...memory,
      limiter: {
        ...memory.limiter,
        take(bucket, limits, now, version): Promise<RateDecision> {
          takes.push(version ?? -1);
          if (takes.length <= stale) return Promise.reject(new StaleControlError('stale'));
          return Promise.resolve(memory.limiter.take(bucket, limits, now));
        },
      },
      control: {
        ...memory.control,
        view: (again) => {
          if (again === true) fresh = true;
          return fresh ? moved : memory.control.view();
        },
        get last() {
          return fresh ? moved : memory.control.last;
        },
      },
    };
    return { state, takes };
  }

  it('is read again and the request counted once, at the time of the fresh view', async () => {
    const { state, takes } = staleState(1);
    const mock = createMock({ clock: () => NOW, state });
    const before = state.control.last.version;
    const res = await mock.request('/v1/pets', withKey(FREE));
    expect(res.status).toBe(200);
    expect(takes).toEqual([before, 99]);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('59');
    expect(mock.journal.at(-1)?.time).toBe(NOW + MINUTE_MS);
  });

  it('answers 503 state_unavailable after 3 tries, counting nothing', async () => {
    const { state, takes } = staleState(3);
    const mock = createMock({ clock: () => NOW, state });
    const res = await checkedRequest(mock, '/v1/pets', withKey(FREE));
    expect(res.status).toBe(503);
    expect(res.json).toMatchObject({ code: 'state_unavailable' });
    expect(takes).toHaveLength(3);
  });
});

describe('the error registry', () => {
  it("holds every code a ControlError may carry, with the control API's status for it", () => {
    const codes: Record<ControlErrorCode, number> = {
      validation_failed: 400,
      rule_not_found: 404,
      too_many_rules: 409,
      clock_refused: 409,
    };
    for (const [code, status] of Object.entries(codes))
      expect(ERRORS[code as ErrorCode]?.status).toBe(status);
  });
});

describe('answering at once', () => {
  const call = (path: string, init: RequestInit = {}) =>
    callFromRequest(new Request(new URL(path, 'http://petkit.local'), init));

  it('gives the reply itself, in the same tick, when the in-memory state answers at once', () => {
    const mock = createMock({ clock: () => NOW });
    const replies = [
      answerSoon(mock, call('/v1/pets?limit=2', withKey(FREE))),
      answerSoon(mock, call('/v1/pets/999', withKey(FREE))),
      answerSoon(mock, call('/v1/pets?limit=0', withKey(FREE))),
      answerSoon(mock, call('/v1/pets')),
      answerSoon(mock, call('/v1/nowhere', withKey(FREE))),
    ];
    expect(replies.map((reply) => (reply instanceof Promise ? 'promise' : reply.status))).toEqual([
      200, 404, 400, 401, 404,
    ]);
    // Journaled at once too, in order.
    expect(mock.journal.map((entry) => entry.status)).toEqual([200, 404, 400, 401, 404]);
    expect(mock.inFlight).toBe(0);
  });

  it('gives a promise of it when something waits: a body to read, a delay, a state that answers later', async () => {
    const mock = createMock({ clock: () => NOW });
    const created = answerSoon(
      mock,
      call('/v1/pets', withKey(FREE, { json: { name: 'Rex', categoryId: 2 } })),
    );
    expect(created).toBeInstanceOf(Promise);
    expect((await created).status).toBe(201);
    const delayed = answerSoon(
      mock,
      call('/v1/pets/1', withKey(FREE, { headers: { prefer: 'wait=0, delay=1' } })),
    );
    expect(delayed).toBeInstanceOf(Promise);
    expect(mock.inFlight).toBe(1);
    expect((await delayed).headers['preference-applied']).toBe('delay=1');
    const memory = memoryState(1000);
    const later: MockState = {
      ...memory,
      store: { ...memory.store, get: (id) => Promise.resolve(memory.store.get(id)) },
    };
    const waiting = answerSoon(
      createMock({ clock: () => NOW, state: later }),
      call('/v1/pets/1', withKey(FREE)),
    );
    expect(waiting).toBeInstanceOf(Promise);
    expect((await waiting).status).toBe(200);
  });

  it('keeps the journal when a reset fails with its state (503: nothing changed)', async () => {
    const memory = memoryState(1000);
    const lost: MockState = {
      ...memory,
      reset: () => Promise.reject(new StateUnavailableError('the database went away')),
    };
    const mock = createMock({
      clock: () => NOW,
      state: lost,
      logger: { info: () => undefined, error: () => undefined },
    });
    await answerSoon(mock, call('/v1/pets/1', withKey(FREE)));
    const reset = await checkedRequest(mock, '/__petkit/reset', { method: 'POST' });
    expect(reset.status).toBe(503);
    // It was emptied before the state's reset failed: the entries, and this outage's, were lost.
    expect(mock.journal.map((entry) => entry.path)).toEqual(['/v1/pets/1']);
  });

  it('answers 503 state_unavailable, with the headers decided so far, when a state throws at once', async () => {
    const memory = memoryState(1000);
    const lost: MockState = {
      ...memory,
      store: {
        ...memory.store,
        get: () => {
          throw new StateUnavailableError('the database went away');
        },
      },
    };
    const mock = createMock({
      clock: () => NOW,
      state: lost,
      logger: { info: () => undefined, error: () => undefined },
    });
    const reply = await answerSoon(mock, call('/v1/pets/1', withKey(FREE)));
    expect(reply.status).toBe(503);
    const text =
      typeof reply.body === 'string' ? reply.body : new TextDecoder().decode(reply.body ?? undefined);
    expect(JSON.parse(text)).toMatchObject({ code: 'state_unavailable', status: 503 });
    expect(mock.inFlight).toBe(0);
    expect(mock.journal.at(-1)?.status).toBe(503);
  });
});

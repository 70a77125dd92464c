// Mock replicas on one database (createMock({ state }) over connectState): they answer as one
// in-memory mock would, reset together, answer 503 state_unavailable while the database is lost and
// recover when it is back.
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BAN_AFTER, BAN_MS, type PetStatus } from '../../openapi/index.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/postgres/database.js';
import type { RuleInput } from '../control-types.js';
import { ControlError } from '../controls.js';
import type { KeysFile } from '../keys.js';
import { createMock, type Mock } from '../mock.js';
import { MockOptionsError } from '../options.js';
import { checkedRequest, withKey } from '../test-helpers.js';
import type { SharedState } from './connect.js';
import { type Replicas, replicasIn } from './test-helpers.js';

const KEYS: KeysFile = {
  keys: [
    { key: 'roomy', plan: 'enterprise', perMinute: 100_000, perDay: 10_000_000 },
    // Requests at the limit: limited within a few requests, banned after ten more.
    { key: 'tight', plan: 'enterprise', perMinute: 2, perDay: 4 },
  ],
  anonymous: { perMinute: 2, perDay: 5 },
};
const START = Date.UTC(2026, 5, 1, 23, 58, 30);

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

/** What a client sees of an answer: status, headers, body. */
async function seen(response: Response): Promise<{ status: number; headers: string[][]; body: string }> {
  return { status: response.status, headers: [...response.headers], body: await response.text() };
}

type Step =
  | { kind: 'create'; key: string; name: string; categoryId: number; status: PetStatus | undefined }
  | { kind: 'list'; key: string; limit: number | undefined; status: PetStatus | undefined }
  | { kind: 'get'; key: string | undefined; id: number }
  | { kind: 'reset' }
  | { kind: 'wait'; ms: number }
  | { kind: 'arm'; rule: RuleInput }
  | { kind: 'switch'; id: number; enabled: boolean }
  | { kind: 'advance'; seconds: number };

/** What a control step's call answered, or the ControlError it rejected with. */
const outcome = (call: Promise<unknown>): Promise<unknown> =>
  call.catch((error: unknown) =>
    error instanceof ControlError ? { code: error.code, message: error.message } : Promise.reject(error),
  );

const key = fc.constantFrom('roomy', 'tight', 'tight', 'tight', 'nobody');
const status = fc.option(fc.constantFrom<PetStatus>('available', 'pending', 'sold'), { nil: undefined });
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record({
      kind: fc.constant('create'),
      key,
      name: fc.string({ minLength: 1, maxLength: 12 }),
      categoryId: fc.integer({ min: 1, max: 9 }),
      status,
    }),
  },
  {
    weight: 10,
    arbitrary: fc.record({
      kind: fc.constant('list'),
      key,
      limit: fc.option(fc.integer({ min: 1, max: 8 }), { nil: undefined }),
      status,
    }),
  },
  {
    weight: 10,
    arbitrary: fc.record({
      kind: fc.constant('get'),
      key: fc.option(key, { nil: undefined }),
      id: fc.integer({ min: 0, max: 12 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reset') }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('wait'),
      ms: fc.oneof(fc.integer({ min: 0, max: 5_000 }), fc.constantFrom(60_000, 90_000, 300_000)),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('arm'),
      rule: fc.record(
        {
          operation: fc.constantFrom('listPets' as const, 'createPet' as const, 'getPet' as const),
          key: fc.constantFrom<string | null>('tight', 'roomy', null),
          times: fc.integer({ min: 1, max: 3 }),
          after: fc.integer({ min: 0, max: 2 }),
          probability: fc.integer({ min: 0, max: 4 }).map((quarters) => quarters / 4),
          respond: fc.constantFrom<RuleInput['respond']>(
            { status: 500 },
            { status: 503 },
            { fault: 'reset' },
          ),
        },
        { requiredKeys: ['operation', 'respond'] },
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('switch'),
      id: fc.integer({ min: 1, max: 4 }),
      enabled: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('advance'), seconds: fc.integer({ min: 1, max: 400 }) }),
  },
) as fc.Arbitrary<Step>;

/** A control step on `mock`, through createMock's rules and clock. */
function controlOf(mock: Mock, s: Extract<Step, { kind: 'arm' | 'switch' | 'advance' }>): Promise<unknown> {
  if (s.kind === 'arm') return outcome(mock.rules.arm(s.rule));
  if (s.kind === 'switch') return outcome(mock.rules.enable(`r${s.id}`, s.enabled));
  return outcome(mock.clock.change({ advanceSeconds: s.seconds }));
}

/** The request a step sends. */
function requestOf(s: Extract<Step, { kind: 'create' | 'list' | 'get' | 'reset' }>): Request {
  const url = new URL('http://petkit.local/v1/pets');
  const headers = new Headers();
  const auth = (k: string | undefined) => {
    if (k !== undefined) headers.set('authorization', `Bearer ${k}`);
  };
  if (s.kind === 'reset') return new Request('http://petkit.local/__petkit/reset', { method: 'POST' });
  if (s.kind === 'create') {
    auth(s.key);
    headers.set('content-type', 'application/json');
    const pet = {
      name: s.name,
      categoryId: s.categoryId,
      ...(s.status === undefined ? {} : { status: s.status }),
    };
    return new Request(url, { method: 'POST', headers, body: JSON.stringify(pet) });
  }
  if (s.kind === 'list') {
    auth(s.key);
    if (s.limit !== undefined) url.searchParams.set('limit', String(s.limit));
    if (s.status !== undefined) url.searchParams.set('status', s.status);
    return new Request(url, { headers });
  }
  auth(s.key);
  return new Request(new URL(`/v1/pets/${s.id}`, url), { headers });
}

describe('two replicas on one database', () => {
  let replicas: Replicas;
  let now = START;
  const clock = () => now;
  let one: Mock;
  let two: Mock;
  beforeAll(async () => {
    replicas = await replicasIn(database);
    const options = { keys: KEYS, clock, pets: 6 };
    one = createMock({ ...options, state: await replicas.connect() });
    two = createMock({ ...options, state: await replicas.connect() });
  });
  afterAll(async () => {
    await replicas?.close();
  });

  it('answer every interleaving of creates, lists, reads, resets, requests at the limit, rules and clock moves as one in-memory mock', async () => {
    let limited = 0;
    let banned = 0;
    let ruled = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.boolean(), step), { minLength: 10, maxLength: 80 }),
        async (steps) => {
          now = START;
          const memory = createMock({ keys: KEYS, clock, pets: 6 });
          await one.reset();
          for (const [viaOne, s] of steps) {
            if (s.kind === 'wait') {
              now += s.ms;
              continue;
            }
            const replica = viaOne ? one : two;
            if (s.kind === 'arm' || s.kind === 'switch' || s.kind === 'advance') {
              expect(await controlOf(replica, s)).toEqual(await controlOf(memory, s));
              continue;
            }
            const context = { clientAddress: '10.0.0.7' };
            const expected = await seen(await memory.handle(requestOf(s), context));
            const actual = await seen(await replica.handle(requestOf(s), context));
            expect(actual).toEqual(expected);
            if (expected.status === 429) {
              if (expected.body.includes('api_key_banned')) banned += 1;
              else limited += 1;
            }
          }
          ruled += (await memory.rules.list()).reduce((sum, rule) => sum + rule.fired, 0);
        },
      ),
      { seed: 1313, numRuns: 40 },
    );
    // The runs did reach the limits, the ban and rules that fired.
    expect(limited).toBeGreaterThan(0);
    expect(banned).toBeGreaterThan(0);
    expect(ruled).toBeGreaterThan(0);
  });

  it('reset through one replica empties the journal of every replica', async () => {
    await one.request('/v1/pets', { headers: { authorization: 'Bearer roomy' } });
    await two.request('/v1/pets', { headers: { authorization: 'Bearer roomy' } });
    expect(one.journal.at(-1)).toMatchObject({ method: 'GET', path: '/v1/pets', status: 200 });
    expect(two.journal.at(-1)).toMatchObject({ method: 'GET', path: '/v1/pets', status: 200 });
    const reset = await two.request('/__petkit/reset', { method: 'POST' });
    expect(await reset.json()).toEqual({ status: 'reset', pets: 6 });
    // Replica one hears it over LISTEN/NOTIFY, a moment after the commit.
    for (let tries = 0; one.journal.length > 0 && tries < 200; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(one.journal).toEqual([]);
    expect(two.journal).toEqual([]);
  });
});

describe('rules and the clock, shared by two replicas', () => {
  let replicas: Replicas;
  const real = START;
  let one: Mock;
  let two: Mock;
  const list = (mock: Mock, key = 'roomy') => mock.request('/v1/pets', withKey(key));
  beforeAll(async () => {
    replicas = await replicasIn(database);
    const options = { keys: KEYS, clock: () => real, pets: 6 };
    one = createMock({ ...options, state: await replicas.connect() });
    two = createMock({ ...options, state: await replicas.connect() });
  });
  beforeEach(async () => {
    await one.reset();
    // Replica two answers once: its view of the rules and the clock is cached from here on.
    expect((await list(two)).status).toBe(200);
  });
  afterAll(async () => {
    await replicas?.close();
  });

  it('fires a times: 1 rule once when 20 matching requests race through both replicas', async () => {
    await one.rules.arm({ operation: 'listPets', times: 1, respond: { status: 503 } });
    const statuses = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => (await list(i % 2 === 0 ? one : two)).status),
    );
    expect(statuses.filter((status) => status === 503)).toHaveLength(1);
    expect(statuses.filter((status) => status === 200)).toHaveLength(19);
    expect(await two.rules.list()).toMatchObject([{ id: 'r1', enabled: true, matched: 20, fired: 1 }]);
  });

  it("moves replica two's Date, X-RateLimit-Reset and a ban's end in its very next request when the clock is set through replica one", async () => {
    expect(await one.clock.change({ set: '2031-03-04T05:06:30Z' })).toMatchObject({
      now: '2031-03-04T05:06:30.000Z',
      frozen: false,
    });
    const next = await list(two);
    expect(next.headers.get('date')).toBe('Tue, 04 Mar 2031 05:06:30 GMT');
    // roomy's minute window binds (100,000 left of it, 10,000,000 of the day): it ends at 05:07:00.
    expect(next.headers.get('x-ratelimit-reset')).toBe(String(Date.UTC(2031, 2, 4, 5, 7) / 1000));

    // tight: 2 a minute, then limited; the eleventh request while limited bans it for 5 minutes.
    let last = next;
    for (let i = 0; i < 2 + BAN_AFTER + 1; i += 1) last = await list(two, 'tight');
    expect(await last.json()).toMatchObject({ code: 'api_key_banned' });
    expect(last.headers.get('retry-after')).toBe(String(BAN_MS / 1000));
    const banEnd = Date.UTC(2031, 2, 4, 5, 6, 30) + BAN_MS;
    // Two minutes on through replica one: the ban ends where it did, two minutes nearer.
    await one.clock.change({ advanceSeconds: 120 });
    const banned = await list(two, 'tight');
    expect(banned.headers.get('date')).toBe('Tue, 04 Mar 2031 05:08:30 GMT');
    expect(banned.headers.get('retry-after')).toBe(String(BAN_MS / 1000 - 120));
    expect(banned.headers.get('x-ratelimit-reset')).toBe(String(banEnd / 1000));
    // Past the ban's end through replica one: replica two lets tight through at once.
    await one.clock.change({ advanceSeconds: BAN_MS / 1000 - 120 });
    expect((await list(two, 'tight')).status).toBe(200);
  });

  it('stops firing on replica two at once when the rule is switched off through replica one', async () => {
    await one.rules.arm({ operation: 'listPets', respond: { status: 503 } });
    expect((await list(two)).status).toBe(503);
    expect(await one.rules.enable('r1', false)).toMatchObject({ id: 'r1', enabled: false });
    expect((await list(two)).status).toBe(200);
    await one.rules.enable('r1', true);
    expect((await list(two)).status).toBe(503);
    await one.rules.disarm('r1');
    expect((await list(two)).status).toBe(200);
  });

  it('disarms every rule and returns to real time for replica two at once when reset through replica one', async () => {
    await two.rules.arm({ operation: 'listPets', respond: { status: 503 } });
    await two.clock.change({ advanceSeconds: 3_600 });
    expect((await list(two)).status).toBe(503);
    await one.reset();
    // Not waiting for the reset's NOTIFY: the very next request already answers by the reset state.
    const next = await list(two);
    expect(next.status).toBe(200);
    expect(next.headers.get('date')).toBe(new Date(START).toUTCString());
    expect(await two.rules.list()).toEqual([]);
    expect(await two.rules.arm({ operation: 'getPet', respond: { status: 500 } })).toMatchObject({
      id: 'r1',
    });
  });

  it('refuses the clock back before the latest counted window alike through either replica', async () => {
    await one.clock.change({ advanceSeconds: 600 });
    // Counted in the window ten minutes on, through replica two.
    expect((await list(two)).status).toBe(200);
    const back = { set: new Date(START).toISOString() };
    const refusals = await Promise.all(
      [one, two].map((mock) => mock.clock.change(back).catch((error: unknown) => error)),
    );
    expect(refusals[0]).toMatchObject({ code: 'clock_refused' });
    expect(refusals[1]).toEqual(refusals[0]);
    expect((refusals[0] as Error).message).toBe((refusals[1] as Error).message);
    // The floor itself, the start of that window, is allowed through either.
    const floor = Math.floor((START + 600_000) / 60_000) * 60_000;
    await two.clock.change({ set: new Date(floor).toISOString() });
    expect((await list(one)).headers.get('date')).toBe(new Date(floor).toUTCString());
  });

  it('keeps every one of the clock moves made at once through both replicas: none is lost', async () => {
    // Each move is computed from the view it changes; two made from one view must both count.
    await Promise.all(
      Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? one : two).clock.change({ advanceSeconds: 60 })),
    );
    expect((await one.clock.read()).offsetSeconds).toBe(360);
    expect((await two.clock.read()).offsetSeconds).toBe(360);
  });
});

describe('losing the database', () => {
  it('answers 503 state_unavailable with an Error body and Retry-After, logs it once, and answers again once the database is back', async () => {
    const replicas = await replicasIn(database);
    const errors: string[] = [];
    const logger = { info: () => undefined, error: (line: string) => errors.push(line) };
    let state: SharedState;
    try {
      state = await replicas.connect({ connectTimeoutMs: 1_000 });
      const mock = createMock({ keys: KEYS, pets: 6, state, logger });
      // Each answer held to openapi.yaml: the 503 is the one documented for every operation.
      const get = () => checkedRequest(mock, '/v1/pets/1', withKey('roomy'));
      expect((await get()).status).toBe(200);

      await database.admin(`ALTER DATABASE ${database.name} ALLOW_CONNECTIONS false`);
      await database.terminateConnections();
      for (const response of [await get(), await get(), await checkedRequest(mock, '/__petkit/health')]) {
        expect(response.status).toBe(503);
        expect(response.headers.get('retry-after')).toBe('1');
        expect(response.json).toEqual({
          code: 'state_unavailable',
          message: "The mock's shared state (its database) is unavailable; retry shortly.",
          status: 503,
        });
      }
      expect(errors.filter((line) => line.includes('answering 503'))).toHaveLength(1);

      await database.admin(`ALTER DATABASE ${database.name} ALLOW_CONNECTIONS true`);
      const back = await get();
      expect(back.status).toBe(200);
      expect(back.json).toMatchObject({ id: 1 });
      expect(errors.at(-1)).toBe('petkit mock: the shared state is back; answering again');
    } finally {
      await database.admin(`ALTER DATABASE ${database.name} ALLOW_CONNECTIONS true`);
      await replicas.close();
    }
  });
});

describe('the state option', () => {
  it('refuses a URL given where a connected state belongs, saying what to pass', () => {
    expect(() => createMock({ state: 'postgres://localhost/petkit' as unknown as SharedState })).toThrow(
      new MockOptionsError(
        'Option state must be a state object such as await connectState(url) from petkit/postgres, got a string.',
      ),
    );
  });

  it('lets a client be built for the 503: Prefer: code=503 forces it on the in-memory mock', async () => {
    const mock = createMock({ keys: KEYS });
    const response = await checkedRequest(
      mock,
      '/v1/pets',
      withKey('roomy', { headers: { prefer: 'code=503' } }),
    );
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(response.json).toMatchObject({ code: 'state_unavailable', status: 503 });
  });
});

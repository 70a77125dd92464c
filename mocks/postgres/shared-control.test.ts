// The shared control store (rules and clock in PostgreSQL) on two replicas: it keeps what the
// in-memory store keeps, change for change, and what one replica changes the other reads.
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/support/postgres/database.js';
import { memoryControl } from '../memory-control.js';
import { MAX_RULES, type StoredRule } from '../rules.js';
import { type BucketRef, StaleControlError } from '../state.js';
import { storedRule } from '../test-helpers.js';
import { SCHEMA_VERSION } from './schema.js';
import { freshReplicasIn } from './test-helpers.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

const freshReplicas = () => freshReplicasIn(database);

async function sql<Row extends pg.QueryResultRow>(url: string, text: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(text)).rows;
  } finally {
    await client.end();
  }
}

/** A rule on listPets answering 503, with `changes`. */
const rule = (changes: Partial<StoredRule> = {}): StoredRule =>
  storedRule({ operation: 'listPets', respond: { status: 503 }, ...changes });

const KEY: BucketRef = { kind: 'key', id: 'demo-free' };
const PLAN = { perMinute: 5, perDay: 100 };
const NOON = Date.UTC(2030, 0, 1, 12);

describe('the shared control store', () => {
  it('arms r1, r2… and shows each to the other replica, newest first, with its counts', async () => {
    const replicas = await freshReplicas();
    const one = await replicas.connect();
    const two = await replicas.connect();
    const first = await one.control.arm(rule({ key: null }));
    const second = await two.control.arm(rule({ key: 'demo-pro', times: 2, respond: { fault: 'reset' } }));
    expect(first).toMatchObject({ id: 'r1', enabled: true, matched: 0, fired: 0, key: null });
    expect(second).toMatchObject({ id: 'r2', key: 'demo-pro', times: 2, respond: { fault: 'reset' } });
    expect(await one.control.fire('r2')).toBe(true);
    const listed = await one.control.list();
    expect(listed.map((one) => [one.id, one.matched, one.fired])).toEqual([
      ['r2', 1, 1],
      ['r1', 0, 0],
    ]);
    await one.control.arm(rule());
    const view = await two.control.view(true);
    expect(view.rules.map((active) => active.id)).toEqual(['r3', 'r2', 'r1']);
    expect(view.rules[2]).toEqual({ ...rule({ key: null }), id: 'r1' });
    expect(two.control.last).toBe(view);
  });

  it('keeps a view the same object until something changes, and bumps its version on each change', async () => {
    const replicas = await freshReplicas();
    const one = await replicas.connect();
    const start = one.control.view();
    expect(start).toBe(one.control.view());
    expect(await one.control.view(true)).toBe(start);
    const versions = [one.control.last.version];
    await one.control.arm(rule());
    versions.push(one.control.last.version);
    await one.control.enable('r1', false);
    versions.push(one.control.last.version);
    // Changing nothing changes no version: switching a rule off twice, disarming a rule that is not.
    const off = one.control.last;
    expect(await one.control.enable('r1', false)).toMatchObject({ id: 'r1', enabled: false });
    expect(await one.control.disarm('r2')).toBe(0);
    expect(one.control.last).toBe(off);
    await one.control.setClock({ offsetMs: 61_000, frozenAt: null }, (await one.control.view(true)).version);
    versions.push(one.control.last.version);
    await one.control.disarm();
    versions.push(one.control.last.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
  });

  it('fires a times: 1 rule once when 20 matches race through two replicas', async () => {
    const replicas = await freshReplicas();
    const one = await replicas.connect();
    const two = await replicas.connect();
    await one.control.arm(rule({ times: 1 }));
    const fired = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? one : two).control.fire('r1')),
    );
    expect(fired.filter(Boolean)).toHaveLength(1);
    expect(await two.control.list()).toMatchObject([{ id: 'r1', matched: 20, fired: 1 }]);
  });

  it('fires nothing for a rule switched off, disarmed, or never armed', async () => {
    const replicas = await freshReplicas();
    const one = await replicas.connect();
    const two = await replicas.connect();
    await one.control.arm(rule());
    await one.control.arm(rule());
    await one.control.enable('r1', false);
    await one.control.disarm('r2');
    for (const id of ['r1', 'r2', 'r3', 'r0', 'x', 'r1e3', ''])
      expect(await two.control.fire(id)).toBe(false);
    for (const id of ['r2', 'r0', 'x']) {
      expect(await two.control.enable(id, true)).toBeUndefined();
      expect(await two.control.disarm(id)).toBe(0);
    }
    expect(await two.control.list()).toMatchObject([{ id: 'r1', enabled: false, matched: 0 }]);
  });

  it(`arms at most ${MAX_RULES} rules, however the replicas race`, async () => {
    const replicas = await freshReplicas();
    const one = await replicas.connect();
    const two = await replicas.connect();
    const armed = await Promise.all(
      Array.from({ length: MAX_RULES + 10 }, (_, i) => (i % 2 === 0 ? one : two).control.arm(rule())),
    );
    const ids = armed.flatMap((one) => (one === undefined ? [] : [one.id]));
    expect(ids).toHaveLength(MAX_RULES);
    expect(new Set(ids)).toEqual(new Set(Array.from({ length: MAX_RULES }, (_, i) => `r${i + 1}`)));
    expect(await one.control.disarm()).toBe(MAX_RULES);
    expect(await two.control.arm(rule())).toMatchObject({ id: `r${MAX_RULES + 1}` });
  });

  it('moves and freezes one clock for every replica', async () => {
    const replicas = await freshReplicas();
    const one = await replicas.connect();
    const two = await replicas.connect();
    await one.control.setClock(
      { offsetMs: 90_500.25, frozenAt: null },
      (await one.control.view(true)).version,
    );
    expect((await two.control.view(true)).clock).toEqual({ offsetMs: 90_500.25, frozenAt: null });
    await two.control.setClock({ offsetMs: 0, frozenAt: NOON }, (await two.control.view(true)).version);
    expect((await one.control.view(true)).clock).toEqual({ offsetMs: 0, frozenAt: NOON });
  });

  it('empties the rules and the clock on reset (ids from r1 again), for the other replica too', async () => {
    const replicas = await freshReplicas();
    const one = await replicas.connect();
    const two = await replicas.connect();
    await one.seed([]);
    await one.control.arm(rule());
    await one.control.arm(rule());
    await one.control.setClock({ offsetMs: 0, frozenAt: NOON }, (await one.control.view(true)).version);
    const before = await two.control.view(true);
    await one.reset([]);
    expect(one.control.last).toMatchObject({ clock: { offsetMs: 0, frozenAt: null }, rules: [] });
    expect(one.control.last.version).toBeGreaterThan(before.version);
    expect(await two.control.view(true)).toEqual(one.control.last);
    expect(await two.control.list()).toEqual([]);
    expect(await two.control.arm(rule())).toMatchObject({ id: 'r1' });
  });

  it('arms the seeded rules once: only the replica that seeds arms them', async () => {
    const replicas = await freshReplicas();
    const [one, two] = await Promise.all([replicas.connect(), replicas.connect()]);
    const seeds = [rule({ times: 1 }), rule({ key: null, respond: { delayMs: 100 } })];
    const seeded = await Promise.all([one.seed([], seeds), two.seed([], seeds)]);
    expect(seeded.sort()).toEqual([false, true]);
    const late = await replicas.connect();
    expect(await late.seed([], seeds)).toBe(false);
    expect((await late.control.list()).map((one) => one.id)).toEqual(['r2', 'r1']);
    expect(late.control.view()).toMatchObject({ rules: [{ id: 'r2' }, { id: 'r1', times: 1 }] });
    expect(await late.control.arm(rule())).toMatchObject({ id: 'r3' });
  });

  it('keeps what the in-memory store keeps, change for change, over two replicas', async () => {
    type Change =
      | { kind: 'arm'; times: number | null; after: number; probability: number | null }
      | { kind: 'enable'; id: number; enabled: boolean }
      | { kind: 'disarm'; id: number | null }
      | { kind: 'fire'; id: number };
    const change: fc.Arbitrary<Change> = fc.oneof(
      fc.record({
        kind: fc.constant('arm' as const),
        times: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
        after: fc.integer({ min: 0, max: 2 }),
        probability: fc.option(
          fc.integer({ min: 0, max: 100 }).map((percent) => percent / 100),
          { nil: null },
        ),
      }),
      fc.record({
        kind: fc.constant('enable' as const),
        id: fc.integer({ min: 1, max: 5 }),
        enabled: fc.boolean(),
      }),
      fc.record({
        kind: fc.constant('disarm' as const),
        id: fc.option(fc.integer({ min: 1, max: 5 }), { nil: null }),
      }),
      {
        arbitrary: fc.record({ kind: fc.constant('fire' as const), id: fc.integer({ min: 1, max: 5 }) }),
        weight: 4,
      },
    );
    const replicas = await freshReplicas();
    const one = await replicas.connect();
    const two = await replicas.connect();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.boolean(), change), { minLength: 5, maxLength: 40 }),
        async (changes) => {
          await one.reset([]);
          const memory = memoryControl();
          for (const [viaOne, c] of changes) {
            const shared = (viaOne ? one : two).control;
            if (c.kind === 'arm') {
              const armed = rule({ times: c.times, after: c.after, probability: c.probability });
              expect(await shared.arm(armed)).toEqual(memory.arm(armed));
            } else if (c.kind === 'enable') {
              expect(await shared.enable(`r${c.id}`, c.enabled)).toEqual(
                memory.enable(`r${c.id}`, c.enabled),
              );
            } else if (c.kind === 'disarm') {
              const id = c.id === null ? undefined : `r${c.id}`;
              expect(await shared.disarm(id)).toEqual(memory.disarm(id));
            } else {
              // The request path fires only the rules of its view: enabled ones.
              const id = `r${c.id}`;
              const active = memory.view().rules.some((one) => one.id === id);
              expect(await shared.fire(id)).toBe(active ? memory.fire(id) : false);
            }
          }
          expect(await two.control.list()).toEqual(memory.list());
          expect((await one.control.view(true)).rules).toEqual(memory.view().rules);
        },
      ),
      { seed: 2121, numRuns: 25 },
    );
  });
});

describe('the version check of the shared rate limiter', () => {
  it('counts nothing and throws StaleControlError for a view older than the stored one', async () => {
    const replicas = await freshReplicas();
    const one = await replicas.connect();
    const two = await replicas.connect();
    const old = two.control.last;
    expect(await two.limiter.take(KEY, PLAN, NOON, old.version)).toMatchObject({ remaining: 4 });
    await one.control.setClock({ offsetMs: 1_000, frozenAt: null }, (await one.control.view(true)).version);
    // Replica two has not read the change: its view is the old one.
    expect(two.control.view()).toBe(old);
    await expect(two.limiter.take(KEY, PLAN, NOON, old.version)).rejects.toThrow(StaleControlError);
    await expect(two.limiter.take({ kind: 'key', id: 'new' }, PLAN, NOON, old.version)).rejects.toThrow(
      StaleControlError,
    );
    expect(await two.limiter.count()).toBe(1);
    expect((await two.limiter.peek(KEY, PLAN, NOON)).minute.remaining).toBe(4);
    const fresh = await two.control.view(true);
    expect(await two.limiter.take(KEY, PLAN, NOON, fresh.version)).toMatchObject({ remaining: 3 });
  });

  it('sweeps nothing by a stale view (its clock may be ahead of the mock)', async () => {
    const replicas = await freshReplicas();
    const one = await replicas.connect();
    const two = await replicas.connect();
    const old = one.control.last;
    await one.limiter.take(KEY, PLAN, NOON, old.version);
    await two.control.setClock({ offsetMs: 0, frozenAt: null }, (await two.control.view(true)).version);
    // A stale view on a later day would sweep the bucket of today, still live by the mock's clock.
    await expect(one.limiter.take(KEY, PLAN, NOON + 86_400_000, old.version)).rejects.toThrow(
      StaleControlError,
    );
    expect(await one.limiter.count()).toBe(1);
  });

  it('reads the view again after a reset heard from another replica', async () => {
    const replicas = await freshReplicas();
    const one = await replicas.connect();
    const two = await replicas.connect();
    await one.control.arm(rule());
    await two.control.view(true);
    const heard = new Promise<void>((resolve) => {
      const stop = two.onReset(() => {
        stop();
        resolve();
      });
    });
    await one.reset([]);
    await heard;
    // No request has gone through the limiter: the view is read again because of the reset alone.
    expect((await two.control.view()).rules).toEqual([]);
  });
});

describe('the control tables', () => {
  it('are added to a database of schema version 2, its pets kept', async () => {
    const replicas = await freshReplicas();
    const first = await replicas.connect();
    await first.seed([{ name: 'Mochi', categoryId: 1 }]);
    await sql(
      replicas.url,
      'DROP TABLE petkit_control; DROP TABLE petkit_rules; UPDATE petkit_schema_version SET version = 2',
    );
    const next = await replicas.connect();
    expect(await sql(replicas.url, 'SELECT version FROM petkit_schema_version')).toEqual([
      { version: SCHEMA_VERSION },
    ]);
    expect(await next.store.get(1)).toBe('{"id":1,"name":"Mochi","categoryId":1}');
    expect(next.control.view()).toMatchObject({ clock: { offsetMs: 0, frozenAt: null }, rules: [] });
    expect(await next.control.arm(rule())).toMatchObject({ id: 'r1' });
  });
});

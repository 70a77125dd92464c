import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewPet, PetStatus } from '../../openapi/index.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/postgres/database.js';
import { createStore } from '../store.js';
import type { SharedState } from './connect.js';
import { type Replicas, replicasIn } from './test-helpers.js';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

const STATUSES: readonly (PetStatus | undefined)[] = ['available', 'pending', 'sold', undefined];

let database: TestDatabase;
let replicas: Replicas;
let one: SharedState;
let two: SharedState;
beforeAll(async () => {
  database = await createTestDatabase();
  replicas = await replicasIn(database);
  one = await replicas.connect({ maxPets: 25 });
  two = await replicas.connect({ maxPets: 25 });
});
afterAll(async () => {
  await replicas?.close();
  await database?.drop();
});

/** Names as a JSON body may carry them: any code units (U+0000 and lone surrogates among them), spaces kept. */
const name = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }),
  fc.constantFrom(' Rex ', '\u0000', '\ud800', 'a\udc00b', '😺', '\u2028', '"\\/\n\t'),
);
const newPet = fc.record(
  {
    name,
    categoryId: fc.oneof(fc.integer({ min: 1, max: 9 }), fc.constantFrom(2 ** 53 - 1, 2 ** 63 - 1024)),
    status: fc.constantFrom<PetStatus>('available', 'pending', 'sold'),
  },
  // status is left out, not undefined, when absent.
  { requiredKeys: ['name', 'categoryId'] },
);
const step = fc.oneof(
  { weight: 5, arbitrary: newPet.map((pet) => ({ kind: 'create' as const, pet })) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('list' as const),
      limit: fc.integer({ min: 1, max: 30 }),
      status: fc.constantFrom(...STATUSES),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('get' as const), id: fc.integer({ min: -1, max: 27 }) }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'clear' as const }) },
);

describe('the shared store', () => {
  it('answers byte for byte as the in-memory store, through creates, lists, gets and clears on two replicas', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 60 }), async (steps) => {
        const memory = createStore(25);
        await one.store.clear();
        for (const [index, s] of steps.entries()) {
          const via = index % 2 === 0 ? one : two;
          if (s.kind === 'create') {
            expect(await via.store.create(s.pet)).toEqual(memory.create(s.pet));
          } else if (s.kind === 'list') {
            expect(text(await via.store.list(s.limit, s.status))).toBe(text(memory.list(s.limit, s.status)));
          } else if (s.kind === 'get') {
            expect(await via.store.get(s.id)).toBe(memory.get(s.id));
          } else {
            await via.store.clear();
            memory.clear();
          }
          expect(await via.store.count()).toBe(memory.size);
        }
      }),
      { seed: 1313, numRuns: 40 },
    );
  });

  it('gives concurrent creates through two replicas distinct ids and stops exactly at maxPets', async () => {
    await one.store.clear();
    const pets: NewPet[] = Array.from({ length: 60 }, (_, i) => ({
      name: `pet ${i}`,
      categoryId: 1 + (i % 5),
    }));
    const created = await Promise.all(pets.map((pet, i) => (i % 2 === 0 ? one : two).store.create(pet)));
    const stored = created.filter((entry) => entry !== undefined);
    expect(stored.map((entry) => entry.id).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 25 }, (_, i) => i + 1),
    );
    expect(await one.store.count()).toBe(25);
    expect(await two.store.create({ name: 'one too many', categoryId: 1 })).toBeUndefined();
    // Each stored pet is the one its create sent, under the id it was given.
    for (const entry of stored) {
      const sent = pets[created.indexOf(entry)] as NewPet;
      expect(JSON.parse((await two.store.get(entry.id)) ?? 'null')).toEqual({ id: entry.id, ...sent });
    }
  });

  it('reads and lists a pet through the other replica as soon as it is created', async () => {
    await one.store.clear();
    const pet = await one.store.create({ name: 'Biscuit', categoryId: 3, status: 'available' });
    expect(pet?.id).toBe(1);
    expect(await two.store.get(1)).toBe('{"id":1,"name":"Biscuit","categoryId":3,"status":"available"}');
    expect(text(await two.store.list(20, 'available'))).toBe(
      '[{"id":1,"name":"Biscuit","categoryId":3,"status":"available"}]',
    );
    expect(text(await two.store.list(20, 'sold'))).toBe('[]');
  });

  it('restarts ids at 1 after a clear through either replica', async () => {
    await one.store.create({ name: 'A', categoryId: 1 });
    await two.store.clear();
    expect(await one.store.count()).toBe(0);
    expect(await one.store.get(1)).toBeUndefined();
    expect((await one.store.create({ name: 'B', categoryId: 2 }))?.id).toBe(1);
  });

  it('answers no pet for an id that is not a whole number from 1', async () => {
    for (const id of [0, -1, 1.5, Number.NaN, 2 ** 63]) expect(await one.store.get(id)).toBeUndefined();
  });
});

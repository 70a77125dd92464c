import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NewPet, PetStatus } from '../openapi/index.js';
import { createStore } from './store.js';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

const STATUSES: readonly (PetStatus | undefined)[] = ['available', 'pending', 'sold', undefined];

/** What a list must be, computed from scratch every time. */
function naiveList(pets: readonly NewPet[], limit: number, status: PetStatus | undefined): unknown[] {
  return pets
    .map((pet, i) => ({ id: i + 1, ...pet }))
    .filter((pet) => status === undefined || pet.status === status)
    .slice(0, limit)
    .map(({ id, name, categoryId, status: s }) =>
      s === undefined ? { id, name, categoryId } : { id, name, categoryId, status: s },
    );
}

const newPet = fc.record(
  {
    name: fc.string({ minLength: 1, maxLength: 5 }),
    categoryId: fc.integer({ min: 1, max: 9 }),
    status: fc.constantFrom(...STATUSES),
  },
  { requiredKeys: ['name', 'categoryId'] },
);
const step = fc.oneof(
  newPet.map((pet) => ({ kind: 'create' as const, pet })),
  fc.record({
    kind: fc.constant('list' as const),
    limit: fc.integer({ min: 1, max: 4 }),
    status: fc.constantFrom(...STATUSES),
  }),
  fc.constant({ kind: 'clear' as const }),
);

describe('store', () => {
  it('answers every list, cached or not, as a fresh computation would, through creates and clears', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 10, maxLength: 60 }), (steps) => {
        const store = createStore(1000);
        let model: NewPet[] = [];
        for (const s of steps) {
          if (s.kind === 'create') {
            const pet: NewPet = { name: s.pet.name, categoryId: s.pet.categoryId };
            if (s.pet.status !== undefined) pet.status = s.pet.status;
            expect(store.create(pet)?.id).toBe(model.length + 1);
            model.push(pet);
          } else if (s.kind === 'clear') {
            store.clear();
            model = [];
          } else {
            expect(JSON.parse(text(store.list(s.limit, s.status)))).toEqual(
              naiveList(model, s.limit, s.status),
            );
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('adds a new pet to a cached list that was one short of its limit, and leaves a full one alone', () => {
    const store = createStore(10);
    store.create({ name: 'A', categoryId: 1, status: 'sold' });
    expect(text(store.list(2, 'sold'))).toBe('[{"id":1,"name":"A","categoryId":1,"status":"sold"}]');
    expect(text(store.list(1, undefined))).toBe('[{"id":1,"name":"A","categoryId":1,"status":"sold"}]');
    store.create({ name: 'B', categoryId: 2, status: 'sold' });
    expect(JSON.parse(text(store.list(2, 'sold')))).toHaveLength(2);
    expect(JSON.parse(text(store.list(1, undefined)))).toEqual([
      { id: 1, name: 'A', categoryId: 1, status: 'sold' },
    ]);
  });

  it('finds pets by id, refuses ids it never gave, and stops at its cap', () => {
    const store = createStore(2);
    expect(store.create({ name: 'A', categoryId: 1 })?.json).toBe('{"id":1,"name":"A","categoryId":1}');
    store.create({ name: ' B ', categoryId: 2, status: 'sold' });
    expect(store.get(2)).toBe('{"id":2,"name":" B ","categoryId":2,"status":"sold"}');
    for (const id of [0, 3, -1, 1.5, Number.MAX_SAFE_INTEGER]) expect(store.get(id)).toBeUndefined();
    expect(store.create({ name: 'C', categoryId: 3 })).toBeUndefined();
    expect(store.size).toBe(2);
  });
});

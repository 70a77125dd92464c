// The in-memory pets: ids assigned in order from 1, bounded by maxPets. Each pet is serialised once
// when stored, and list bodies are cached, so reads cost no JSON.stringify. A new pet has the highest
// id, so it joins only the cached lists that are not yet full (and of its status): the rest stay.
// Ids are never reused or removed (only clear() empties the store), so a pet's id is its index + 1:
// no map is kept beside the array.
import type { NewPet, Pet, PetStatus } from '../openapi/index.js';
import type { Store, StoredPet } from './state.js';

/** The in-memory store: every answer at once. */
export interface MemoryStore extends Store {
  readonly size: number;
  count(): number;
  list(limit: number, status: PetStatus | undefined): Uint8Array<ArrayBuffer>;
  get(id: number): string | undefined;
  create(pet: NewPet): StoredPet | undefined;
  clear(): void;
}

const UTF8 = new TextEncoder();

interface CachedList {
  readonly body: Uint8Array<ArrayBuffer>;
  /** How many pets the body holds: fewer than its limit means every match is in it. */
  readonly count: number;
  readonly limit: number;
  readonly status: PetStatus | undefined;
}

export function createStore(maxPets: number): MemoryStore {
  const pets: StoredPet[] = [];
  const listCache = new Map<string, CachedList>();
  const store: MemoryStore = {
    get size() {
      return pets.length;
    },
    count: () => pets.length,
    list(limit, status) {
      const cacheKey = status === undefined ? String(limit) : `${limit}:${status}`;
      const cached = listCache.get(cacheKey);
      if (cached !== undefined) return cached.body;
      let body = '[';
      let count = 0;
      for (let i = 0; i < pets.length && count < limit; i += 1) {
        const entry = pets[i] as StoredPet;
        if (status !== undefined && entry.status !== status) continue;
        body += count === 0 ? entry.json : `,${entry.json}`;
        count += 1;
      }
      const bytes = UTF8.encode(`${body}]`);
      listCache.set(cacheKey, { body: bytes, count, limit, status });
      return bytes;
    },
    get(id) {
      return Number.isInteger(id) && id >= 1 ? pets[id - 1]?.json : undefined;
    },
    create(input) {
      if (pets.length >= maxPets) return undefined;
      const id = pets.length + 1;
      const pet: Pet = { id, name: input.name, categoryId: input.categoryId };
      if (input.status !== undefined) pet.status = input.status;
      const entry: StoredPet = { id, status: input.status, json: JSON.stringify(pet) };
      pets.push(entry);
      for (const [key, list] of listCache) {
        if (list.count < list.limit && (list.status === undefined || list.status === entry.status)) {
          listCache.delete(key);
        }
      }
      return entry;
    },
    clear() {
      pets.length = 0;
      listCache.clear();
    },
  };
  return store;
}

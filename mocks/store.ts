// The in-memory pets: ids assigned in order from 1, bounded by maxPets. Each pet is serialised once
// when stored, and list bodies are cached until the next write, so reads cost no JSON.stringify.
import type { NewPet, Pet, PetStatus } from '../spec/index.js';

interface Entry {
  readonly pet: Pet;
  readonly json: string;
}

export interface Store {
  readonly size: number;
  /** The JSON array of at most `limit` pets in ascending id order, optionally of one status. */
  list(limit: number, status: PetStatus | undefined): string;
  /** The pet's JSON, or undefined. */
  get(id: number): string | undefined;
  /** Stores a pet exactly as given (no trimming), or answers undefined when the store is full. */
  create(pet: NewPet): Entry | undefined;
  /** Empties the store and restarts ids at 1. */
  clear(): void;
}

function toPet(id: number, input: NewPet): Pet {
  const pet: Pet = { id, name: input.name, categoryId: input.categoryId };
  if (input.status !== undefined) pet.status = input.status;
  return pet;
}

export function createStore(maxPets: number): Store {
  const byId = new Map<number, Entry>();
  const ordered: Entry[] = [];
  const listCache = new Map<string, string>();
  let nextId = 1;
  return {
    get size() {
      return ordered.length;
    },
    list(limit, status) {
      const cacheKey = status === undefined ? String(limit) : `${limit}:${status}`;
      const cached = listCache.get(cacheKey);
      if (cached !== undefined) return cached;
      const parts: string[] = [];
      for (const entry of ordered) {
        if (parts.length >= limit) break;
        if (status === undefined || entry.pet.status === status) parts.push(entry.json);
      }
      const body = `[${parts.join(',')}]`;
      listCache.set(cacheKey, body);
      return body;
    },
    get(id) {
      return byId.get(id)?.json;
    },
    create(input) {
      if (ordered.length >= maxPets) return undefined;
      const pet = toPet(nextId, input);
      nextId += 1;
      const entry = { pet, json: JSON.stringify(pet) };
      byId.set(pet.id, entry);
      ordered.push(entry);
      listCache.clear();
      return entry;
    },
    clear() {
      byId.clear();
      ordered.length = 0;
      listCache.clear();
      nextId = 1;
    },
  };
}

// The pets of mocks/store.ts in PostgreSQL, shared by every replica: the same ids (from 1, no gap),
// the same JSON text, the same lists. Nothing is cached in the replica, so a pet created through one
// replica is read and listed through every other at once.
//
// create() takes the next id and stores the pet in one statement: the UPDATE of the one-row
// petkit_store locks it, so concurrent creates from any number of replicas queue there, each gets
// the next id, and the maxPets bound is checked against the count as it stands (no overshoot).
//
// Lock order, which keeps reset and create free of deadlock: a statement that writes pets takes its
// table locks (petkit_pets, petkit_store) before any row lock; clear and the whole-state reset
// truncate petkit_pets first and only then touch petkit_store's row.
import type { NewPet, PetStatus } from '../../openapi/index.js';
import type { Store, StoredPet } from '../state.js';
import type { Database, TransactionClient } from './database.js';

export interface SharedStore extends Store {
  count(): Promise<number>;
  /** The JSON array of at most `limit` pets in ascending id order, optionally of one status, as UTF-8. */
  list(limit: number, status: PetStatus | undefined): Promise<Uint8Array<ArrayBuffer>>;
  /** The pet's JSON, or undefined. */
  get(id: number): Promise<string | undefined>;
  /** Stores a pet exactly as given (no trimming), or answers undefined when the store is full. */
  create(pet: NewPet): Promise<StoredPet | undefined>;
  /** Empties the store and restarts ids at 1 (for every replica). */
  clear(): Promise<void>;
}

const UTF8 = new TextEncoder();

/**
 * The pet's JSON after its id: `"name":…,"categoryId":…[,"status":…]}`. The database writes
 * `{"id":<id>,` before it, so the stored text is JSON.stringify({ id, name, categoryId, status }),
 * byte for byte what the in-memory store answers. JSON.stringify escapes what a text column could
 * not hold (U+0000, lone surrogates).
 */
function jsonAfterId(pet: NewPet): string {
  const rest: NewPet = { name: pet.name, categoryId: pet.categoryId };
  if (pet.status !== undefined) rest.status = pet.status;
  return JSON.stringify(rest).slice(1);
}

const CREATE_SQL = `
WITH next AS (
  UPDATE petkit_store SET last_id = last_id + 1 WHERE last_id < $1 RETURNING last_id AS id
)
INSERT INTO petkit_pets (id, category_id, status, json)
SELECT id, $2, $3, '{"id":' || id || ',' || $4 FROM next
RETURNING id, json`;

const LIST_ALL_SQL = `
SELECT coalesce(string_agg(json, ',' ORDER BY id), '') AS body
FROM (SELECT id, json FROM petkit_pets ORDER BY id LIMIT $1) AS page`;

const LIST_BY_STATUS_SQL = `
SELECT coalesce(string_agg(json, ',' ORDER BY id), '') AS body
FROM (SELECT id, json FROM petkit_pets WHERE status = $2 ORDER BY id LIMIT $1) AS page`;

/**
 * Replaces every pet with `pets` (ids from 1), inside the caller's transaction. The first statement
 * locks petkit_pets (see the lock order above). `timeoutMs`: what its statements may take (the
 * database's bulkTimeoutMs for the most pets in play).
 */
export async function replacePets(
  client: TransactionClient,
  pets: readonly NewPet[],
  maxPets: number,
  timeoutMs: number,
): Promise<void> {
  // TRUNCATE waits for another replica's reset or seed as long as that takes.
  await client.query({ text: 'TRUNCATE petkit_pets', query_timeout: timeoutMs });
  // As the in-memory store: pets beyond maxPets are not stored.
  const kept = pets.slice(0, maxPets);
  await client.query({
    query_timeout: timeoutMs,
    text: `INSERT INTO petkit_pets (id, category_id, status, json)
           SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[])`,
    values: [
      kept.map((_, index) => index + 1),
      kept.map((pet) => pet.categoryId),
      kept.map((pet) => pet.status ?? null),
      kept.map((pet, index) => `{"id":${index + 1},${jsonAfterId(pet)}`),
    ],
  });
  await client.query({ text: 'UPDATE petkit_store SET last_id = $1', values: [kept.length] });
}

export function createSharedStore(database: Database, maxPets: number): SharedStore {
  return {
    async count() {
      const { rows } = await database.query<{ last_id: string }>({
        name: 'petkit_store_size',
        text: 'SELECT last_id FROM petkit_store',
      });
      return Number(rows[0]?.last_id ?? 0);
    },
    async list(limit, status) {
      // As the in-memory store: a limit below 1 lists nothing, a fractional one rounds up, and an
      // infinite one lists all (LIMIT NULL).
      const count = limit > 0 ? (Number.isFinite(limit) ? Math.ceil(limit) : null) : 0;
      const { rows } = await database.query<{ body: string }>(
        status === undefined
          ? { name: 'petkit_list_all', text: LIST_ALL_SQL, values: [count] }
          : { name: 'petkit_list_by_status', text: LIST_BY_STATUS_SQL, values: [count, status] },
      );
      return UTF8.encode(`[${rows[0]?.body ?? ''}]`);
    },
    async get(id) {
      // Ids are whole numbers from 1; anything else (or beyond any id ever given) is no pet.
      if (!Number.isSafeInteger(id) || id < 1) return undefined;
      const { rows } = await database.query<{ json: string }>({
        name: 'petkit_get',
        text: 'SELECT json FROM petkit_pets WHERE id = $1',
        values: [id],
      });
      return rows[0]?.json;
    },
    async create(pet) {
      const { rows } = await database.query<{ id: string; json: string }>({
        name: 'petkit_create',
        text: CREATE_SQL,
        values: [maxPets, pet.categoryId, pet.status ?? null, jsonAfterId(pet)],
      });
      const row = rows[0];
      if (row === undefined) return undefined;
      return { id: Number(row.id), status: pet.status, json: row.json };
    },
    async clear() {
      await database.transaction(async (client) => {
        await client.query({ text: 'TRUNCATE petkit_pets' });
        await client.query({ text: 'UPDATE petkit_store SET last_id = 0' });
      });
    },
  };
}

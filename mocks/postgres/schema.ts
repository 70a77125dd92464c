// The tables of the shared state, created or brought up to date when a replica connects. Each
// migration runs once, in order; petkit_schema_version says how many have run. The whole check runs
// in one transaction under an advisory lock, so replicas starting together migrate once.
//
// petkit_store   one row: the last id given (ids run from 1 with no gap, so it is also the count),
//                whether the state was ever seeded, and how many resets there have been (its
//                reset generation: a replica whose reset channel was down compares it with the last it
//                heard, see reset-channel.ts).
// petkit_pets    each pet as its JSON answer, with its id and status for lists. The name lives only
//                in the JSON: text columns cannot hold U+0000 or a lone surrogate, both of which a
//                JSON body may carry and JSON.stringify escapes.
// petkit_rate_buckets
//                one row per rate-limit bucket (key or client address). Logged, as the pets are
//                (migration 4; the first created it UNLOGGED): a crash of the database emptied an
//                unlogged table, so every key's window started again from zero and a banned key was
//                banned no more. Its commits do not wait for the disk either (synchronous_commit off,
//                database.ts), so the WAL costs a request no fsync; a crash loses at most the counts
//                of its last fraction of a second.
// petkit_control one row: the mock's clock (an offset from real time, or the instant it is frozen
//                at), the number of the next rule armed (ids r1, r2…, restarted by a reset), and a
//                version that every change of the clock or of the rules bumps: each replica caches
//                what it read with its version, and the rate limiter's statement counts nothing for a
//                replica whose version is behind (see shared-control.ts).
// petkit_rules   each armed rule: its number (r<seq>), the rule as normalized (JSON), whether it is
//                enabled, and how often it matched and fired (across every replica).
import type { TransactionClient } from './database.js';
import { StateConfigError } from './errors.js';

/** An arbitrary constant: the advisory lock of petkit's migrations ('petkit' in ASCII). */
const MIGRATION_LOCK = 0x7065746b6974;

const MIGRATIONS: readonly string[] = [
  `CREATE TABLE petkit_store (
     singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
     last_id bigint NOT NULL DEFAULT 0,
     seeded boolean NOT NULL DEFAULT false
   );
   INSERT INTO petkit_store DEFAULT VALUES;
   CREATE TABLE petkit_pets (
     id bigint PRIMARY KEY,
     category_id bigint NOT NULL,
     status text,
     json text NOT NULL
   );
   CREATE INDEX petkit_pets_status ON petkit_pets (status, id);
   CREATE UNLOGGED TABLE petkit_rate_buckets (
     bucket text PRIMARY KEY,
     minute bigint NOT NULL,
     minute_count bigint NOT NULL,
     day bigint NOT NULL,
     day_count bigint NOT NULL,
     limited_window text NOT NULL,
     limited_count integer NOT NULL,
     banned_until double precision NOT NULL,
     outcome smallint NOT NULL
   );`,
  'ALTER TABLE petkit_store ADD COLUMN reset_generation bigint NOT NULL DEFAULT 0;',
  `CREATE TABLE petkit_control (
     singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
     version bigint NOT NULL DEFAULT 0,
     offset_ms double precision NOT NULL DEFAULT 0,
     frozen_at double precision,
     next_rule integer NOT NULL DEFAULT 1
   );
   INSERT INTO petkit_control DEFAULT VALUES;
   CREATE TABLE petkit_rules (
     seq integer PRIMARY KEY,
     rule jsonb NOT NULL,
     enabled boolean NOT NULL DEFAULT true,
     matched bigint NOT NULL DEFAULT 0,
     fired bigint NOT NULL DEFAULT 0
   );`,
  'ALTER TABLE petkit_rate_buckets SET LOGGED;',
];

/** The schema version this petkit writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Brings the schema to SCHEMA_VERSION inside the caller's transaction; answers the version found.
 * Refuses a database migrated by a newer petkit.
 */
export async function migrate(client: TransactionClient): Promise<number> {
  await client.query({ text: 'SELECT pg_advisory_xact_lock($1)', values: [MIGRATION_LOCK] });
  await client.query({
    text: `CREATE TABLE IF NOT EXISTS petkit_schema_version (
       singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
       version integer NOT NULL
     )`,
  });
  const { rows } = await client.query<{ version: number }>({
    text: 'SELECT version FROM petkit_schema_version',
  });
  const found = Number(rows[0]?.version ?? 0);
  if (found > SCHEMA_VERSION) {
    throw new StateConfigError(
      `The state database holds petkit's schema version ${found}; this petkit knows versions up to ${SCHEMA_VERSION}. Upgrade petkit, or use another database.`,
    );
  }
  for (const migration of MIGRATIONS.slice(found)) await client.query({ text: migration });
  await client.query({
    text: `INSERT INTO petkit_schema_version (version) VALUES ($1)
           ON CONFLICT (singleton) DO UPDATE SET version = excluded.version`,
    values: [SCHEMA_VERSION],
  });
  return found;
}

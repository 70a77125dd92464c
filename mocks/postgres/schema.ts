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
import pg from 'pg';
import { isConnectionError } from './connection-errors.js';
import type { Database, Statement, TransactionClient } from './database.js';
import { StateConfigError, StateSchemaError, StateUnavailableError } from './errors.js';

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
 * Every table and column the migrations leave, with its type as format_type spells it: what the
 * statements of this folder read and write. Kept beside MIGRATIONS; the test that damages each table
 * checks the two agree (a fresh schema has no fault).
 */
const TABLES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  petkit_schema_version: { singleton: 'boolean', version: 'integer' },
  petkit_store: { singleton: 'boolean', last_id: 'bigint', seeded: 'boolean', reset_generation: 'bigint' },
  petkit_pets: { id: 'bigint', category_id: 'bigint', status: 'text', json: 'text' },
  petkit_rate_buckets: {
    bucket: 'text',
    minute: 'bigint',
    minute_count: 'bigint',
    day: 'bigint',
    day_count: 'bigint',
    limited_window: 'text',
    limited_count: 'integer',
    banned_until: 'double precision',
    outcome: 'smallint',
  },
  petkit_control: {
    singleton: 'boolean',
    version: 'bigint',
    offset_ms: 'double precision',
    frozen_at: 'double precision',
    next_rule: 'integer',
  },
  petkit_rules: { seq: 'integer', rule: 'jsonb', enabled: 'boolean', matched: 'bigint', fired: 'bigint' },
};
const TABLE_NAMES = Object.keys(TABLES);

/** The statement that removes petkit's tables, for a message that tells how to start afresh. */
export const DROP_TABLES_SQL = `DROP TABLE IF EXISTS ${TABLE_NAMES.join(', ')};`;

/** Tables whose one row every statement on them expects (an UPDATE of no row would change nothing, unsaid). */
const ONE_ROW = ['petkit_store', 'petkit_control', 'petkit_schema_version'];

interface ColumnRow {
  readonly table: string;
  readonly column: string | null;
  readonly type: string | null;
  /** NOT NULL with no default: an insert that does not name it fails. */
  readonly required: boolean | null;
  readonly keyed: boolean;
  /** The connection's user holds every privilege petkit's statements use on the table. */
  readonly allowed: boolean;
}

/** What petkit's statements do to its tables (a reset truncates). */
const PRIVILEGES = ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE'];

/**
 * What is wrong with petkit's tables in the connection's schema (the URL's search_path), in words, or
 * nothing: a table missing (dropped, renamed), a column missing or of another type, a primary key
 * dropped (ON CONFLICT needs it), a column of someone else's that no insert of petkit's fills, a
 * privilege petkit's statements use revoked, a one-row table emptied, or a version other than this
 * petkit's. What petkit's statements would meet
 * as an error, or worse, as an answer changed without a word (a json column turned jsonb reorders a
 * pet's properties).
 */
export async function schemaFaults(client: TransactionClient): Promise<string[]> {
  const { rows } = await client.query<ColumnRow>({
    text: `SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type,
                  a.attnotnull AND NOT a.atthasdef AS required,
                  EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.oid AND i.indisprimary) AS keyed,
                  ${PRIVILEGES.map((privilege) => `has_table_privilege(c.oid, '${privilege}')`).join(' AND ')} AS allowed
           FROM pg_class c
           JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
           LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
           WHERE c.relname = ANY($1) AND c.relkind IN ('r', 'p')`,
    values: [TABLE_NAMES],
  });
  const found = new Map<string, { columns: Map<string, ColumnRow>; keyed: boolean; allowed: boolean }>();
  for (const row of rows) {
    const table = found.get(row.table) ?? { columns: new Map(), keyed: row.keyed, allowed: row.allowed };
    found.set(row.table, table);
    if (row.column !== null) table.columns.set(row.column, row);
  }
  const faults: string[] = [];
  for (const [name, columns] of Object.entries(TABLES)) {
    const table = found.get(name);
    if (table === undefined) {
      faults.push(`table ${name} is missing`);
      continue;
    }
    for (const [column, type] of Object.entries(columns)) {
      const had = table.columns.get(column);
      if (had === undefined) faults.push(`column ${name}.${column} is missing`);
      else if (had.type !== type) faults.push(`column ${name}.${column} is ${had.type}, not ${type}`);
    }
    for (const [column, had] of table.columns) {
      if (!Object.hasOwn(columns, column) && had.required === true)
        faults.push(`column ${name}.${column} is not petkit's, and NOT NULL with no default`);
    }
    if (!table.keyed) faults.push(`table ${name} has no primary key`);
    if (!table.allowed)
      faults.push(`the state URL's user may not ${PRIVILEGES.join(', ')} on table ${name} (GRANT them)`);
  }
  if (faults.length > 0) return faults;
  const counted = await client.query<{ table: string; rows: string }>({
    text: ONE_ROW.map((name) => `SELECT '${name}' AS table, count(*) AS rows FROM ${name}`).join(
      ' UNION ALL ',
    ),
  });
  for (const { table, rows: count } of counted.rows) {
    if (Number(count) !== 1) faults.push(`table ${table} has ${count} rows, not 1`);
  }
  if (faults.length > 0) return faults;
  const { rows: versions } = await client.query<{ version: number }>({
    text: 'SELECT version FROM petkit_schema_version',
  });
  const version = Number(versions[0]?.version);
  if (version !== SCHEMA_VERSION)
    faults.push(
      `petkit_schema_version says version ${version}, and this petkit's is ${SCHEMA_VERSION} (a petkit of another version migrated them: run every replica with one version of petkit)`,
    );
  return faults;
}

/**
 * SQLSTATEs a statement of petkit's meets when the tables are not as it made them: class 42 (a table,
 * column, function or constraint that is not there, a type that does not match, a privilege revoked),
 * a value its column's new type cannot read (22P02), a NOT NULL column petkit does not fill (23502).
 * petkit's statements are fixed and tested, so these come from the schema, not from the request.
 */
export function mayBeSchemaError(error: unknown): boolean {
  if (!(error instanceof pg.DatabaseError)) return false;
  const code = error.code ?? '';
  return code.startsWith('42') || code === '22P02' || code === '23502';
}

/** What to do about damaged tables, said at start and in every 503 they cause. */
const REMEDY =
  `petkit does not rebuild them by itself (a replica cannot tell a table dropped by mistake from one ` +
  `being restored, nor petkit's tables from another petkit's, and rebuilt tables would drop the pets, ` +
  `rules and counts the other replicas serve without a word): restore them, or stop every replica, ` +
  `drop petkit's tables (${DROP_TABLES_SQL}) and start again: the first replica creates them afresh ` +
  `and seeds its pets.`;

/** The error of a replica that meets damaged tables while it serves: a 503 that says what and what to do. */
export function damagedSchema(faults: readonly string[], cause?: unknown): StateSchemaError {
  const message = `The mock's shared state cannot be served: its tables in the state database are damaged (${faults.join('; ')}). ${REMEDY}`;
  return new StateSchemaError(faults, message, { cause });
}

/** The message of a replica that finds damaged tables at start. */
export function damagedAtStart(shown: string, faults: readonly string[]): StateConfigError {
  return new StateConfigError(
    `The state database at ${shown} holds petkit's tables damaged (${faults.join('; ')}). ${REMEDY}`,
  );
}

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
  if (found === 0) {
    // No version, yet tables of petkit's: its version row or table was removed, and the first
    // migration would fail on a table that is there.
    const { rows: present } = await client.query<{ name: string }>({
      text: `SELECT c.relname AS name FROM pg_class c
             JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
             WHERE c.relname = ANY($1) ORDER BY c.relname`,
      values: [TABLE_NAMES.filter((name) => name !== 'petkit_schema_version')],
    });
    if (present.length > 0) {
      const names = present.map((row) => row.name).join(', ');
      throw damagedSchema([
        `petkit_schema_version holds no version, yet ${names} ${present.length === 1 ? 'is' : 'are'} there`,
      ]);
    }
  }
  for (const migration of MIGRATIONS.slice(found)) {
    try {
      await client.query({ text: migration });
    } catch (error) {
      if (!mayBeSchemaError(error)) throw error;
      throw damagedSchema(
        [`bringing them from version ${found} to ${SCHEMA_VERSION} failed: ${(error as Error).message}`],
        error,
      );
    }
  }
  await client.query({
    text: `INSERT INTO petkit_schema_version (version) VALUES ($1)
           ON CONFLICT (singleton) DO UPDATE SET version = excluded.version`,
    values: [SCHEMA_VERSION],
  });
  // Tables damaged since they were made (a table dropped, a column of another type): refused here,
  // before a request meets them.
  const faults = await schemaFaults(client);
  if (faults.length > 0) throw damagedSchema(faults);
  return found;
}

/** How often a replica serving requests checks its tables again (a check is one catalog read). */
export const SCHEMA_CHECK_MS = 5_000;

export interface SchemaGuardOptions {
  /** How often the tables are checked while statements run. Default SCHEMA_CHECK_MS. */
  readonly everyMs?: number;
  /** The real time, for when a check is due (a test's clock). Default Date.now. */
  readonly now?: () => number;
}

/**
 * The database, its tables' damage told as what it is. A statement that fails on it (a table or column
 * gone) has the tables checked at once; damage that makes no statement fail (a one-row table emptied,
 * whose UPDATE then changes nothing and a create answered 507; a key dropped) is found by the check
 * that the first statement after each `everyMs` waits for. Once found, every statement fails with it, in words
 * (a 503, logged once), not as a fault of petkit's (a 500 and a log line per request, while
 * /__petkit/health said ok), until a check finds the tables whole again (restored). One check at a
 * time, shared by the statements that wait for it; an error it does not explain stays what it is.
 */
export function guardSchema(
  database: Database,
  options: SchemaGuardOptions = {},
): Database & { check(): Promise<void> } {
  const everyMs = options.everyMs ?? SCHEMA_CHECK_MS;
  const now = options.now ?? Date.now;
  let damage: StateSchemaError | undefined;
  // migrate() has just checked them.
  let checkedAt = now();
  let checking: Promise<StateSchemaError | undefined> | undefined;
  const check = (): Promise<StateSchemaError | undefined> => {
    checking ??= schemaFaults(database)
      .then((found) => {
        damage = found.length > 0 ? damagedSchema(found) : undefined;
        return damage;
      })
      .finally(() => {
        checkedAt = now();
        checking = undefined;
      });
    return checking;
  };
  /** A statement's error, or the damage that explains it. */
  const explained = async (error: unknown): Promise<never> => {
    // A lost connection is already said (StateUnavailableError); any other error of the server's
    // may be the tables'.
    if (!(error instanceof pg.DatabaseError) || isConnectionError(error)) throw error;
    let found: StateSchemaError | undefined;
    try {
      found = await check();
    } catch (checkError) {
      // The database lost meanwhile says more than the statement's error.
      throw checkError instanceof StateUnavailableError ? checkError : error;
    }
    throw found ?? error;
  };
  /** Checked first when a check is due or under way, or damage was found; else the statement alone. */
  const due = (): boolean => checking !== undefined || now() - checkedAt >= everyMs;
  const afterCheck = async <T>(run: () => Promise<T>): Promise<T> => {
    // Due, or under way: the statement waits for it (a catalog read, every few seconds).
    if (due()) await check().catch(() => undefined);
    if (damage !== undefined) throw damage;
    return run().catch(explained);
  };
  const guarded = <T>(run: () => Promise<T>): Promise<T> =>
    damage === undefined && !due() ? run().catch(explained) : afterCheck(run);
  return {
    query: <Row extends pg.QueryResultRow>(config: Statement) => guarded(() => database.query<Row>(config)),
    transaction: <T>(work: (client: TransactionClient) => Promise<T>) =>
      guarded(() => database.transaction(work)),
    bulkTimeoutMs: (pets) => database.bulkTimeoutMs(pets),
    end: () => database.end(),
    async check() {
      const found = await check();
      if (found !== undefined) throw found;
    },
  };
}

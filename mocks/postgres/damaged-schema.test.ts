// petkit's tables damaged under a running replica (a table dropped or renamed, a column gone or of
// another type, a key dropped, a one-row table emptied, another petkit's version): every request and
// /__petkit/health answer 503 state_unavailable saying what is wrong and what to do, the log says so
// once, and a replica started on such tables refuses them with the same words.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/support/postgres/database.js';
import type { KeysFile } from '../keys.js';
import { createMock, type Mock } from '../mock.js';
import { checkedRequest, withKey } from '../test-helpers.js';
import { connectState } from './connect.js';
import { createDatabase } from './database.js';
import { StateConfigError } from './errors.js';
import { StateSchemaError as PublicStateSchemaError } from './index.js';
import { DROP_TABLES_SQL, guardSchema, SCHEMA_VERSION } from './schema.js';
import { freshReplicasIn, type Replicas } from './test-helpers.js';

const KEYS: KeysFile = {
  keys: [{ key: 'roomy', plan: 'enterprise', perMinute: 100_000, perDay: 10_000_000 }],
};

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

const freshReplicas = () => freshReplicasIn(database);

async function sql(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A mock on a fresh shared state, seeded and answering, and what it logs as errors. */
async function servingMock(): Promise<{ mock: Mock; url: string; errors: string[]; replicas: Replicas }> {
  const replicas = await freshReplicas();
  const errors: string[] = [];
  const logger = { info: () => undefined, error: (line: string) => errors.push(line) };
  const mock = createMock({ keys: KEYS, pets: 3, state: await replicas.connect(), logger });
  expect((await checkedRequest(mock, '/v1/pets/1', withKey('roomy'))).status).toBe(200);
  return { mock, url: replicas.url, errors, replicas };
}

const told = (faults: string) =>
  `The mock's shared state cannot be served: its tables in the state database are damaged (${faults}). petkit does not rebuild them by itself`;

/** Each kind of damage: the SQL that makes it, and the fault the 503 names. */
const DAMAGES = [
  { sql: 'DROP TABLE petkit_pets', fault: 'table petkit_pets is missing' },
  { sql: 'ALTER TABLE petkit_pets RENAME TO petkit_pets_old', fault: 'table petkit_pets is missing' },
  { sql: 'ALTER TABLE petkit_pets DROP COLUMN json', fault: 'column petkit_pets.json is missing' },
  {
    sql: 'ALTER TABLE petkit_pets ALTER COLUMN json TYPE jsonb USING json::jsonb',
    fault: 'column petkit_pets.json is jsonb, not text',
  },
  { sql: 'DROP TABLE petkit_rate_buckets', fault: 'table petkit_rate_buckets is missing' },
  {
    sql: 'ALTER TABLE petkit_rate_buckets DROP CONSTRAINT petkit_rate_buckets_pkey',
    fault: 'table petkit_rate_buckets has no primary key',
  },
  { sql: 'DELETE FROM petkit_store', fault: 'table petkit_store has 0 rows, not 1' },
  { sql: 'DROP TABLE petkit_rules', fault: 'table petkit_rules is missing' },
  {
    sql: `ALTER TABLE petkit_pets ADD COLUMN owner text NOT NULL DEFAULT 'x'; ALTER TABLE petkit_pets ALTER COLUMN owner DROP DEFAULT`,
    fault: "column petkit_pets.owner is not petkit's, and NOT NULL with no default",
  },
  {
    sql: `UPDATE petkit_schema_version SET version = ${SCHEMA_VERSION + 1}`,
    fault: `petkit_schema_version says version ${SCHEMA_VERSION + 1}, and this petkit's is ${SCHEMA_VERSION} (a petkit of another version migrated them: run every replica with one version of petkit)`,
  },
];

describe('petkit’s tables damaged under a running replica', () => {
  it.each(DAMAGES)('$sql: health, then every request, answer 503 naming it, logged once', async (damage) => {
    const { mock, url, errors } = await servingMock();
    await sql(url, damage.sql);
    const checked = [
      await checkedRequest(mock, '/__petkit/health'),
      await checkedRequest(mock, '/v1/pets/1', withKey('roomy')),
      await checkedRequest(mock, '/v1/pets', withKey('roomy', { json: { name: 'Rex', categoryId: 1 } })),
      await checkedRequest(mock, '/v1/pets', withKey('roomy')),
      await checkedRequest(mock, '/__petkit/reset', { method: 'POST' }),
    ];
    for (const response of checked) {
      expect(response.status).toBe(503);
      expect(response.json).toMatchObject({ code: 'state_unavailable', status: 503 });
      const { message } = response.json as { message: string };
      expect(message.startsWith(told(damage.fault))).toBe(true);
      expect(message).toContain(DROP_TABLES_SQL);
    }
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(damage.fault);
    expect(errors[0]).toMatch(/; answering 503 until it is back$/);
  });

  it('answers 503 from the request that meets a dropped table, before any health check, with one log line for many requests', async () => {
    const { mock, url, errors } = await servingMock();
    await sql(url, 'DROP TABLE petkit_pets');
    for (let i = 0; i < 5; i += 1) {
      const response = await checkedRequest(mock, '/v1/pets/1', withKey('roomy'));
      expect(response.status).toBe(503);
      expect((response.json as { message: string }).message).toMatch(
        /^The mock's shared state cannot be served: its tables in the state database are damaged \(table petkit_pets is missing\)\./,
      );
    }
    expect(errors).toHaveLength(1);
  });

  it('serves again once the tables are restored, and says so', async () => {
    const { mock, url, errors } = await servingMock();
    await sql(url, 'ALTER TABLE petkit_pets RENAME TO petkit_pets_old');
    expect((await checkedRequest(mock, '/__petkit/health')).status).toBe(503);
    await sql(url, 'ALTER TABLE petkit_pets_old RENAME TO petkit_pets');
    expect((await checkedRequest(mock, '/__petkit/health')).status).toBe(200);
    const back = await checkedRequest(mock, '/v1/pets/1', withKey('roomy'));
    expect(back.status).toBe(200);
    expect(errors.at(-1)).toBe('petkit mock: the shared state is back; answering again');
  });

  it('finds damage no statement fails on (a one-row table emptied) by the check the first statement after its interval waits for', async () => {
    const replicas = await freshReplicas();
    await replicas.connect();
    let now = 0;
    const guarded = guardSchema(
      createDatabase({
        url: replicas.url,
        poolSize: 2,
        connectTimeoutMs: 5_000,
        queryTimeoutMs: 10_000,
        logger: { info: () => undefined, error: () => undefined },
      }),
      { everyMs: 1_000, now: () => now },
    );
    onTestFinished(() => guarded.end());
    await sql(replicas.url, 'DELETE FROM petkit_store');
    // An UPDATE of no row fails nothing: without the check, a create would be answered 507.
    const update = () =>
      guarded.query({ text: 'UPDATE petkit_store SET last_id = last_id + 1 RETURNING last_id' });
    expect((await update()).rows).toEqual([]);
    now = 1_000;
    // Due: this statement waits for the check, and is refused by it.
    await expect(update()).rejects.toThrow(/table petkit_store has 0 rows, not 1/);
  });
});

describe('a privilege petkit uses revoked from the state URL’s user', () => {
  it('answers 503 naming it, where each request was a 500 with a log line', async () => {
    const replicas = await freshReplicas();
    const schema = /search_path%3D(\w+)/.exec(replicas.url)?.[1] as string;
    const role = `${schema}_user`;
    await database.admin(`CREATE ROLE ${role} LOGIN`);
    // Its grants in this database, then the role itself (cluster-wide).
    onTestFinished(async () => {
      await sql(replicas.url, `DROP OWNED BY ${role}`);
      await database.admin(`DROP ROLE ${role}`);
    });
    await sql(replicas.url, `GRANT ALL ON SCHEMA ${schema} TO ${role}`);
    await replicas.connect();
    await sql(replicas.url, `GRANT SELECT, UPDATE ON ALL TABLES IN SCHEMA ${schema} TO ${role}`);
    const url = replicas.url.replace(/^postgres:\/\/[^@]+@/, `postgres://${role}@`);
    const errors: string[] = [];
    const logger = { info: () => undefined, error: (line: string) => errors.push(line) };
    const state = await connectState(url).catch((error: Error) => error);
    // Refused at start: the user cannot write the pets.
    expect(state).toBeInstanceOf(StateConfigError);
    expect((state as Error).message).toContain(
      "the state URL's user may not SELECT, INSERT, UPDATE, DELETE, TRUNCATE on table petkit_pets (GRANT them)",
    );
    // Granted, it serves; revoked under it, it says so.
    await sql(replicas.url, `GRANT ALL ON ALL TABLES IN SCHEMA ${schema} TO ${role}`);
    const shared = await connectState(url);
    onTestFinished(() => shared.close());
    const mock = createMock({ keys: KEYS, pets: 3, state: shared, logger });
    expect((await checkedRequest(mock, '/v1/pets/1', withKey('roomy'))).status).toBe(200);
    await sql(replicas.url, `REVOKE INSERT ON petkit_pets FROM ${role}`);
    for (let i = 0; i < 3; i += 1) {
      const created = await checkedRequest(
        mock,
        '/v1/pets',
        withKey('roomy', { json: { name: 'Rex', categoryId: 1 } }),
      );
      expect(created.status).toBe(503);
      expect((created.json as { message: string }).message).toContain(
        "the state URL's user may not SELECT, INSERT, UPDATE, DELETE, TRUNCATE on table petkit_pets (GRANT them)",
      );
    }
    expect(errors).toHaveLength(1);
  });
});

describe('a replica started on damaged tables', () => {
  it('refuses them, naming each fault and what to do', async () => {
    const replicas = await freshReplicas();
    await replicas.connect();
    await sql(replicas.url, 'DROP TABLE petkit_pets; ALTER TABLE petkit_control DROP COLUMN next_rule');
    const failure = replicas.connect();
    await expect(failure).rejects.toThrow(StateConfigError);
    const message = await failure.catch((error: Error) => error.message);
    expect(message).toMatch(
      /^The state database at postgres:\/\/.* holds petkit's tables damaged \(table petkit_pets is missing; column petkit_control\.next_rule is missing\)\. petkit does not rebuild them by itself/,
    );
    expect(message).toContain(DROP_TABLES_SQL);
    // What it says to do works: the next replica creates them afresh.
    await sql(replicas.url, DROP_TABLES_SQL);
    const fresh = createMock({ keys: KEYS, pets: 3, state: await replicas.connect() });
    expect((await checkedRequest(fresh, '/v1/pets/3', withKey('roomy'))).status).toBe(200);
  });

  it('refuses tables whose version row is gone, where the first migration failed on a table that is there', async () => {
    const replicas = await freshReplicas();
    await replicas.connect();
    await sql(replicas.url, 'DROP TABLE petkit_schema_version');
    const failure = replicas.connect();
    await expect(failure).rejects.toThrow(StateConfigError);
    await expect(failure).rejects.toThrow(
      /holds petkit's tables damaged \(petkit_schema_version holds no version, yet petkit_control, petkit_pets, petkit_rate_buckets, petkit_rules, petkit_store are there\)/,
    );
  });
});

describe('state.check()', () => {
  it('rejects with a StateSchemaError listing the faults, from petkit/postgres, and resolves once they are mended', async () => {
    const replicas = await freshReplicas();
    const state = await replicas.connect();
    await expect(state.check()).resolves.toBeUndefined();
    await sql(replicas.url, 'ALTER TABLE petkit_rules RENAME TO petkit_rules_old');
    const failure = await state.check().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PublicStateSchemaError);
    expect((failure as InstanceType<typeof PublicStateSchemaError>).faults).toEqual([
      'table petkit_rules is missing',
    ]);
    await sql(replicas.url, 'ALTER TABLE petkit_rules_old RENAME TO petkit_rules');
    await expect(state.check()).resolves.toBeUndefined();
  });
});

// connectState(url): what a replica calls at start when its state lives in PostgreSQL. It checks the
// URL, reaches the database (or fails with one line saying why), brings the schema up to date,
// subscribes to resets, and answers the shared store, the shared rate limiter and the whole-state
// operations (seed, reset). Options are normalised here, once.
import { randomUUID } from 'node:crypto';
import type { NewPet } from '../../openapi/index.js';
import { REAL_TIME } from '../clock.js';
import { DEFAULT_MAX_PETS, type Logger, silentLogger } from '../options.js';
import type { ControlStore, ControlView, MockState } from '../state.js';
import { describeError } from './connection-errors.js';
import { createDatabase, type Database } from './database.js';
import { StateConfigError, StateUnavailableError } from './errors.js';
import { openResetChannel, RESET_CHANNEL, RESET_PAYLOAD_SQL, type ResetListener } from './reset-channel.js';
import { migrate } from './schema.js';
import { createSharedRateLimiter, type SharedRateLimiter } from './shared-rate-limiter.js';
import { createSharedStore, replacePets, type SharedStore } from './shared-store.js';

export interface StateOptions {
  /** Most pets the store holds; create answers undefined beyond. Default 100,000 (as the mock's). */
  maxPets?: number;
  /** Connections this replica keeps to the database. Default 10. */
  poolSize?: number;
  /**
   * How long to wait for a connection (a new one, or a free one of the pool under load) before the
   * database counts as unavailable. Default 5,000 ms.
   */
  connectTimeoutMs?: number;
  /** Where lost and recovered connections are reported. Default: silent. */
  logger?: Logger;
}

interface NormalizedStateOptions {
  readonly url: string;
  readonly maxPets: number;
  readonly poolSize: number;
  readonly connectTimeoutMs: number;
  readonly logger: Logger;
}

export const DEFAULT_POOL_SIZE = 10;
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

/** The MockState of a replica whose state lives in PostgreSQL, shared with every other replica on it. */
export interface SharedState extends MockState {
  readonly store: SharedStore;
  /** One limiter for every bucket: the caller keeps key buckets and address buckets apart by id. */
  readonly limiter: SharedRateLimiter;
  /**
   * Stores `pets` as the first pets (ids from 1) unless the shared state was seeded or reset before:
   * the first replica to start seeds it, the others join it as it is. Answers whether this call seeded.
   */
  seed(pets: readonly NewPet[]): Promise<boolean>;
  /**
   * Back to `pets` (ids from 1) with every rate-limit bucket empty, in one transaction, then every
   * replica's onReset listeners run (this one's too, with `local` true). What POST /__petkit/reset
   * does; store.clear() and limiter.reset() alone tell no other replica.
   */
  reset(pets: readonly NewPet[]): Promise<void>;
  /**
   * Runs `listener` on every reset by any replica (one missed while the reset channel was down, when it
   * is back), and with kind 'reconnected' when the channel comes back after a loss.
   */
  onReset(listener: ResetListener): () => void;
  /** This replica's id, as its resets carry it. */
  readonly replicaId: string;
  /** The state URL with its password hidden, for messages. */
  readonly url: string;
  /** Ends the reset channel and the pool (once: later calls answer the same promise). */
  close(): Promise<void>;
}

/** The URL with its password hidden, for messages. */
function redact(url: URL): string {
  const shown = new URL(url.href);
  if (shown.password !== '') shown.password = '***';
  return shown.href;
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new StateConfigError(`State option ${name} must be a positive integer, got ${value}.`);
  }
  return value;
}

function normalize(url: string, options: StateOptions): NormalizedStateOptions & { shown: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new StateConfigError('The state URL must look like postgres://user:password@host:5432/database.');
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new StateConfigError(
      `The state URL must start with postgres:// (got ${parsed.protocol}//…): petkit keeps shared state in PostgreSQL.`,
    );
  }
  return {
    url,
    shown: redact(parsed),
    maxPets: positiveInteger('maxPets', options.maxPets ?? DEFAULT_MAX_PETS),
    poolSize: positiveInteger('poolSize', options.poolSize ?? DEFAULT_POOL_SIZE),
    connectTimeoutMs: positiveInteger(
      'connectTimeoutMs',
      options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    ),
    logger: options.logger ?? silentLogger,
  };
}

/**
 * Connects a replica to the shared state at `url`. Rejects with StateConfigError for a URL that is not
 * postgres:// or a schema from a newer petkit, and with StateUnavailableError (its message one line,
 * naming the database, the password hidden) when the database cannot be reached.
 */
export async function connectState(url: string, options: StateOptions = {}): Promise<SharedState> {
  const normalized = normalize(url, options);
  const { maxPets } = normalized;
  const replicaId = randomUUID();
  const database = createDatabase(normalized);
  let channel: Awaited<ReturnType<typeof openResetChannel>>;
  try {
    await database.transaction((client) => migrate(client));
    channel = await openResetChannel({ ...normalized, replicaId });
  } catch (error) {
    await database.end().catch(() => undefined);
    if (!(error instanceof StateUnavailableError)) throw error;
    // One line: what could not be reached, and the driver's reason.
    const reason = describeError(error.cause).replace(/\s+/g, ' ');
    throw new StateUnavailableError(`Cannot reach the state database at ${normalized.shown}: ${reason}`, {
      cause: error.cause,
    });
  }

  let closing: Promise<void> | undefined;
  return {
    store: createSharedStore(database, maxPets),
    limiter: createSharedRateLimiter(database),
    control: realTimeControl(),
    replicaId,
    url: normalized.shown,
    seed: (pets) => seed(database, pets, maxPets),
    async reset(pets) {
      const generation = await database.transaction(async (client) => {
        // petkit_pets first (see the lock order in shared-store.ts).
        await replacePets(client, pets, maxPets);
        await client.query({ text: 'TRUNCATE petkit_rate_buckets' });
        const { rows } = await client.query<{ generation: string }>({
          text: `UPDATE petkit_store SET seeded = true, reset_generation = reset_generation + 1
                 RETURNING reset_generation AS generation`,
        });
        const generation = Number(rows[0]?.generation);
        // Delivered to every listening replica when the transaction commits.
        await client.query({
          text: `SELECT pg_notify('${RESET_CHANNEL}', ${RESET_PAYLOAD_SQL})`,
          values: [replicaId, generation],
        });
        return generation;
      });
      // This replica's listeners hear of it now, even with its reset channel down.
      channel.committed(generation);
    },
    onReset: (listener) => channel.onReset(listener),
    close() {
      closing ??= channel.close().finally(() => database.end());
      return closing;
    },
  };
}

async function seed(database: Database, pets: readonly NewPet[], maxPets: number): Promise<boolean> {
  return database.transaction(async (client) => {
    // Taken before the store's row, as every writer of pets does; a second replica waits here and
    // then finds the state seeded.
    await client.query({ text: 'LOCK TABLE petkit_pets IN ACCESS EXCLUSIVE MODE' });
    const { rows } = await client.query<{ seeded: boolean }>({
      text: 'SELECT seeded FROM petkit_store FOR UPDATE',
    });
    if (rows[0]?.seeded === true) return false;
    await replacePets(client, pets, maxPets);
    await client.query({ text: 'UPDATE petkit_store SET seeded = true' });
    return true;
  });
}

/** i21 contract: no rules and real time until i21-state writes the shared control (shared-control.ts). */
function realTimeControl(): ControlStore {
  const view: ControlView = { version: 0, clock: REAL_TIME, rules: [] };
  const notYet = (): Promise<never> => Promise.reject(new Error('i21: not yet'));
  return {
    view: () => view,
    last: view,
    arm: notYet,
    list: notYet,
    enable: notYet,
    disarm: notYet,
    fire: notYet,
    setClock: notYet,
  };
}

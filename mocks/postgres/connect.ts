// connectState(url): what a replica calls at start when its state lives in PostgreSQL. It checks the
// URL, reaches the database (or fails with one line saying why), brings the schema up to date,
// subscribes to resets, and answers the shared store, the shared rate limiter, the shared control
// store (rules and clock) and the whole-state operations (seed, reset). Options are normalised here,
// once.
import { randomUUID } from 'node:crypto';
import type { NewPet } from '../../openapi/index.js';
import { DEFAULT_MAX_PETS, type Logger, silentLogger } from '../options.js';
import type { StoredRule } from '../rules.js';
import type { MockState } from '../state.js';
import { describeError } from './connection-errors.js';
import { createDatabase, type Database, urlProblem } from './database.js';
import { StateConfigError, StateSchemaError, StateUnavailableError } from './errors.js';
import { openResetChannel, RESET_CHANNEL, RESET_PAYLOAD_SQL, type ResetListener } from './reset-channel.js';
import { damagedAtStart, guardSchema, migrate } from './schema.js';
import {
  armSeededRules,
  type ControlCache,
  clearControl,
  openSharedControl,
  type SharedControl,
} from './shared-control.js';
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
  /**
   * How long one statement may wait for the database's answer before the database counts as
   * unavailable (a server that stopped answering: frozen, or a network that drops its packets, where no
   * connection ends and a request would wait for ever). Its connection is then closed, not reused.
   * Default 10,000 ms: a reset reseeding 100,000 pets takes well under it.
   */
  queryTimeoutMs?: number;
  /** Where lost and recovered connections are reported. Default: silent. */
  logger?: Logger;
}

interface NormalizedStateOptions {
  /** The URL as pg reads it (an sslmode pg would warn of spelled as what it means: see sslNote). */
  readonly url: string;
  readonly maxPets: number;
  readonly poolSize: number;
  readonly connectTimeoutMs: number;
  readonly queryTimeoutMs: number;
  readonly logger: Logger;
}

export const DEFAULT_POOL_SIZE = 10;
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
export const DEFAULT_QUERY_TIMEOUT_MS = 10_000;

/** The MockState of a replica whose state lives in PostgreSQL, shared with every other replica on it. */
export interface SharedState extends MockState {
  readonly store: SharedStore;
  /** One limiter for every bucket: the caller keeps key buckets and address buckets apart by id. */
  readonly limiter: SharedRateLimiter;
  /** The armed rules and the mock's clock, one for every replica. */
  readonly control: SharedControl;
  /**
   * Stores `pets` as the first pets (ids from 1), and arms `rules` (r1, r2…), unless the shared state
   * was seeded or reset before: the first replica to start seeds it, the others join it as it is.
   * Answers whether this call seeded.
   */
  seed(pets: readonly NewPet[], rules?: readonly StoredRule[]): Promise<boolean>;
  /**
   * Back to `pets` (ids from 1) with every rate-limit bucket empty, no rule armed and the clock at
   * real time (rule ids from r1 again), in one transaction, then every
   * replica's onReset listeners run (this one's too, with `local` true). What POST /__petkit/reset
   * does; store.clear() and limiter.reset() alone tell no other replica.
   */
  reset(pets: readonly NewPet[]): Promise<void>;
  /**
   * Runs `listener` on every reset by any replica (one missed while the reset channel was down, when it
   * is back), and with kind 'reconnected' when the channel comes back after a loss.
   */
  onReset(listener: ResetListener): () => void;
  /** Rejects with StateSchemaError, saying what is wrong, when petkit's tables are damaged. */
  check(): Promise<void>;
  /** This replica's id, as its resets carry it. */
  readonly replicaId: string;
  /** The state URL with its password hidden, for messages. */
  readonly url: string;
  /** Ends the reset channel and the pool (once: later calls answer the same promise). */
  close(): Promise<void>;
}

/** The query parameters of a state URL that pg reads as a secret: the password, the key's passphrase. */
const SECRET_PARAMETERS = /([?&](?:password|sslpassword)=)[^&#]*/gi;

/** The URL with its password hidden (in its userinfo, or a ?password= pg reads as well), for messages. */
function redact(url: URL): string {
  const shown = new URL(url.href);
  if (shown.password !== '') shown.password = '***';
  return shown.href.replace(SECRET_PARAMETERS, '$1***');
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new StateConfigError(`State option ${name} must be a positive integer, got ${value}.`);
  }
  return value;
}

/** What libpq means by each sslmode that pg 8 reads as verify-full (and warns of, over nine lines). */
const LIBPQ_SSLMODES: Readonly<Record<string, string>> = {
  prefer: 'libpq would use SSL only if the server offers it, and verify nothing',
  require: 'libpq would encrypt without verifying the certificate',
  'verify-ca': 'libpq would verify the certificate but not the host name',
};

/**
 * pg 8 reads sslmode prefer, require and verify-ca as verify-full, and says so with a process warning
 * of nine lines (once a process). The URL pg is given spells it verify-full, which is what pg does
 * anyway, so pg says nothing, and `note` says it in one line, password never in it. None for any
 * other URL (no sslmode, disable, verify-full, no-verify, or uselibpqcompat=true: libpq's meaning).
 */
function sslModeNote(url: string, parsed: URL): { url: string; note?: string } {
  const mode = parsed.searchParams.get('sslmode') ?? '';
  const meaning = Object.hasOwn(LIBPQ_SSLMODES, mode) ? LIBPQ_SSLMODES[mode] : undefined;
  if (meaning === undefined || parsed.searchParams.get('uselibpqcompat') === 'true') return { url };
  const spelled = url.replace(/([?&])sslmode=[^&#]*/g, '$1sslmode=verify-full');
  // A spelling the replacement missed (percent-encoded): pg's own warning rather than another mode.
  if (new URL(spelled).searchParams.get('sslmode') !== 'verify-full') return { url };
  return {
    url: spelled,
    note:
      `petkit state: sslmode=${mode} in the state URL is read as verify-full by the pg client: SSL is required, ` +
      `and the server's certificate and host name verified (${meaning}); write sslmode=verify-full to say so, ` +
      `sslmode=no-verify to encrypt without verifying, uselibpqcompat=true&sslmode=${mode} for libpq's meaning, ` +
      'or sslmode=disable for a server without SSL.',
  };
}

/**
 * Why a state URL is no URL at all, never quoting it (its password is in it, and where the URL breaks
 * the password cannot be told from the rest): a port past 65535 is named, the rest is what users
 * meet most, a password with `@`, `#` or `/` in it written as it is.
 */
function unreadableUrl(url: string): string {
  const form = 'it must look like postgres://user:password@host:5432/database';
  // The authority's last `:digits` before the path: the port, if the URL broke on it.
  const port = /^[a-z]+:\/\/[^/?#]*:(\d+)(?:[/?#]|$)/i.exec(url)?.[1];
  if (port !== undefined && Number(port) > 65535)
    return `The state URL cannot be read: its port ${port} is past 65535 (${form}).`;
  return (
    `The state URL cannot be read (${form}): a user name or password with @ : / ? # or % in it ` +
    'must have them percent-encoded (encodeURIComponent), and the port must be a number from 1 to 65535.'
  );
}

function normalize(
  url: string,
  options: StateOptions,
): NormalizedStateOptions & { shown: string; sslNote: string | undefined } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new StateConfigError(unreadableUrl(url));
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new StateConfigError(
      `The state URL must start with postgres:// (got ${parsed.protocol}//…): petkit keeps shared state in PostgreSQL.`,
    );
  }
  const ssl = sslModeNote(url, parsed);
  const problem = urlProblem(ssl.url);
  if (problem !== undefined) {
    throw new StateConfigError(
      `The state URL ${redact(parsed)} cannot be read by the pg client: ${problem.replace(/\s+/g, ' ')}`,
    );
  }
  return {
    url: ssl.url,
    sslNote: ssl.note,
    shown: redact(parsed),
    maxPets: positiveInteger('maxPets', options.maxPets ?? DEFAULT_MAX_PETS),
    poolSize: positiveInteger('poolSize', options.poolSize ?? DEFAULT_POOL_SIZE),
    connectTimeoutMs: positiveInteger(
      'connectTimeoutMs',
      options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    ),
    queryTimeoutMs: positiveInteger('queryTimeoutMs', options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS),
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
  if (normalized.sslNote !== undefined) normalized.logger.error(normalized.sslNote);
  const { maxPets } = normalized;
  const replicaId = randomUUID();
  const database = guardSchema(createDatabase(normalized));
  let channel: Awaited<ReturnType<typeof openResetChannel>>;
  let cache: ControlCache;
  try {
    await database.transaction((client) => migrate(client));
    cache = await openSharedControl(database);
    channel = await openResetChannel({ ...normalized, replicaId });
  } catch (error) {
    await database.end().catch(() => undefined);
    if (error instanceof StateSchemaError) throw damagedAtStart(normalized.shown, error.faults);
    if (!(error instanceof StateUnavailableError)) throw error;
    // One line: what could not be reached, and the driver's reason.
    const reason = describeError(error.cause).replace(/\s+/g, ' ');
    throw new StateUnavailableError(`Cannot reach the state database at ${normalized.shown}: ${reason}`, {
      cause: error.cause,
    });
  }

  // A reset by another replica (or one missed while the channel was down) changed the rules and the
  // clock: the next view() reads them again. The limiter's version check would catch it anyway; this
  // keeps the control API's reads (which do not go through the limiter) fresh too. This replica's own
  // reset left its view as the reset made it.
  channel.onReset((event) => {
    if (!event.local) cache.invalidate();
  });

  let closing: Promise<void> | undefined;
  /** One reset's transaction: the pets replaced, the buckets and rules cleared, every replica told. */
  const resetOnce = async (pets: readonly NewPet[]): Promise<void> => {
    const { generation, view } = await database.transaction(async (client) => {
      // petkit_pets first (see the lock order in shared-store.ts), then the control row.
      await replacePets(client, pets, maxPets, database.bulkTimeoutMs(Math.min(pets.length, maxPets)));
      await client.query({ text: 'TRUNCATE petkit_rate_buckets' });
      const view = await clearControl(client);
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
      return { generation, view };
    });
    cache.adopt(view);
    // This replica's listeners hear of it now, even with its reset channel down.
    channel.committed(generation);
  };
  // A replica runs one reset at a time: resets asked together (a test run whose workers each reset
  // before their tests) each held a connection while waiting for the pets' lock, and left none for
  // the requests beside them, which failed as if the database were gone. A reset asked while another
  // runs waits for it, and shares the next with every caller asking for the same pets meanwhile: each
  // caller's reset begins after it asked, which is all a reset promises.
  let tail: Promise<unknown> = Promise.resolve();
  let queued: { readonly pets: readonly NewPet[]; done: Promise<void> } | undefined;
  return {
    store: createSharedStore(database, maxPets),
    limiter: createSharedRateLimiter(database),
    control: cache.control,
    replicaId,
    url: normalized.shown,
    seed: (pets, rules = []) => seed(database, cache, pets, rules, maxPets),
    reset(pets) {
      if (queued !== undefined && queued.pets === pets) return queued.done;
      const entry: { readonly pets: readonly NewPet[]; done: Promise<void> } = {
        pets,
        done: Promise.resolve(),
      };
      entry.done = tail.then(() => {
        // Begun: a caller from now on asks after this reset began, and waits for the next.
        if (queued === entry) queued = undefined;
        return resetOnce(pets);
      });
      queued = entry;
      tail = entry.done.catch(() => undefined);
      return entry.done;
    },
    check: () => database.check(),
    onReset: (listener) => channel.onReset(listener),
    close() {
      closing ??= channel.close().finally(() => database.end());
      return closing;
    },
  };
}

async function seed(
  database: Database,
  cache: ControlCache,
  pets: readonly NewPet[],
  rules: readonly StoredRule[],
  maxPets: number,
): Promise<boolean> {
  const seeded = await database.transaction(async (client) => {
    // Taken before the store's row, as every writer of pets does; a second replica waits here and
    // then finds the state seeded.
    // As long as that replica's seed takes (of as many pets, most likely): a statement's time and a
    // millisecond a pet.
    await client.query({
      text: 'LOCK TABLE petkit_pets IN ACCESS EXCLUSIVE MODE',
      query_timeout: database.bulkTimeoutMs(Math.min(pets.length, maxPets)),
    });
    const { rows } = await client.query<{ seeded: boolean }>({
      text: 'SELECT seeded FROM petkit_store FOR UPDATE',
    });
    if (rows[0]?.seeded === true) return false;
    await replacePets(client, pets, maxPets, database.bulkTimeoutMs(Math.min(pets.length, maxPets)));
    await client.query({ text: 'UPDATE petkit_store SET seeded = true' });
    return { view: rules.length > 0 ? await armSeededRules(client, rules) : undefined };
  });
  if (seeded === false) return false;
  if (seeded.view !== undefined) cache.adopt(seeded.view);
  return true;
}

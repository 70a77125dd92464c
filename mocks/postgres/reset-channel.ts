// How a reset through one replica reaches every other: a reset commits a NOTIFY on the channel
// petkit_reset, and each replica LISTENs on a connection of its own, outside the pool, and runs its
// onReset listeners (which drop what the replica keeps of its own: journal, caches). Channels are
// per database, while petkit's tables are per schema (search_path): the payload names the schema and
// the sending replica (RESET_PAYLOAD_SQL), and a replica hears only the resets of its own schema.
//
// A LISTEN lasts as long as its connection. When that connection is lost the replica reconnects
// (after 50 ms, doubling up to 1 s between tries, for as long as it takes) and LISTENs again. Resets
// sent meanwhile were not heard: each reset counts one more in petkit_store.reset_generation, and
// its NOTIFY carries that number, so the channel knows the last generation it told its listeners of.
// Back, it LISTENs first and then reads the generation: one that moved on was missed, and the
// listeners run once with kind 'reset' (a later NOTIFY of the same generation is not told again);
// then they run once with kind 'reconnected'. A replica's own reset is told when it commits
// (committed()), whether or not the channel is up; several resets missed together are told as one.
import pg from 'pg';
import type { Logger } from '../options.js';
import type { ResetEvent } from '../state.js';
import { describeError } from './connection-errors.js';
import { CLOSE_GRACE_MS, KEEPALIVE_DELAY_MS, type Sockets, trackSockets, unavailable } from './database.js';

export const RESET_CHANNEL = 'petkit_reset';
const FIRST_RETRY_MS = 50;
const LAST_RETRY_MS = 1_000;

/**
 * The NOTIFY payload of a reset: SQL for the reset's transaction, $1 the sending replica's id, $2 the
 * reset's generation.
 */
export const RESET_PAYLOAD_SQL =
  "json_build_object('schema', current_schema(), 'replica', $1::text, 'generation', $2::bigint)::text";

interface ResetPayload {
  readonly schema?: unknown;
  readonly replica?: unknown;
  readonly generation?: unknown;
}

/** The payload of a NOTIFY on the channel, or undefined for one petkit did not send. */
function parsePayload(text: string | undefined): ResetPayload | undefined {
  try {
    const payload: unknown = JSON.parse(text ?? '');
    return typeof payload === 'object' && payload !== null ? payload : undefined;
  } catch {
    return undefined;
  }
}

export type { ResetEvent } from '../state.js';

export type ResetListener = (event: ResetEvent) => void;

export interface ResetChannel {
  /** Runs `listener` on every reset by any replica; answers the function that removes it. */
  onReset(listener: ResetListener): () => void;
  /** This replica's reset committed as `generation`: tells the listeners now, unless already told. */
  committed(generation: number): void;
  close(): Promise<void>;
}

export interface ResetChannelOptions {
  readonly url: string;
  readonly connectTimeoutMs: number;
  /** How long subscribing's statements may go unanswered before the channel counts as lost. */
  readonly queryTimeoutMs: number;
  readonly logger: Logger;
  /** This replica's id, as its resets carry it. */
  readonly replicaId: string;
}

/** Connects and LISTENs; rejects with StateUnavailableError when the database cannot be reached. */
export async function openResetChannel(options: ResetChannelOptions): Promise<ResetChannel> {
  const { logger, replicaId } = options;
  const listeners = new Set<ResetListener>();
  let client: pg.Client | undefined;
  /** Each connection's socket (see trackSockets), so that ending one can end it for good. */
  const socketsOf = new WeakMap<pg.Client, Sockets>();
  /** The ends under way: close() waits for them, so that no socket outlives it. */
  const ends = new Set<Promise<void>>();
  /** Ends a connection: politely, and for good once CLOSE_GRACE_MS has passed without its server's word. */
  const end = (which: pg.Client): Promise<void> => {
    const sockets = socketsOf.get(which);
    const polite = which.end();
    const ending = (sockets === undefined ? polite : sockets.endWithin(polite, CLOSE_GRACE_MS)).catch(
      () => undefined,
    );
    ends.add(ending);
    void ending.finally(() => ends.delete(ending));
    return ending;
  };
  let retry: NodeJS.Timeout | undefined;
  let failures = 0;
  let closed = false;
  /** The schema this replica's tables are in, as the payloads name it. */
  let schema: string | undefined;
  /** The last reset generation the listeners were told of (or found at start). */
  let told = 0;

  const emit = (event: ResetEvent): void => {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        logger.error(`petkit state: a reset listener failed: ${describeError(error)}`);
      }
    }
  };

  /** Tells the listeners of reset `generation` unless they know of it or of a later one. */
  const tell = (generation: number, local: boolean): void => {
    if (generation <= told) return;
    told = generation;
    emit({ kind: 'reset', local });
  };

  const lost = (which: pg.Client, error: unknown): void => {
    if (which !== client || closed) return;
    client = undefined;
    void end(which);
    logger.error(`petkit state: lost the reset channel (${describeError(error)}); reconnecting`);
    scheduleRetry();
  };

  /** A connection LISTENing, and the reset generation as it stood once it did. */
  const subscribe = async (): Promise<{ client: pg.Client; generation: number }> => {
    const sockets = trackSockets();
    const next = new pg.Client({
      stream: sockets.stream,
      connectionString: options.url,
      connectionTimeoutMillis: options.connectTimeoutMs,
      query_timeout: options.queryTimeoutMs,
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
      application_name: 'petkit-reset-channel',
    });
    socketsOf.set(next, sockets);
    let failure: unknown;
    const onFailure = (error: unknown) => {
      failure ??= error;
      lost(next, error);
    };
    next.on('error', onFailure);
    next.on('end', () => onFailure(new Error('Connection terminated')));
    next.on('notification', (message) => {
      if (message.channel !== RESET_CHANNEL) return;
      const payload = parsePayload(message.payload);
      if (payload !== undefined && payload.schema === schema && typeof payload.generation === 'number') {
        tell(payload.generation, payload.replica === replicaId);
      }
    });
    try {
      await next.connect();
      const { rows } = await next.query<{ schema: string }>('SELECT current_schema() AS schema');
      schema = rows[0]?.schema;
      await next.query(`LISTEN ${RESET_CHANNEL}`);
      // After LISTEN: a reset that commits from now on is heard, one before is counted here.
      const counted = await next.query<{ generation: string }>(
        'SELECT reset_generation AS generation FROM petkit_store',
      );
      // Lost between the last answer and now: not subscribed after all.
      if (failure !== undefined) throw failure;
      return { client: next, generation: Number(counted.rows[0]?.generation ?? 0) };
    } catch (error) {
      void end(next);
      throw error;
    }
  };

  const scheduleRetry = (): void => {
    const delay = Math.min(FIRST_RETRY_MS * 2 ** failures, LAST_RETRY_MS);
    retry = setTimeout(async () => {
      retry = undefined;
      try {
        const next = await subscribe();
        if (closed) {
          await end(next.client);
          return;
        }
        client = next.client;
        failures = 0;
        logger.info('petkit state: the reset channel is back');
        // Resets while it was down: each replica's own were told as they committed.
        tell(next.generation, false);
        emit({ kind: 'reconnected', local: false });
      } catch {
        failures += 1;
        if (!closed) scheduleRetry();
      }
    }, delay);
  };

  try {
    const first = await subscribe();
    client = first.client;
    told = first.generation;
  } catch (error) {
    throw unavailable(error);
  }

  return {
    onReset(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    committed(generation) {
      tell(generation, true);
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      const last = client;
      client = undefined;
      if (last !== undefined) void end(last);
      await Promise.all(ends);
    },
  };
}

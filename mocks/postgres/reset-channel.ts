// How a reset through one replica reaches every other: a reset commits a NOTIFY on the channel
// petkit_reset, and each replica LISTENs on a connection of its own, outside the pool, and runs its
// onReset listeners (which drop what the replica keeps of its own: journal, caches). Channels are
// per database, while petkit's tables are per schema (search_path): the payload names the schema and
// the sending replica (RESET_PAYLOAD_SQL), and a replica hears only the resets of its own schema.
//
// A LISTEN lasts as long as its connection. When that connection is lost the replica reconnects
// (after 50 ms, doubling up to 1 s between tries) and LISTENs again; since a reset may have been
// missed meanwhile, the listeners then run once with kind 'reconnected', and should drop their caches
// as for a reset.
import pg from 'pg';
import type { Logger } from '../options.js';
import type { ResetEvent } from '../state.js';
import { describeError } from './connection-errors.js';
import { unavailable } from './database.js';

export const RESET_CHANNEL = 'petkit_reset';
const FIRST_RETRY_MS = 50;
const LAST_RETRY_MS = 1_000;

/** The NOTIFY payload of a reset: SQL for the reset's transaction, $1 the sending replica's id. */
export const RESET_PAYLOAD_SQL = "json_build_object('schema', current_schema(), 'replica', $1::text)::text";

interface ResetPayload {
  readonly schema?: unknown;
  readonly replica?: unknown;
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
  close(): Promise<void>;
}

export interface ResetChannelOptions {
  readonly url: string;
  readonly connectTimeoutMs: number;
  readonly logger: Logger;
  /** This replica's id, as its resets carry it. */
  readonly replicaId: string;
}

/** Connects and LISTENs; rejects with StateUnavailableError when the database cannot be reached. */
export async function openResetChannel(options: ResetChannelOptions): Promise<ResetChannel> {
  const { logger, replicaId } = options;
  const listeners = new Set<ResetListener>();
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let failures = 0;
  let closed = false;
  /** The schema this replica's tables are in, as the payloads name it. */
  let schema: string | undefined;

  const emit = (event: ResetEvent): void => {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        logger.error(`petkit state: a reset listener failed: ${describeError(error)}`);
      }
    }
  };

  const lost = (which: pg.Client, error: unknown): void => {
    if (which !== client || closed) return;
    client = undefined;
    which.end().catch(() => undefined);
    logger.error(`petkit state: lost the reset channel (${describeError(error)}); reconnecting`);
    scheduleRetry();
  };

  const subscribe = async (): Promise<pg.Client> => {
    const next = new pg.Client({
      connectionString: options.url,
      connectionTimeoutMillis: options.connectTimeoutMs,
      keepAlive: true,
      application_name: 'petkit-reset-channel',
    });
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
      if (payload !== undefined && payload.schema === schema) {
        emit({ kind: 'reset', local: payload.replica === replicaId });
      }
    });
    try {
      await next.connect();
      const { rows } = await next.query<{ schema: string }>('SELECT current_schema() AS schema');
      schema = rows[0]?.schema;
      await next.query(`LISTEN ${RESET_CHANNEL}`);
      // Lost between LISTEN's answer and now: not subscribed after all.
      if (failure !== undefined) throw failure;
    } catch (error) {
      next.end().catch(() => undefined);
      throw error;
    }
    return next;
  };

  const scheduleRetry = (): void => {
    const delay = Math.min(FIRST_RETRY_MS * 2 ** failures, LAST_RETRY_MS);
    retry = setTimeout(async () => {
      retry = undefined;
      try {
        const next = await subscribe();
        if (closed) {
          await next.end();
          return;
        }
        client = next;
        failures = 0;
        logger.info('petkit state: the reset channel is back');
        emit({ kind: 'reconnected', local: false });
      } catch {
        failures += 1;
        if (!closed) scheduleRetry();
      }
    }, delay);
  };

  try {
    client = await subscribe();
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
    async close() {
      closed = true;
      clearTimeout(retry);
      const last = client;
      client = undefined;
      await last?.end();
    },
  };
}

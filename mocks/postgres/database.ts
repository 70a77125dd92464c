// The pool of connections a replica keeps to the state database, with every failure to reach it
// turned into StateUnavailableError. pg's Pool reconnects by itself: a connection that breaks is
// dropped, and the next request opens a new one, so a replica recovers as soon as the database is
// back.
//
// A connection the server ends (a restart, pg_terminate_backend, a network cut) makes its pg.Client
// emit 'error', whether it sits idle in the pool or is checked out between two statements; an
// 'error' event that nobody listens for ends the process. The pool listens to its idle connections
// (pool.on('error')); every connection also gets a listener of its own when it is made, so that one
// checked out is covered too. The request using it learns of the loss from its next statement, which
// fails (and answers 503); the broken connection is then destroyed, not returned to the pool.
import { Socket } from 'node:net';
import pg from 'pg';
import type { Logger } from '../options.js';
import { describeError, isConnectionError } from './connection-errors.js';
import { StateUnavailableError } from './errors.js';

/**
 * When an idle connection's first TCP keepalive probe goes: a connection sits idle between requests
 * (the reset channel between resets), and a database gone with no word (a failover that leaves the old
 * address black-holed) is then found in minutes, where the system's default (two hours) left the reset
 * channel deaf to every reset meanwhile.
 */
export const KEEPALIVE_DELAY_MS = 10_000;

/**
 * The sockets of some pg connections, made here (pg's `stream` option; TLS, when asked, runs over them)
 * so that closing can end them: a polite end sends the server a goodbye and waits for it to close the
 * connection, which a frozen server, or a network that drops its packets, never does (a SIGTERM left
 * the replica running for as long as the database stayed frozen).
 */
/** How long closing waits for the server's answer to its goodbye (a live one answers in milliseconds). */
export const CLOSE_GRACE_MS = 1_000;

export interface Sockets {
  readonly stream: () => Socket;
  /**
   * Resolves once `ending` has, destroying every socket still open after `ms` so that it does; then
   * destroys any left (a connection dropped as broken, its goodbye still unanswered).
   */
  endWithin(ending: Promise<void>, ms: number): Promise<void>;
}

export function trackSockets(): Sockets {
  const open = new Set<Socket>();
  const destroyAll = () => {
    for (const socket of open) socket.destroy();
  };
  return {
    stream() {
      const socket = new Socket();
      open.add(socket);
      socket.once('close', () => open.delete(socket));
      return socket;
    },
    async endWithin(ending, ms) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), ms);
      });
      const settled = ending.then(
        () => 'ended' as const,
        () => 'ended' as const,
      );
      if ((await Promise.race([settled, late])) === 'late') destroyAll();
      clearTimeout(timer);
      try {
        await ending;
      } finally {
        destroyAll();
      }
    },
  };
}

export interface DatabaseOptions {
  readonly url: string;
  readonly poolSize: number;
  readonly connectTimeoutMs: number;
  /** pg's query_timeout: a statement unanswered this long fails, and its connection is destroyed. */
  readonly queryTimeoutMs: number;
  readonly logger: Logger;
}

/**
 * A statement, with pg's own `query_timeout` for one that may take longer than the pool's (a reset
 * writing 100,000 pets, or waiting for another replica's): pg reads it, its types do not name it.
 */
export type Statement = pg.QueryConfig & { readonly query_timeout?: number };

/** A connection inside transaction(): statements on it run in that transaction. */
export interface TransactionClient {
  query<Row extends pg.QueryResultRow>(config: Statement): Promise<pg.QueryResult<Row>>;
}

export interface Database {
  /** One statement on a pooled connection (itself atomic: pg runs it in its own transaction). */
  query<Row extends pg.QueryResultRow>(config: Statement): Promise<pg.QueryResult<Row>>;
  /**
   * The time a statement writing or waiting for `pets` pets may take: the pool's query timeout and a
   * millisecond a pet (100,000 pets take 2 to 8 s on a busy two-core machine).
   */
  bulkTimeoutMs(pets: number): number;
  /** `work` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (client: TransactionClient) => Promise<T>): Promise<T>;
  end(): Promise<void>;
}

export function unavailable(error: unknown): StateUnavailableError {
  return new StateUnavailableError(`The state database is unavailable: ${describeError(error)}`, {
    cause: error,
  });
}

/**
 * Why pg cannot read `url`, or undefined when it can. pg reads it anew for each connection, inside
 * its pool, where a throw (a ?port= that is no number, a ?sslrootcert= file that is not there) left
 * the pool's promise unsettled for ever: a replica waited on nothing and exited 0 saying nothing.
 * Making a client reads the URL as the pool will, and connects nothing; its port must be one.
 */
export function urlProblem(url: string): string | undefined {
  let port: unknown;
  try {
    ({ port } = new pg.Client({ connectionString: url }));
  } catch (error) {
    return describeError(error);
  }
  // A port pg read as NaN (?port=abc) threw in the pool's connect, where nothing caught it.
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) {
    return `its port is not a number from 1 to 65535 (${String(new URL(url).searchParams.get('port') ?? port)})`;
  }
  return undefined;
}

export function createDatabase(options: DatabaseOptions): Database {
  const sockets = trackSockets();
  const pool = new pg.Pool({
    stream: sockets.stream,
    connectionString: options.url,
    max: options.poolSize,
    connectionTimeoutMillis: options.connectTimeoutMs,
    query_timeout: options.queryTimeoutMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
    application_name: 'petkit',
  });
  // Reported once per outage: a restart ends every connection of the pool at once.
  let lossReported = false;
  /** end() was called: what the pool's connections say now is no loss. */
  let ending = false;
  const reportLoss = (error: unknown): void => {
    if (lossReported || ending) return;
    lossReported = true;
    options.logger.error(`petkit state: a pooled connection was lost (${describeError(error)})`);
  };
  pool.on('error', reportLoss);
  pool.on('connect', (client) => {
    lossReported = false;
    // Checked out or idle, a lost connection must not end the process (see above); the pool's own
    // listener, while it is idle, drops it.
    client.on('error', () => undefined);
    // The state is a mock's: a commit need not wait for the disk (a crash of the database loses at
    // most its last fraction of a second, never consistency), so no request waits for an fsync.
    client.query('SET synchronous_commit = off').catch(() => undefined);
  });

  const connect = async (): Promise<pg.PoolClient> => {
    try {
      return await pool.connect();
    } catch (error) {
      // Whatever stops a connection (refused, timed out, a password or a database the server
      // refuses) means there is no state to serve from now.
      throw unavailable(error);
    }
  };

  /** Runs `run` on a pooled connection; a connection that broke is destroyed, not reused. */
  const withClient = async <T>(run: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    const client = await connect();
    try {
      const result = await run(client);
      client.release();
      return result;
    } catch (error) {
      const lost = isConnectionError(error);
      client.release(lost ? (error as Error) : undefined);
      throw lost ? unavailable(error) : error;
    }
  };

  return {
    query: (config) => withClient((client) => client.query(config)),
    bulkTimeoutMs: (pets) => options.queryTimeoutMs + pets,
    transaction: (work) =>
      withClient(async (client) => {
        await client.query('BEGIN');
        try {
          const result = await work(client);
          await client.query('COMMIT');
          return result;
        } catch (error) {
          if (!isConnectionError(error)) await client.query('ROLLBACK');
          throw error;
        }
      }),
    end: () => {
      ending = true;
      return sockets.endWithin(pool.end(), CLOSE_GRACE_MS);
    },
  };
}

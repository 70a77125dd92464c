// Which failures of pg mean "the database is not there now" rather than a fault in a statement: the
// former become StateUnavailableError (503, retry later), the latter stay what they are (a defect).
import pg from 'pg';
import { StateSchemaError, StateUnavailableError } from './errors.js';

/**
 * SQLSTATE classes and codes of a database that cannot serve now: 08 connection exception, 53
 * insufficient resources (too many connections, disk full), 58 system error, 57P01-57P05 operator
 * intervention (shutdown, crash, cannot connect now, idle-session timeout), 57014 a statement
 * cancelled (statement_timeout, an administrator), 25006 a read-only server (a standby, as after a
 * failover), and 55000 for a database whose connections are disallowed (ALLOW_CONNECTIONS false).
 * Anything else (a deadlock, a constraint) would be a bug of petkit's, and stays a plain error.
 */
const UNAVAILABLE_CLASSES = new Set(['08', '53', '58']);
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '57P04', '57P05', '57014', '25006', '55000']);

/**
 * pg's and pg-pool's own messages when a connection ends, fails or cannot be had in time, or a
 * statement got no answer in time (query_timeout: the server stopped answering on a connection that
 * never ended; the connection, its statement still in flight, is destroyed, never reused).
 */
const CLIENT_MESSAGES =
  /^Connection terminated|not queryable|timeout exceeded when trying to connect|Connection timed out|^Query read timeout$/;

/** True when `error` says the database cannot be reached or the connection was lost. */
export function isConnectionError(error: unknown): boolean {
  // Damaged tables (schema.ts) are said as they are: the connection is sound, and kept.
  if (error instanceof StateSchemaError) return false;
  if (error instanceof StateUnavailableError) return true;
  if (error instanceof pg.DatabaseError) {
    const code = error.code ?? '';
    return UNAVAILABLE_CODES.has(code) || UNAVAILABLE_CLASSES.has(code.slice(0, 2));
  }
  if (!(error instanceof Error)) return false;
  // Node's AggregateError when every address of a host refused: its own errors say why.
  if (error instanceof AggregateError && error.errors.some(isConnectionError)) return true;
  // A socket's failure (ECONNREFUSED, ECONNRESET, ETIMEDOUT, ENOTFOUND, …).
  const { code } = error as { code?: unknown };
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return true;
  return CLIENT_MESSAGES.test(error.message);
}

/** The message of an error, or of the first of an AggregateError (Node's failed connect to every address). */
export function describeError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0 && error.message === '') {
    return describeError(error.errors[0]);
  }
  if (error instanceof Error && error.message === 'Query read timeout') {
    return 'it did not answer a statement in time (a frozen server, or a network that drops its packets)';
  }
  return error instanceof Error ? error.message : String(error);
}

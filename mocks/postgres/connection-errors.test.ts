import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { describeError, isConnectionError } from './connection-errors.js';
import { StateConfigError } from './errors.js';

function serverError(code: string, message = 'from the server'): pg.DatabaseError {
  const error = new pg.DatabaseError(message, message.length, 'error');
  error.code = code;
  return error;
}

function socketError(code: string): Error {
  return Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code, syscall: 'connect' });
}

describe('isConnectionError', () => {
  it('takes a lost, refused, overloaded, read-only or shut-down database for unavailability', () => {
    for (const code of ['08006', '08001', '53300', '57P01', '57P03', '57014', '25006', '55000', '58030']) {
      expect(isConnectionError(serverError(code)), code).toBe(true);
    }
    for (const error of [
      socketError('ECONNREFUSED'),
      socketError('ECONNRESET'),
      socketError('ENOTFOUND'),
      new AggregateError([socketError('ECONNREFUSED')], ''),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Client has encountered a connection error and is not queryable'),
    ]) {
      expect(isConnectionError(error), String(error)).toBe(true);
    }
  });

  it('leaves a fault of the statement or of petkit a plain error (a 500, not a 503)', () => {
    for (const code of ['42601', '23505', '40P01', '22003', '42P01']) {
      expect(isConnectionError(serverError(code)), code).toBe(false);
    }
    for (const error of [
      new TypeError('x is undefined'),
      new RangeError('bad'),
      new StateConfigError('no'),
      'text',
    ]) {
      expect(isConnectionError(error), String(error)).toBe(false);
    }
  });
});

describe('describeError', () => {
  it("names the first address's failure when Node failed on every address", () => {
    const error = new AggregateError([socketError('ECONNREFUSED'), socketError('ECONNREFUSED')], '');
    expect(describeError(error)).toBe('connect ECONNREFUSED 127.0.0.1:5432');
  });
});

// The errors of the shared state. StateUnavailableError is the one the core turns into 503 (code
// `state_unavailable`): the database cannot be reached or was lost mid-request, and the next request
// may well succeed. StateConfigError says the state cannot be used at all (a URL that is not
// postgres://, a schema newer than this petkit): a replica stops at start with its message.

// The state database cannot be reached now (refused, timed out, connection lost, not accepting): the
// core's own StateUnavailableError, so that it answers 503 without importing this folder.
import { StateUnavailableError } from '../state.js';

export { StateUnavailableError };

/**
 * petkit's tables in the state database are not as it made them (dropped, renamed, a column gone or
 * of another type, another petkit's version): the 503 says what is wrong, and what to do
 * (schema.ts). A kind of StateUnavailableError, so the core answers it as one, and logs it once.
 */
export class StateSchemaError extends StateUnavailableError {
  readonly faults: readonly string[];

  constructor(faults: readonly string[], message: string, options?: ErrorOptions) {
    super(message, { ...options, told: message });
    this.faults = faults;
  }
}

/** The state cannot be used with these settings: retrying will not help. */
export class StateConfigError extends Error {
  override readonly name = 'StateConfigError';
}

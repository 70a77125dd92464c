// The errors of the shared state. StateUnavailableError is the one the core turns into 503 (code
// `state_unavailable`): the database cannot be reached or was lost mid-request, and the next request
// may well succeed. StateConfigError says the state cannot be used at all (a URL that is not
// postgres://, a schema newer than this petkit): a replica stops at start with its message.

// The state database cannot be reached now (refused, timed out, connection lost, not accepting): the
// core's own StateUnavailableError, so that it answers 503 without importing this folder.
export { StateUnavailableError } from '../state.js';

/** The state cannot be used with these settings: retrying will not help. */
export class StateConfigError extends Error {
  override readonly name = 'StateConfigError';
}

// petkit's shared state in PostgreSQL: several mock replicas on one database behave as one mock.
// Loaded only when a replica is given a state URL (a dynamic import): nothing under mocks/index.ts or
// mocks/msw.ts imports this folder, so the browser build and the in-memory mock never load pg.
// Everything else in this folder is internal on purpose.
export {
  connectState,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_POOL_SIZE,
  type SharedState,
  type StateOptions,
} from './connect.js';
export { StateConfigError, StateSchemaError, StateUnavailableError } from './errors.js';
export type { ResetEvent, ResetListener } from './reset-channel.js';
export { SCHEMA_VERSION } from './schema.js';
export type { SharedControl } from './shared-control.js';
export type { SharedRateLimiter } from './shared-rate-limiter.js';
export type { SharedStore } from './shared-store.js';

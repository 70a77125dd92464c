// petkit's mock without Node: the runtime-agnostic core's public surface, all that a browser gets of
// `petkit` (its `browser` export condition). Imports nothing from node:*, directly or not (a test
// holds it to that: test/boundaries.test.ts). The `.` export adds the Node parts (index.ts).
export { BAN_AFTER, BAN_MS, MAX_BODY_BYTES, PLAN_LIMITS } from '../openapi/index.js';
export type {
  ClockChange,
  ClockReading,
  KeyWindows,
  NetworkFault,
  Rule,
  RuleAnswer,
  RuleInput,
} from './control-types.js';
export { ControlError, type ControlErrorCode, type MockClock, type MockRules } from './controls.js';
export { ERRORS, type ErrorCode, errorBody } from './errors.js';
export { JOURNAL_LIMIT, JOURNAL_MAX_BYTES, type JournalEntry } from './journal.js';
export {
  ANONYMOUS_LIMITS,
  anonymousLimits,
  type KeyEntry,
  type KeysFile,
  KeysFileError,
  type Limits,
  type Plan,
  parseKeysFile,
  type ResolvedKey,
  resolveKeys,
} from './keys.js';
export { createMock, type HandleContext, type Mock } from './mock.js';
export {
  DEFAULT_HOST,
  DEFAULT_MAX_PETS,
  DEFAULT_PETS,
  DEFAULT_PORT,
  DEFAULT_SEED,
  type Latency,
  type Logger,
  MAX_JOURNAL_LIMIT,
  MAX_SEED,
  type MockOptions,
  MockOptionsError,
  type NormalizedMockOptions,
  type ResetOptions,
} from './options.js';
export { MAX_DELAY_MS } from './prefer.js';
export { MAX_ANONYMOUS_BUCKETS } from './rate-limiter.js';
export { MAX_RULES } from './rules.js';

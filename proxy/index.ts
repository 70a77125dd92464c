// The proxy (`petkit proxy`): forwards traffic to a real backend and checks it against openapi.yaml.
// Its engine stands on the contract module and node:http only: never the mock, never the suite.
// Internal on purpose: target.ts, forward.ts, body-capture.ts, credential.ts, control-guard.ts,
// terminal-json.ts (reached through these).

export { curlLine } from './curl.js';
export { PROXY_ERRORS, type ProxyErrorCode } from './errors.js';
export type { Departure, Exchange, Unchecked } from './inspect.js';
export { MAX_JOURNAL, type ProxyJournal, type UncheckedBody } from './journal.js';
export {
  CLOSE_GRACE_MS,
  createProxy,
  DEFAULT_UPSTREAM_TIMEOUT_MS,
  type ExchangeLine,
  MAX_CAPTURE_BYTES,
  type Proxy,
  type ProxyOptions,
  type RunningProxy,
  startProxy,
  upstreamProblem,
} from './proxy.js';

// The proxy (`petkit proxy`): forwards traffic to a real backend and checks it against openapi.yaml.
// Its engine stands on the contract module and node:http only: never the mock, never the suite.

export { curlLine } from './curl.js';
export type { Departure, Exchange } from './inspect.js';
export {
  createProxy,
  type ExchangeLine,
  type Proxy,
  type ProxyJournal,
  type ProxyOptions,
  type RunningProxy,
  startProxy,
} from './proxy.js';

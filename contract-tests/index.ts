// The contract suite's public surface (`petkit/contract`). Scenarios, the client and the response
// checks are internal on purpose: the engine and its report are the interface.
export { CHECK_IDS, CHECKS, type CheckId, type CheckInfo } from './checks.js';
export { type AbortCode, ContractAbort } from './errors.js';
export { type Exchange, type RequestRecord, type ResponseRecord, toCurl } from './exchange.js';
export type { Finding } from './finding.js';
export type { ContractOptions, Progress } from './options.js';
export type { CheckResult, CoverageEntry, Outcome, Report } from './report.js';
export { renderJson } from './reporters/json.js';
export { renderJunit } from './reporters/junit.js';
export { renderPretty } from './reporters/pretty.js';
export { runContract } from './run.js';

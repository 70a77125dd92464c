// The contract module's public surface, shared by the mock and the contract suite.
export { httpOriginOf, type SchemeMissing, withoutScheme } from './base-url.js';
export { buildSpec, validatorPointers } from './build.js';
export { coerceString } from './coerce.js';
export {
  describeFault,
  describeFaultIn,
  type Fault,
  type FaultDetail,
  quoteValue,
  underPath,
} from './faults.js';
export { FORMATS, isInt32, isInt64 } from './formats.js';
export { buildHar, type HarEntry, type HarExchange, type HarLog } from './har.js';
export { headerInteger } from './header-integer.js';
export { type BodyBreak, bodyBreak, type JsonBreak, jsonBreak, whereItBreaks } from './json-break.js';
export { escapeToken, pointerOf, pointerOfRef, tokensOf, valueAt } from './json-pointer.js';
export { BAN_AFTER, BAN_MS, type Limits, MAX_BODY_BYTES, PLAN_LIMITS } from './limits.js';
export { loadSpec } from './load.js';
export type { JsonSchema, OpenApiDocument } from './openapi-types.js';
export {
  type CheckOptions,
  checkResponse,
  documentedErrorCodes,
  mediaTypeOf,
  type ResponseCheckId,
  type ResponseFinding,
  type ResponseToCheck,
  type ResponseVerdict,
} from './response-checks.js';
export type {
  BodySpec,
  CompiledValidator,
  HeaderSpec,
  OperationSpec,
  ParameterSpec,
  PathMatch,
  PathSpec,
  RequestParts,
  RequestVerdict,
  ResponseSpec,
  Spec,
  Validator,
  ValidatorSource,
} from './spec-types.js';
export type * from './types.js';

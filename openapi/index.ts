// The contract module's public surface, shared by the mock and the contract suite.
export {
  type BodySpec,
  buildSpec,
  type CompiledValidator,
  type HeaderSpec,
  type OperationSpec,
  type ParameterSpec,
  type ResponseSpec,
  type Spec,
  type Validator,
  type ValidatorSource,
  validatorPointers,
} from './build.js';
export { coerceString } from './coerce.js';
export { describeFault, type Fault, type FaultDetail, underPath } from './faults.js';
export { FORMATS, isInt32, isInt64 } from './formats.js';
export { escapeToken, pointerOfRef, valueAt } from './json-pointer.js';
export { MAX_BODY_BYTES } from './limits.js';
export { loadSpec } from './load.js';
export type { JsonSchema, OpenApiDocument } from './openapi-types.js';
export type * from './types.js';

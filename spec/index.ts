// The spec module's public surface, shared by the mock and the contract suite.
export { createAjv, isInt32, isInt64 } from './ajv.js';
export {
  type BodySpec,
  buildSpec,
  type HeaderSpec,
  type OperationSpec,
  type ParameterSpec,
  type ResponseSpec,
  type Spec,
  type Validator,
} from './build.js';
export { coerceString } from './coerce.js';
export { describeFault, type Fault, type FaultDetail, underPath } from './faults.js';
export { loadSpec } from './load.js';
export type { JsonSchema, OpenApiDocument } from './openapi-types.js';
export type * from './types.js';

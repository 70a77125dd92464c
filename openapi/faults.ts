import type { ErrorObject } from 'ajv';
import { escapeToken } from './json-pointer.js';

/**
 * One way a value departs from its schema: ajv's ErrorObject, with `instancePath` a JSON Pointer
 * into the value (for a parameter, `/` and its name).
 */
export type Fault = Pick<ErrorObject, 'instancePath' | 'schemaPath' | 'keyword' | 'params' | 'message'>;

/** A fault as a person reads it: where (a JSON Pointer) and what is wrong. */
export interface FaultDetail {
  path: string;
  message: string;
}

/** Points `required` and `additionalProperties` faults at the property concerned, not its parent. */
export function describeFault(fault: Fault): FaultDetail {
  const params = fault.params as Record<string, unknown>;
  if (fault.keyword === 'required' && typeof params.missingProperty === 'string') {
    return { path: `${fault.instancePath}/${escapeToken(params.missingProperty)}`, message: 'is required' };
  }
  if (fault.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    return {
      path: `${fault.instancePath}/${escapeToken(params.additionalProperty)}`,
      message: 'is not an allowed property',
    };
  }
  return { path: fault.instancePath, message: fault.message ?? `fails ${fault.keyword}` };
}

/** Prefixes every fault's path, as when a parameter's value faults are reported under `/name`. */
export function underPath(prefix: string, faults: readonly Fault[]): Fault[] {
  return faults.map((fault) => ({ ...fault, instancePath: `${prefix}${fault.instancePath}` }));
}

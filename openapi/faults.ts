import type { ErrorObject } from 'ajv';
import { escapeToken, valueAt } from './json-pointer.js';

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

/** A received value as a message quotes it: JSON, cut short past 60 characters. */
export function quoteValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * Points `required` and `additionalProperties` faults at the property concerned, not its parent; an
 * `enum` fault lists the allowed values.
 */
export function describeFault(fault: Fault): FaultDetail {
  return describe(fault, undefined);
}

/** describeFault for faults of `value`: each message also quotes what was received at its path. */
export function describeFaultIn(value: unknown): (fault: Fault) => FaultDetail {
  return (fault) => describe(fault, { value });
}

function describe(fault: Fault, data: { readonly value: unknown } | undefined): FaultDetail {
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
  const received = data === undefined ? undefined : valueAt(data.value, fault.instancePath);
  const got = received === undefined ? '' : `; got ${quoteValue(received)}`;
  if (fault.keyword === 'enum' && Array.isArray(params.allowedValues)) {
    const allowed = params.allowedValues.map((v) => quoteValue(v)).join(', ');
    return { path: fault.instancePath, message: `must be one of ${allowed}${got}` };
  }
  return { path: fault.instancePath, message: `${fault.message ?? `fails ${fault.keyword}`}${got}` };
}

/** Prefixes every fault's path, as when a parameter's value faults are reported under `/name`. */
export function underPath(prefix: string, faults: readonly Fault[]): Fault[] {
  return faults.map((fault) => ({ ...fault, instancePath: `${prefix}${fault.instancePath}` }));
}

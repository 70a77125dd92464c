// Valid requests for an operation, built from the document: what scenarios then vary one part of.
import type { OperationSpec } from '../openapi/index.js';
import type { CheckId } from './checks.js';
import type { Outgoing } from './client.js';
import type { Context, Verdict } from './context.js';
import type { PetId } from './pet-id.js';

/** An id that exists on the target when it listed any pet, else 1. */
export function existingPetId(context: Context): PetId {
  return context.knownPets[0]?.id ?? 1;
}

/** The request body example the document gives for an operation. */
export function exampleBody(operation: OperationSpec): unknown {
  return operation.requestBody?.content.get('application/json')?.example;
}

/** The most items one answer of a list operation holds: its `limit` parameter's maximum, if any. */
export function pageMaximum(operation: OperationSpec): number | undefined {
  const limit = operation.parameters.find((parameter) => parameter.name === 'limit');
  return typeof limit?.schema.maximum === 'number' ? limit.schema.maximum : undefined;
}

/** A request that keeps the contract: required path parameters filled in, the example body. */
export function validRequest(context: Context, operation: OperationSpec): Outgoing {
  const params: Record<string, string> = {};
  for (const parameter of operation.parameters) {
    if (parameter.in === 'path') params[parameter.name] = String(existingPetId(context));
  }
  const body = exampleBody(operation);
  return {
    operationId: operation.id,
    method: operation.method,
    path: operation.expand(params),
    ...(body === undefined ? {} : { contentType: 'application/json', body: JSON.stringify(body) }),
  };
}

/** Records a scenario's verdict on one case. */
export function record(context: Context, check: CheckId, operationId: string, verdict: Verdict): void {
  if (verdict.kind === 'pass') context.passed(check, operationId);
  if (verdict.kind === 'fail') {
    context.failed(check, verdict.exchange, {
      message: verdict.message,
      expected: verdict.expected,
      ...(verdict.instancePath === undefined ? {} : { instancePath: verdict.instancePath }),
    });
  }
}

export function queryString(query: Readonly<Record<string, string>>): string {
  const entries = Object.entries(query);
  return entries.length === 0
    ? 'no parameters'
    : entries.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(' ');
}

// Where a request's faults are, as the document's own validators find them: what the `details` of its
// 400 must point at (ErrorDetail.path: "JSON Pointer to the faulty value (in the body, or `/name` of the
// parameter)"). A missing or unknown property is pointed at by its own path (the document's example,
// `/categoryId` "is required") or by the object that lacks or holds it (where a validator reports it).
import { describeFault, type OperationSpec } from '../../openapi/index.js';
import type { Exchange } from '../exchange.js';
import { sentParameters } from './predict.js';

/** The pointers a detail of this request's 400 may name; undefined when the run cannot tell. */
export function faultPointers(
  operation: OperationSpec,
  exchange: Exchange,
  basePath: string,
): ReadonlySet<string> | undefined {
  const sent = sentParameters(operation, exchange.request.url, basePath);
  if (sent === undefined || sent === 'undecodable') return undefined;
  const pointers = new Set<string>();
  for (const parameter of operation.parameters) {
    const given = sent(parameter);
    if (given.length > 1 || parameter.parse(given[0]).faults.length > 0) pointers.add(`/${parameter.name}`);
  }
  // A fault in the parameters is answered before the body is read: the body says nothing then.
  if (pointers.size > 0) return pointers;
  const bodySpec = operation.requestBody?.content.get('application/json');
  if (bodySpec === undefined) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(exchange.request.body ?? '');
  } catch {
    return undefined;
  }
  for (const fault of bodySpec.validate(body)) {
    pointers.add(describeFault(fault).path);
    pointers.add(fault.instancePath);
  }
  return pointers.size > 0 ? pointers : undefined;
}

/** RFC 6901: empty, or each reference token after a `/`, with `~` only as `~0` or `~1`. */
export const isJsonPointer = (text: string) => /^(\/([^~/]|~[01])*)*$/.test(text);

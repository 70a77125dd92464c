// Request validation, in the order a server refuses: the parameters first (path, then query, as the
// document lists them), then the body, read only once the parameters pass (so a 400 on a bad query
// never waits for, or asks for, a body).
import { describeFaultIn, type Fault } from './faults.js';
import type { BodySpec, ParameterSpec, RequestParts, RequestVerdict } from './spec-types.js';

const UNDECODABLE_PATH: RequestVerdict<never> = {
  kind: 'invalid',
  where: 'path',
  message: 'Invalid path: its percent-encoding does not decode.',
  details: [{ path: '', message: 'is not valid percent-encoding' }],
};

/**
 * The most faults a verdict lists in `details` (the Error schema's `details` maxItems): a body of
 * 16 KiB can hold 2,000 unknown properties, and listing each made a 400 of 114 KB. The message counts
 * them all.
 */
export const MAX_DETAILS = 20;

/** The verdict on faults of `data` (the parameters read so far, or the body): each names what came. */
function invalid(where: string, faults: readonly Fault[], data: unknown): RequestVerdict<never> {
  // Only the faults listed are described: describing quotes values, and the rest are only counted.
  const details = faults.slice(0, MAX_DETAILS).map(describeFaultIn(data));
  const [first] = details;
  const others = faults.length - 1;
  const cut = faults.length > MAX_DETAILS ? `; details lists the first ${MAX_DETAILS}` : '';
  const more = others > 0 ? ` (and ${others} more${cut})` : '';
  const at = first === undefined || first.path === '' ? '' : `${first.path} `;
  return { kind: 'invalid', where, message: `Invalid ${where}: ${at}${first?.message}${more}.`, details };
}

/**
 * The verdict at once when the parameters decide it or the operation takes no body (no promise on
 * that path: most requests take it); a promise only when the body must be read.
 */
export function validateRequest<Refusal>(
  parameters: readonly ParameterSpec[],
  body: BodySpec | undefined,
  request: RequestParts<Refusal>,
): RequestVerdict<Refusal> | Promise<RequestVerdict<Refusal>> {
  const { pathParams, query } = request;
  if (pathParams === null) return UNDECODABLE_PATH;
  const params: Record<string, unknown> = {};
  const faults: Fault[] = [];
  let where = '';
  for (const parameter of parameters) {
    const given =
      parameter.in === 'path' ? [pathParams[parameter.name]] : (query?.getAll(parameter.name) ?? []);
    if (given.length > 1) {
      // Every parameter of the API takes one value: which of several was meant is not ours to guess.
      faults.push({
        instancePath: `/${parameter.name}`,
        schemaPath: '#/maxItems',
        keyword: 'maxItems',
        params: { limit: 1 },
        message: `must be given once, not ${given.length} times`,
      });
      where ||= parameter.in;
      continue;
    }
    const parsed = parameter.parse(given[0]);
    params[parameter.name] = parsed.value;
    if (parsed.faults.length > 0) {
      faults.push(...parsed.faults);
      where ||= parameter.in;
    }
  }
  if (faults.length > 0) return invalid(where, faults, params);
  if (body === undefined) return { kind: 'valid', params, body: undefined };
  return request.readBody().then((read): RequestVerdict<Refusal> => {
    if ('refusal' in read) return { kind: 'refused', refusal: read.refusal };
    const bodyFaults = body.validate(read.value);
    if (bodyFaults.length > 0) return invalid('body', bodyFaults, read.value);
    return { kind: 'valid', params, body: read.value };
  });
}

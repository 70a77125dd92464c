// Request validation, in the order a server refuses: the parameters first (path, then query, as the
// document lists them), then the body, read only once the parameters pass (so a 400 on a bad query
// never waits for, or asks for, a body).
import { isInt64Text } from './coerce.js';
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
function invalid(
  where: string,
  faults: readonly Fault[],
  data: unknown,
  sent?: (pointer: string) => string | undefined,
): RequestVerdict<never> {
  // Only the faults listed are described: describing quotes values, and the rest are only counted.
  const details = faults.slice(0, MAX_DETAILS).map(describeFaultIn(data, sent));
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
  /** Each parameter's value as sent: a number too large to read exactly is quoted as its digits. */
  const given: Record<string, string> = {};
  const faults: Fault[] = [];
  let where = '';
  for (const parameter of parameters) {
    const values =
      parameter.in === 'path' ? [pathParams[parameter.name]] : (query?.getAll(parameter.name) ?? []);
    if (values.length > 1) {
      // Every parameter of the API takes one value: which of several was meant is not ours to guess.
      faults.push({
        instancePath: `/${parameter.name}`,
        schemaPath: '#/maxItems',
        keyword: 'maxItems',
        params: { limit: 1 },
        message: `must be given once, not ${values.length} times`,
      });
      where ||= parameter.in;
      continue;
    }
    const [value] = values;
    if (value !== undefined) given[parameter.name] = value;
    const parsed = parameter.parse(value);
    params[parameter.name] = parsed.value;
    if (parsed.faults.length > 0) {
      faults.push(...parsed.faults);
      where ||= parameter.in;
    }
  }
  if (faults.length > 0) return invalid(where, faults, params, (pointer) => given[pointer.slice(1)]);
  if (body === undefined) return { kind: 'valid', params, body: undefined };
  return request.readBody().then((read): RequestVerdict<Refusal> => {
    if ('refusal' in read) return { kind: 'refused', refusal: read.refusal };
    const { text } = read;
    const sent = text === undefined ? undefined : (pointer: string) => sentNumber(text, pointer);
    // A valid int64 past 2^53 that JSON.parse rounded out of the int64 range (9223372036854775807):
    // the digits sent are what the contract judges, not the rounded number.
    const bodyFaults = body
      .validate(read.value)
      .filter(
        (fault) =>
          !(
            fault.keyword === 'format' &&
            fault.params.format === 'int64' &&
            isInt64Text(sent?.(fault.instancePath) ?? '')
          ),
      );
    if (bodyFaults.length > 0) return invalid('body', bodyFaults, read.value, sent);
    return { kind: 'valid', params, body: read.value };
  });
}

/** The patterns sentNumber has compiled, by member name: at most SENT_PATTERNS_KEPT, then begun again. */
const sentPatterns = new Map<string, RegExp>();
const SENT_PATTERNS_KEPT = 64;

/**
 * A top-level member's number as written in the body's text (`/categoryId` → `9223372036854775807`),
 * the last such member as JSON.parse keeps the last; undefined for a deeper pointer or none. In valid
 * JSON a `{` or `,` followed by a quote cannot be inside a string (a quote there is escaped). Every
 * invalid body's answer asks it once a fault: its pattern is compiled once a name (a body's member
 * names are the client's, so the patterns kept are bounded).
 */
export function sentNumber(text: string, pointer: string): string | undefined {
  const name = pointer.slice(1);
  if (pointer === '' || name.includes('/') || name.includes('~') || name.length > 64) return undefined;
  let pattern = sentPatterns.get(name);
  if (pattern === undefined) {
    if (sentPatterns.size >= SENT_PATTERNS_KEPT) sentPatterns.clear();
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    pattern = new RegExp(`[{,]\\s*"${escaped}"\\s*:\\s*(-?[0-9][0-9.eE+-]{0,99})`, 'g');
    sentPatterns.set(name, pattern);
  }
  // Every match consumes the name's quotes at least: exec moves on each time.
  pattern.lastIndex = 0;
  let found: string | undefined;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) found = match[1];
  return found;
}

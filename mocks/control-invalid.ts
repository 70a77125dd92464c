// The message of a control body that is not valid, as the API's 400s word theirs: the first fault in
// words, how many more, every fault (20 at most, the Error schema's bound) in `details`.
import { describeFaultIn, type ErrorDetail, type Fault } from '../openapi/index.js';

/** The most faults an answer lists in `details` (the Error schema's maxItems). */
export const MAX_DETAILS = 20;

/** `Invalid rule: /respond/status 418 is not … (and 1 more).`; `total` counts faults beyond `details`. */
export function invalidMessage(
  what: string,
  details: readonly ErrorDetail[],
  total = details.length,
): string {
  const [first] = details;
  const others = total - 1;
  const cut = total > MAX_DETAILS ? `; details lists the first ${MAX_DETAILS}` : '';
  const more = others > 0 ? ` (and ${others} more${cut})` : '';
  const at = first === undefined || first.path === '' ? '' : `${first.path} `;
  return `Invalid ${what}: ${at}${first?.message ?? 'is not valid'}${more}.`;
}

/**
 * describeFaultIn, with a number JSON cannot write quoted as what was sent: a number past a double's
 * range (`1e400`, which JSON.parse reads as Infinity) or a NaN given in process was quoted "null",
 * which the client never sent. (A -0 is quoteValue's own: openapi/faults.ts.) Only a refusal's path
 * pays for it.
 */
export function describeFaultAsSent(value: unknown): (fault: Fault) => ErrorDetail {
  const describe = describeFaultIn(value);
  return (fault) => {
    const detail = describe(fault);
    const { path, message } = detail;
    if (message.endsWith('; got null')) {
      const at = valueAt(value, path);
      if (typeof at === 'number' && !Number.isFinite(at))
        return { path, message: `${message.slice(0, -4)}${Number.isNaN(at) ? 'NaN' : BEYOND_DOUBLE}` };
    }
    return detail;
  };
}

const BEYOND_DOUBLE = 'a number beyond what a double holds (±1.8e308)';

/** The value at a JSON Pointer (RFC 6901), or undefined. */
function valueAt(value: unknown, pointer: string): unknown {
  let at = value;
  for (const token of pointer.split('/').slice(1)) {
    if (typeof at !== 'object' || at === null) return undefined;
    const key = token.replaceAll('~1', '/').replaceAll('~0', '~');
    if (!Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

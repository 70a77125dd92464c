// The message of a control body that is not valid, as the API's 400s word theirs: the first fault in
// words, how many more, every fault (20 at most, the Error schema's bound) in `details`.
import type { ErrorDetail } from '../openapi/index.js';

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

import type { Fault } from './faults.js';
import type { JsonSchema } from './openapi-types.js';

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const JSON_INTEGER = /^-?(?:0|[1-9]\d*)$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const LARGEST_DOUBLE_BELOW_2_63 = 2n ** 63n - 1024n;

/**
 * Whether `raw` is an integer written as JSON writes one and within int64, read on its digits (a
 * double would round 9223372036854775807 out of the range). At most 20 digits are read as a BigInt.
 */
export function isInt64Text(raw: string): boolean {
  if (raw.length > 20 || !JSON_INTEGER.test(raw)) return false;
  const big = BigInt(raw);
  return big >= INT64_MIN && big <= INT64_MAX;
}

export type Coerced = { ok: true; value: unknown } | { ok: false; fault: Fault };

/**
 * Reads a parameter or header string as the value its schema's `type` asks for. A string that is
 * not a number of JSON's syntax (for an integer: an integer's) stays a string, so the schema's own
 * `type` keyword reports it. An
 * int64 is range-checked on its digits, before a double could round it.
 */
export function coerceString(raw: string, schema: JsonSchema): Coerced {
  const type = schema.type;
  if (type === 'integer' || type === 'number') {
    // An integer is written as one (`1`, not `1.0` or `1e0`), as JSON Schema's own examples do.
    if (!(type === 'integer' ? JSON_INTEGER : JSON_NUMBER).test(raw)) return { ok: true, value: raw };
    // Fifteen characters or fewer (a sign and 14 digits at most): well within int64 and exact as a
    // double, no BigInt needed.
    if (type === 'integer' && schema.format === 'int64' && raw.length > 15 && JSON_INTEGER.test(raw)) {
      if (!isInt64Text(raw)) {
        return {
          ok: false,
          fault: {
            instancePath: '',
            schemaPath: '#/format',
            keyword: 'format',
            params: { format: 'int64' },
            message: 'must be an int64 integer',
          },
        };
      }
      // The few int64s within 512 of 2^63 round up to 2^63 as doubles; keep them in range.
      return {
        ok: true,
        value: BigInt(raw) > LARGEST_DOUBLE_BELOW_2_63 ? Number(LARGEST_DOUBLE_BELOW_2_63) : Number(raw),
      };
    }
    return { ok: true, value: Number(raw) };
  }
  if (type === 'boolean') {
    if (raw === 'true') return { ok: true, value: true };
    if (raw === 'false') return { ok: true, value: false };
  }
  return { ok: true, value: raw };
}

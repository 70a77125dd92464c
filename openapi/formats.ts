// The formats openapi.yaml uses, as ajv format definitions. Light on purpose: the precompiled
// validators (validators.gen.ts) import this module, not ajv.

const INT64_BOUND = 2 ** 63;
const INT32_BOUND = 2 ** 31;

/** An int64 as JSON can carry it: an integer in [-2^63, 2^63). ajv-formats' own int64 checks no range. */
export function isInt64(value: number): boolean {
  return Number.isInteger(value) && value >= -INT64_BOUND && value < INT64_BOUND;
}

export function isInt32(value: number): boolean {
  return Number.isInteger(value) && value >= -INT32_BOUND && value < INT32_BOUND;
}

/** The formats petkit defines itself, by name; every other format comes from ajv-formats. */
export const FORMATS = {
  int64: { type: 'number', validate: isInt64 },
  int32: { type: 'number', validate: isInt32 },
} as const;

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

const DATE_TIME = /^(\d{4})-(\d\d)-(\d\d)[Tt](\d\d):(\d\d):(\d\d)(?:\.\d+)?(?:[Zz]|[+-](\d\d):(\d\d))$/;

/**
 * An RFC 3339 date-time (`2030-01-01T00:00:00Z`, `…T01:00:00.5+01:00`): a zone always, a real
 * calendar day, no leap second (`:60`, which JavaScript's Date cannot hold). Written here, not taken
 * from ajv-formats: the precompiled validators (the control API's ClockChange) import this module only.
 */
export function isDateTime(value: string): boolean {
  const match = DATE_TIME.exec(value);
  if (match === null) return false;
  const [year, month, day, hour, minute, second, zoneHour, zoneMinute] = match
    .slice(1)
    .map((part) => Number(part ?? 0));
  const leap = year !== undefined && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month ?? 0) ? 30 : 31;
  const within = (n: number | undefined, min: number, max: number) => n !== undefined && n >= min && n <= max;
  return (
    within(month, 1, 12) &&
    within(day, 1, days) &&
    within(hour, 0, 23) &&
    within(minute, 0, 59) &&
    within(second, 0, 59) &&
    within(zoneHour, 0, 23) &&
    within(zoneMinute, 0, 59)
  );
}

/** The formats petkit defines itself, by name; every other format comes from ajv-formats. */
export const FORMATS = {
  int64: { type: 'number', validate: isInt64 },
  int32: { type: 'number', validate: isInt32 },
  'date-time': { type: 'string', validate: isDateTime },
} as const;

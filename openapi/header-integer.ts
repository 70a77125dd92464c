// The rate-limit headers and Retry-After's delay-seconds are whole numbers of decimal digits. Read
// with Number(), an empty value would be 0 and `0x10`, `1e3` or ` -5` numbers too: the checks would
// then compare a header that is not a number at all (and report it twice, or the wrong way).

/** A header's value as a whole number of decimal digits, or undefined when it is not one (or absent). */
export function headerInteger(raw: string | null | undefined): number | undefined {
  if (raw === undefined || raw === null) return undefined;
  const trimmed = raw.trim();
  return /^\d+$/.test(trimmed) ? Number(trimmed) : undefined;
}

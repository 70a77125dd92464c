// What both commands share in reading their flags: the error for a flag they cannot use, and the one
// parser of integer flags.

/** A flag, or a flag's value, that the command cannot use: a one-line message and exit 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * An integer flag's value, undefined when the flag was not given. Digits only (a sign allowed,
 * white space around ignored), and within `range` when one is given; else a UsageError naming the flag.
 */
export function integerFlag(
  flag: string,
  raw: string | undefined,
  range?: { readonly min: number; readonly max: number },
): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  const integer = /^-?\d+$/.test(raw.trim());
  if (range === undefined) {
    if (!integer) throw new UsageError(`${flag} must be an integer, got "${raw}".`);
  } else if (!integer || value < range.min || value > range.max) {
    throw new UsageError(`${flag} must be an integer from ${range.min} to ${range.max}, got "${raw}".`);
  }
  return value;
}

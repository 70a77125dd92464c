// What the sequences phase may spend: the one place that decides it (the economy counts on it).

/** Commands in one drawn sequence, at most. */
export const MAX_COMMANDS = 8;
/**
 * Requests one sequence of MAX_COMMANDS costs at most: a command sends one request, a concurrent create
 * up to 3, a lookup of an id before it exists one create more when the run has none to count from.
 */
export const REQUESTS_PER_RUN = 12;
/** Requests shrinking may spend past the first failure; past it, the smallest failure so far stands. */
export const SHRINK_REQUESTS = 30;
/** Sequences drawn at most, however large the budget. */
export const MAX_RUNS = 12;
/** The share of the requests left that the phase may take for its runs (the rest is the other phases'). */
const SHARE = 4;

/**
 * How many sequences to draw with `left` requests in the budget: at least one (a 60-a-minute key's run
 * of 120 requests draws one run of 8 commands), more on a larger key.
 */
export function sequenceRuns(left: number): number {
  if (!Number.isFinite(left)) return MAX_RUNS;
  return Math.max(1, Math.min(MAX_RUNS, Math.floor(left / SHARE / REQUESTS_PER_RUN)));
}

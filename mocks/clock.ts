// The mock's clock: real time moved by an offset, or frozen at an instant (docs/mock.md, "The clock").
// Pure: the real time and the floor are passed in. The floor is the start of the latest minute window
// in which a rate-limit bucket counted a request: the clock never goes back before it, for there the
// in-memory limiter would start that bucket's window again from zero while PostgreSQL keeps the newer
// one, and the two engines (and the replicas) would disagree. From the floor on, they agree.
import type { ClockChange, ClockReading } from './control-types.js';
import type { ClockState } from './state.js';

/** Real time: no offset, not frozen. */
export const REAL_TIME: ClockState = { offsetMs: 0, frozenAt: null };

/** The earliest and latest instants the clock may read: Unix time 0 (X-RateLimit-Reset is Unix seconds) and the end of year 9999. */
export const EARLIEST = 0;
export const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * The mock's time (ms) for a real time. A clock set near the end of year 9999 and left running stops
 * there: past it, Date would not be an HTTP-date (`Sat, 01 Jan 10000`) nor the clock's reading RFC 3339.
 */
export function mockTime(clock: ClockState, real: number): number {
  return Math.min(clock.frozenAt ?? real + clock.offsetMs, LATEST);
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** What a change asks that cannot be done whatever the time (a 400, not a refusal): undefined when none. */
export function clockChangeFault(change: ClockChange): string | undefined {
  if (change.advanceSeconds !== undefined && change.set !== undefined)
    return 'advanceSeconds and set together: give one (frozen may go with either).';
  return undefined;
}

/**
 * The clock after a change, or why it is refused: `set` earlier than `floor` (the start of the latest
 * minute window counted, undefined when none was), or an instant outside the years 1970 to 9999.
 * `advanceSeconds` moves forward from the time the clock reads; `frozen: true` stops it at the instant
 * it then reads, `frozen: false` lets it run on from there (never moving it).
 */
export function changeClock(
  clock: ClockState,
  change: ClockChange,
  real: number,
  floor: number | undefined,
): ClockState | { refused: string } {
  let target = mockTime(clock, real);
  if (change.set !== undefined) {
    target = Date.parse(change.set);
    if (Number.isNaN(target))
      return { refused: `The clock cannot be set to ${change.set}: not a date-time.` };
    if (floor !== undefined && target < floor) {
      const from = iso(floor);
      return {
        refused: `The clock cannot go back to ${iso(target)}: requests were counted in the minute window from ${from}, and a window never goes back. Set ${from} or later, or POST /__petkit/reset (empties the counts and returns to real time).`,
      };
    }
  }
  if (change.advanceSeconds !== undefined) target += change.advanceSeconds * 1000;
  if (target < EARLIEST || target > LATEST) {
    const shown = target < EARLIEST ? 'before 1970' : 'past the year 9999';
    return {
      refused: `The clock cannot go ${shown}: its time must be from ${iso(EARLIEST)} to ${iso(LATEST)} (X-RateLimit-Reset and Date say it).`,
    };
  }
  const frozen = change.frozen ?? clock.frozenAt !== null;
  return { offsetMs: target - real, frozenAt: frozen ? target : null };
}

/** The clock as the control API shows it. */
export function clockReading(clock: ClockState, real: number): ClockReading {
  const now = mockTime(clock, real);
  // `|| 0`: a negative offset under half a second rounds to -0, which reads oddly in code (JSON says 0).
  return {
    now: iso(now),
    frozen: clock.frozenAt !== null,
    offsetSeconds: Math.round((now - real) / 1000) || 0,
  };
}

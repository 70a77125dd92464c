// The mock's clock: real time moved by an offset, or frozen at an instant (docs/mock.md, "The clock").
// i21 contract: the signatures are final; i21-rules writes changeClock and clockReading.
import type { ClockChange, ClockReading } from './control-types.js';
import type { ClockState } from './state.js';

/** Real time: no offset, not frozen. */
export const REAL_TIME: ClockState = { offsetMs: 0, frozenAt: null };

/** The mock's time (ms) for a real time. */
export function mockTime(clock: ClockState, real: number): number {
  return clock.frozenAt ?? real + clock.offsetMs;
}

/** The clock after a change, or why it is refused (earlier than `floor`, the latest counted window). */
export function changeClock(
  _clock: ClockState,
  _change: ClockChange,
  _real: number,
  _floor: number | undefined,
): ClockState | { refused: string } {
  throw new Error('i21: not yet');
}

export function clockReading(_clock: ClockState, _real: number): ClockReading {
  throw new Error('i21: not yet');
}

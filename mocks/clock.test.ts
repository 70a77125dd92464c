import { describe, expect, it } from 'vitest';
import { changeClock, clockChangeFault, clockReading, mockTime, REAL_TIME } from './clock.js';
import type { ClockState } from './state.js';

const REAL = Date.parse('2030-01-01T12:00:30Z');

function changed(clock: ClockState, change: Parameters<typeof changeClock>[1], floor?: number): ClockState {
  const next = changeClock(clock, change, REAL, floor);
  if ('refused' in next) throw new Error(`refused: ${next.refused}`);
  return next;
}

describe('the mock’s clock', () => {
  it('reads real time until moved', () => {
    expect(mockTime(REAL_TIME, REAL)).toBe(REAL);
    expect(clockReading(REAL_TIME, REAL)).toEqual({
      now: '2030-01-01T12:00:30.000Z',
      frozen: false,
      offsetSeconds: 0,
    });
  });

  it('advances by seconds, and goes on running from there', () => {
    const clock = changed(REAL_TIME, { advanceSeconds: 61 });
    expect(clockReading(clock, REAL)).toEqual({
      now: '2030-01-01T12:01:31.000Z',
      frozen: false,
      offsetSeconds: 61,
    });
    expect(mockTime(clock, REAL + 5000)).toBe(REAL + 66_000);
    expect(mockTime(changed(clock, { advanceSeconds: 1 }), REAL)).toBe(REAL + 62_000);
  });

  it('is set to an instant, forward or back, with any zone', () => {
    const clock = changed(REAL_TIME, { set: '2030-06-01T02:00:00+02:00' });
    expect(clockReading(clock, REAL).now).toBe('2030-06-01T00:00:00.000Z');
    expect(clockReading(changed(clock, { set: '2029-01-01T00:00:00Z' }), REAL).now).toBe(
      '2029-01-01T00:00:00.000Z',
    );
  });

  it('freezes at the instant it reads, moves while frozen, and runs on from there once unfrozen', () => {
    const frozen = changed(REAL_TIME, { frozen: true });
    expect(mockTime(frozen, REAL + 10_000)).toBe(REAL);
    expect(clockReading(frozen, REAL + 10_000)).toEqual({
      now: '2030-01-01T12:00:30.000Z',
      frozen: true,
      offsetSeconds: -10,
    });
    const advanced = changed(frozen, { advanceSeconds: 30 });
    expect(mockTime(advanced, REAL + 99_000)).toBe(REAL + 30_000);
    const set = changed(advanced, { set: '2031-01-01T00:00:00Z', frozen: true });
    expect(mockTime(set, REAL + 5_000)).toBe(Date.parse('2031-01-01T00:00:00Z'));
    // Unfreezing never moves time: it carries on from the frozen instant.
    const later = REAL + 60_000;
    const running = changeClock(set, { frozen: false }, later, undefined) as ClockState;
    expect(mockTime(running, later)).toBe(Date.parse('2031-01-01T00:00:00Z'));
    expect(mockTime(running, later + 1000)).toBe(Date.parse('2031-01-01T00:00:01Z'));
  });

  it('refuses to go back before the latest minute window a limit counted in, saying why and what to do', () => {
    const floor = Date.parse('2030-01-01T12:00:00Z');
    expect(changeClock(REAL_TIME, { set: '2030-01-01T11:59:59Z' }, REAL, floor)).toEqual({
      refused:
        'The clock cannot go back to 2030-01-01T11:59:59.000Z: requests were counted in the minute window from 2030-01-01T12:00:00.000Z, and a window never goes back. Set 2030-01-01T12:00:00.000Z or later, or POST /__petkit/reset (empties the counts and returns to real time).',
    });
    // Frozen or not, a set is held to the floor; from the floor on it is taken.
    const frozen = changed(REAL_TIME, { frozen: true });
    expect(changeClock(frozen, { set: '2030-01-01T11:00:00Z', frozen: true }, REAL, floor)).toHaveProperty(
      'refused',
    );
    expect(mockTime(changed(REAL_TIME, { set: '2030-01-01T12:00:00Z' }, floor), REAL)).toBe(floor);
    // With nothing counted, there is no floor.
    expect(mockTime(changed(REAL_TIME, { set: '2000-01-01T00:00:00Z' }), REAL)).toBe(
      Date.parse('2000-01-01T00:00:00Z'),
    );
  });

  it('stays within the years 1970 to 9999', () => {
    expect(changeClock(REAL_TIME, { set: '1969-12-31T23:59:59Z' }, REAL, undefined)).toEqual({
      refused:
        'The clock cannot go before 1970: its time must be from 1970-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z (X-RateLimit-Reset and Date say it).',
    });
    expect(
      changeClock(REAL_TIME, { set: '9999-12-31T23:59:00Z', advanceSeconds: 60 }, REAL, undefined),
    ).toHaveProperty('refused');
    const late = changed(REAL_TIME, { set: '9950-01-01T00:00:00Z' });
    expect(changeClock(late, { advanceSeconds: 3_153_600_000 }, REAL, undefined)).toHaveProperty('refused');
  });

  it('set running near the end of 9999, stops there rather than read the year 10000', () => {
    const last = changed(REAL_TIME, { set: '9999-12-31T23:59:59Z' });
    // Two seconds on, it read +010000-01-01T00:00:01Z, and the API's Date said "01 Jan 10000".
    expect(clockReading(last, REAL + 2000).now).toBe('9999-12-31T23:59:59.999Z');
    expect(mockTime(last, REAL + 86_400_000)).toBe(Date.UTC(9999, 11, 31, 23, 59, 59, 999));
    // And a later set may go back to any instant it read.
    expect(changed(last, { set: '9999-12-31T23:59:59.999Z' }, mockTime(last, REAL + 2000))).toMatchObject({
      frozenAt: null,
    });
  });

  it('takes advanceSeconds or set, not both', () => {
    expect(clockChangeFault({ advanceSeconds: 1, set: '2030-01-01T00:00:00Z' })).toBe(
      'advanceSeconds and set together: give one (frozen may go with either).',
    );
    expect(clockChangeFault({ advanceSeconds: 1, frozen: true })).toBeUndefined();
  });
});

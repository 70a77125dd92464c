// The one implementation behind the control API's rules and clock and createMock's `rules` and
// `clock`: both validate, arm and read through here, so they answer alike.
// i21 contract: the signatures are final; i21-rules writes the bodies.
import type { ErrorDetail } from '../openapi/index.js';
import { mockTime } from './clock.js';
import type { ClockChange, ClockReading, KeyWindows, Rule, RuleInput } from './control-types.js';
import type { ResolvedKey } from './keys.js';
import type { RuleContext } from './rules.js';
import type { MockState } from './state.js';

export interface MockRules {
  /** Arms a rule; rejects with ControlError (validation_failed, too_many_rules). */
  arm(rule: RuleInput): Promise<Rule>;
  /** Every armed rule, newest first. */
  list(): Promise<Rule[]>;
  /** Switches a rule on or off; rejects with ControlError rule_not_found. */
  enable(id: string, enabled: boolean): Promise<Rule>;
  /** Disarms one rule (rule_not_found when there is none), or all of them. */
  disarm(id?: string): Promise<void>;
}

export interface MockClock {
  read(): Promise<ClockReading>;
  /** Moves or freezes the clock; rejects with ControlError (validation_failed, clock_refused). */
  change(change: ClockChange): Promise<ClockReading>;
  /** The mock's time now (ms), from the control view as last read. */
  now(): number;
}

export type ControlErrorCode = 'validation_failed' | 'rule_not_found' | 'too_many_rules' | 'clock_refused';

/** A control call that cannot be done: the control API answers it as an Error body of this code. */
export class ControlError extends Error {
  override readonly name = 'ControlError';
  readonly code: ControlErrorCode;
  readonly details?: readonly ErrorDetail[];
  constructor(code: ControlErrorCode, message: string, details?: readonly ErrorDetail[]) {
    super(message);
    this.code = code;
    if (details !== undefined) this.details = details;
  }
}

export interface Controls {
  readonly rules: MockRules;
  readonly clock: MockClock;
  windows(): Promise<KeyWindows>;
}

const notYet = (): Promise<never> => Promise.reject(new Error('i21: not yet'));

export function createControls(c: {
  state: MockState;
  real: () => number;
  rules: RuleContext;
  keys: readonly ResolvedKey[];
}): Controls {
  return {
    rules: { arm: notYet, list: notYet, enable: notYet, disarm: notYet },
    clock: { read: notYet, change: notYet, now: () => mockTime(c.state.control.last.clock, c.real()) },
    windows: notYet,
  };
}

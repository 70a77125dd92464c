// The one implementation behind the control API's rules, clock and limits and createMock's `rules`
// and `clock`: both check, arm and read through here, so a call in process and one over HTTP answer
// alike. What cannot be done is a ControlError, which the control API answers with its code.
import { type ErrorDetail, loadSpec } from '../openapi/index.js';
import { changeClock, clockChangeFault, clockReading, mockTime } from './clock.js';
import { describeFaultAsSent, invalidMessage, MAX_DETAILS } from './control-invalid.js';
import type { ClockChange, ClockReading, KeyWindow, KeyWindows, Rule, RuleInput } from './control-types.js';
import { keyLabel } from './key-label.js';
import type { ResolvedKey } from './keys.js';
import { shown } from './refusals.js';
import { isRuleFault, MAX_RULES, normalizeRule, type RuleContext, shownRule } from './rules.js';
import { type ArmedRule, type MockState, StateUnavailableError } from './state.js';

/**
 * How often a clock change is tried when other changes keep coming first: each round one change wins,
 * so N changes at once need at most N tries; past this many the answer is 503.
 */
const MAX_CLOCK_ATTEMPTS = 32;

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
  /** Each key's windows at the mock's time, counting nothing (`GET /__petkit/limits`, the page). */
  windows(): Promise<KeyWindows>;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** `No rule r9; armed: r1, r2.` */
function notFound(id: string, armed: readonly ArmedRule[]): ControlError {
  const ids = armed.map((rule) => rule.id).reverse();
  return new ControlError(
    'rule_not_found',
    `No rule ${shown(id)}; ${ids.length === 0 ? 'none is armed' : `armed: ${ids.join(', ')}`}.`,
  );
}

export function createControls(c: {
  state: MockState;
  real: () => number;
  rules: RuleContext;
  keys: readonly ResolvedKey[];
}): Controls {
  const { control, limiter } = c.state;

  const rules: MockRules = {
    async arm(input) {
      // A --rules file's content armed whole was told `Invalid rule: /respond is required (and 1 more).`
      if (isRulesFile(input))
        throw new ControlError(
          'validation_failed',
          'A rule is armed alone, {"operation", "respond", …}; {"rules": [rule, …]} is the shape of a --rules file: arm each of its rules on its own (POST /__petkit/rules, mock.rules.arm).',
        );
      const rule = normalizeRule(input, c.rules);
      if (isRuleFault(rule)) throw new ControlError('validation_failed', rule.message, rule.details);
      const armed = await control.arm(rule);
      if (armed === undefined)
        throw new ControlError(
          'too_many_rules',
          `${MAX_RULES} rules are armed, the most the mock keeps; disarm one or all first (DELETE /__petkit/rules/ID or /__petkit/rules; in process, mock.rules.disarm(id) or mock.rules.disarm()).`,
        );
      return shownRule(armed);
    },
    list: async () => (await control.list()).map(shownRule),
    async enable(id, enabled) {
      const armed = await control.enable(id, enabled);
      if (armed === undefined) throw notFound(id, await control.list());
      return shownRule(armed);
    },
    async disarm(id) {
      const gone = await control.disarm(id);
      if (id !== undefined && gone === 0) throw notFound(id, await control.list());
    },
  };

  const clock: MockClock = {
    read: async () => clockReading((await control.view(true)).clock, c.real()),
    async change(change) {
      const faults = loadSpec().schema('ClockChange')(change);
      if (faults.length > 0) {
        const details = faults.slice(0, MAX_DETAILS).map(describeFaultAsSent(change));
        throw new ControlError(
          'validation_failed',
          invalidMessage('clock change', details, faults.length),
          details,
        );
      }
      const fault = clockChangeFault(change);
      if (fault !== undefined) throw new ControlError('validation_failed', `Invalid clock change: ${fault}`);
      // Computed from the view it changes, and set only if that view still stands: a change made
      // meanwhile (another replica's) is read again and this one applied on top of it.
      for (let attempt = 1; ; attempt += 1) {
        const { clock: current, version } = await control.view(true);
        const real = c.real();
        const next = changeClock(current, change, real, await limiter.latestWindow());
        if ('refused' in next) throw new ControlError('clock_refused', next.refused);
        if (await control.setClock(next, version)) return clockReading(next, real);
        if (attempt === MAX_CLOCK_ATTEMPTS)
          throw new StateUnavailableError('the clock kept changing under this change');
      }
    },
    now: () => mockTime(control.last.clock, c.real()),
  };

  async function windows(): Promise<KeyWindows> {
    const now = mockTime((await control.view(true)).clock, c.real());
    const keys = await Promise.all(
      c.keys.map(async (key): Promise<KeyWindow> => {
        const peek = await limiter.peek({ kind: 'key', id: key.key }, key, now);
        return {
          key: keyLabel(key.key),
          plan: key.plan,
          minute: peek.minute,
          day: peek.day,
          bannedUntil: peek.bannedUntil === null ? null : iso(peek.bannedUntil),
        };
      }),
    );
    return { now: iso(now), keys };
  }

  return { rules, clock, windows };
}

/** `{"rules": [...]}` and nothing a rule has: a rules file's content. */
function isRulesFile(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const names = Object.keys(value);
  return names.length === 1 && names[0] === 'rules' && Array.isArray((value as { rules: unknown }).rules);
}

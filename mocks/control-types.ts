// The shapes of the control API's rules, clock and limits, as a client sends and reads them: the types
// generated from openapi.yaml's components (`npm run generate`), named here. One type, derived once:
// the control API validates against the same schemas (`loadSpec().schema('RuleInput')`).
import type {
  ClockChange,
  ClockReading,
  KeyWindow,
  KeyWindows,
  NetworkFault,
  RateWindow,
  Rule,
  RuleAnswer,
  RuleInput,
  RuleSwitch,
} from '../openapi/index.js';

export type {
  ClockChange,
  ClockReading,
  KeyWindow,
  KeyWindows,
  NetworkFault,
  Rule,
  RuleAnswer,
  RuleInput,
  RuleSwitch,
};
/** A rate-limit window: its limit, what remains, its end (Unix seconds). */
export type Window = RateWindow;

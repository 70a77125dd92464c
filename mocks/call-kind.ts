// Whether a call is for the API or for the control API, decided once per call (by the adapter or by
// answer()) and passed along: the guard, answer() and the failure paths read it, never the path again.
import type { MockCall } from './call.js';
import { CONTROL_PREFIX } from './control.js';

export type CallKind = 'api' | 'control';

export function callKind(call: MockCall): CallKind {
  return call.url.pathname.startsWith(CONTROL_PREFIX) ? 'control' : 'api';
}

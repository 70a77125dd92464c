// Whether a call is for the API or for the control API, decided once per call (by the adapter or by
// answer()) and passed along: the guard, answer() and the failure paths read it, never the path again.
import type { MockCall } from './call.js';
import { CONTROL_PREFIX } from './control.js';

export type CallKind = 'api' | 'control';

export function callKind(call: MockCall): CallKind {
  // A call refused before the core (in process, over the server's limits) is answered beside the
  // API, as the control API is: not journaled, not counted, as the server's own refusals are.
  if (call.refused !== undefined) return 'control';
  return call.url.pathname.startsWith(CONTROL_PREFIX) ? 'control' : 'api';
}

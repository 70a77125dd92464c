// What every control route answering through the controls (rules, clock, limits) shares: its body
// read as JSON, its answer as JSON, and a ControlError as the Error body of its code.
import { readJsonBody } from './body.js';
import type { MockCall } from './call.js';
import { ControlError } from './controls.js';
import { repeatedNameFault } from './json-names.js';
import { errorReply, type Reply, reply } from './responses.js';

/** A JSON answer. */
export const json = (status: number, value: unknown): Reply => reply(status, JSON.stringify(value));

/**
 * The call's JSON body, or the refusal of a body that is not one (415, 413, 400 malformed_json), or
 * that gives a name twice in one object (400 validation_failed): JSON.parse keeps the last, so
 * `{"advanceSeconds": 60, "advanceSeconds": 3600}` moved the clock an hour, and a rule pasted from a
 * rules file (which refuses it) was armed with its last `respond`, without a word.
 */
export async function bodyOf(call: MockCall): Promise<{ value: unknown } | { refused: Reply }> {
  const read = await readJsonBody(call);
  if ('refusal' in read) return { refused: errorReply(read.refusal.code, read.refusal.message) };
  const twice = repeatedNameFault(read.text);
  if (twice !== undefined) return { refused: errorReply('validation_failed', `The body ${twice}.`) };
  return { value: read.value };
}

/** A ControlError as its Error body; anything else is a fault of the mock's own, thrown on (a 500). */
export function controlFailed(error: unknown): Reply {
  if (error instanceof ControlError) return errorReply(error.code, error.message, error.details);
  throw error;
}

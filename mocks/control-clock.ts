// `/__petkit/clock`: `GET` reads the mock's clock, `POST` moves, sets or freezes it, through the
// controls (controls.ts, what `mock.clock` calls too); a refusal is its ControlError's Error body.
import type { MockCall } from './call.js';
import { bodyOf, controlFailed, json } from './control-answers.js';
import type { ClockChange } from './control-types.js';
import type { Controls } from './controls.js';
import type { Reply } from './responses.js';

export async function answerClock(call: MockCall, method: string, controls: Controls): Promise<Reply> {
  try {
    if (method === 'GET') return json(200, await controls.clock.read());
    const body = await bodyOf(call);
    if ('refused' in body) return body.refused;
    // Checked by the controls against openapi.yaml's ClockChange: the cast names what it will be.
    return json(200, await controls.clock.change(body.value as ClockChange));
  } catch (error) {
    return controlFailed(error);
  }
}

// `/__petkit/rules` and `/__petkit/rules/{id}`: arm, list, switch and disarm rules over HTTP. Each
// handler reads the body, calls the controls (controls.ts, what `mock.rules` calls too) and maps a
// ControlError to its Error body: nothing is decided here.
import { loadSpec } from '../openapi/index.js';
import type { MockCall } from './call.js';
import { bodyOf, controlFailed, json } from './control-answers.js';
import { describeFaultAsSent, invalidMessage, MAX_DETAILS } from './control-invalid.js';
import type { RuleInput, RuleSwitch } from './control-types.js';
import type { Controls } from './controls.js';
import { errorReply, type Reply, reply } from './responses.js';

/** `GET` lists, `POST` arms (201), `DELETE` disarms every rule (204). */
export async function answerRules(call: MockCall, method: string, controls: Controls): Promise<Reply> {
  try {
    if (method === 'GET') return json(200, { rules: await controls.rules.list() });
    if (method === 'DELETE') {
      await controls.rules.disarm();
      return reply(204, null);
    }
    const body = await bodyOf(call);
    if ('refused' in body) return body.refused;
    // Checked by normalizeRule against openapi.yaml's RuleInput: the cast names what it will be.
    return json(201, await controls.rules.arm(body.value as RuleInput));
  } catch (error) {
    return controlFailed(error);
  }
}

/** `PATCH` with `{"enabled": bool}` switches the rule (200), `DELETE` disarms it (204). */
export async function answerRule(
  call: MockCall,
  method: string,
  controls: Controls,
  id: string,
): Promise<Reply> {
  try {
    if (method === 'DELETE') {
      await controls.rules.disarm(id);
      return reply(204, null);
    }
    const body = await bodyOf(call);
    if ('refused' in body) return body.refused;
    const faults = loadSpec().schema('RuleSwitch')(body.value);
    if (faults.length > 0) {
      const details = faults.slice(0, MAX_DETAILS).map(describeFaultAsSent(body.value));
      return errorReply('validation_failed', invalidMessage('switch', details, faults.length), details);
    }
    return json(200, await controls.rules.enable(id, (body.value as RuleSwitch).enabled));
  } catch (error) {
    return controlFailed(error);
  }
}

// auth_enforced: every operation answers 401 without a key, with a wrong key, with a non-Bearer scheme.
import type { Auth } from '../client.js';
import { type Context, expectStatus, PASS } from '../context.js';
import { record, validRequest } from '../requests.js';

const CASES: readonly [Auth, string][] = [
  ['none', 'without an API key'],
  ['wrong', 'with a wrong API key'],
  ['scheme', 'with the key under a non-Bearer scheme (Token)'],
];

export async function authScenario(context: Context): Promise<void> {
  if (!context.selected('auth_enforced')) return;
  for (const operation of context.spec.operations) {
    if (!operation.requiresAuth) continue;
    if (context.readOnly && operation.method !== 'GET') continue;
    const request = validRequest(context, operation);
    for (const [auth, what] of CASES) {
      const exchange = await context.send({ ...request, auth });
      record(context, 'auth_enforced', operation.id, expectStatus(exchange, 401, what) ?? PASS);
    }
  }
}

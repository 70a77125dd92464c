// A rule's network fault under petkit/msw with setupServer: every fault, hang included, is MSW's
// network error, so the app's fetch rejects with a TypeError as it would offline; the journal says
// which rule and which fault; the rule is armed in code (mock.rules) or over the control API.
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMock } from '../mocks/index.js';
import { createHandlers } from '../mocks/msw.js';

const BASE = 'https://api.example.test/v1';
const mock = createMock({ seed: 42 });
const msw = setupServer(...createHandlers({ mock, baseUrl: BASE }));
const KEY = { authorization: 'Bearer demo-free' };

beforeAll(() => msw.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mock.reset());
afterAll(() => msw.close());

const FAULTS = ['reset', 'close', 'malformed', 'truncated', 'hang'] as const;

describe('network faults through petkit/msw (setupServer)', () => {
  it.each(FAULTS)(
    '%s: fetch rejects with a TypeError, and the journal names the rule and the fault',
    async (fault) => {
      const { id } = await mock.rules.arm({ operation: 'listPets', respond: { fault } });
      const error = await fetch(`${BASE}/pets`, { headers: KEY }).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(TypeError);
      expect(mock.journal.at(-1)).toMatchObject({ path: '/v1/pets', rule: id, fault });
      // Only the rule's operation: the others answer as before.
      expect((await fetch(`${BASE}/pets/1`, { headers: KEY })).status).toBe(200);
    },
  );

  it('arms a fault over the control API too, and a reset disarms it', async () => {
    const armed = await fetch('https://api.example.test/__petkit/rules', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'getPet', respond: { fault: 'reset' } }),
    });
    expect(armed.status).toBe(201);
    await expect(fetch(`${BASE}/pets/1`, { headers: KEY })).rejects.toThrow(TypeError);
    await mock.reset();
    expect((await fetch(`${BASE}/pets/1`, { headers: KEY })).status).toBe(200);
  });
});

import { expect, it } from 'vitest';
import { createMock } from '../mocks/index.js';
import { memoryState } from '../mocks/memory-state.js';
import { storedRule } from '../mocks/test-helpers.js';
import { exchangeOf } from './mock-har.js';

it("keeps a rule's network fault in the HAR as status 0, with a comment naming the fault and the rule", async () => {
  const state = memoryState(100);
  const mock = createMock({ clock: () => Date.UTC(2030, 0, 1), state });
  state.control.arm(storedRule({ operation: 'listPets', respond: { fault: 'reset' } }));
  await mock.request('/v1/pets', { headers: { authorization: 'Bearer demo-free' } });
  const [entry] = mock.journal;
  expect(exchangeOf(entry as (typeof mock.journal)[number], 'http://127.0.0.1:4010')).toMatchObject({
    status: 0,
    comment: 'Network fault reset, by rule r1.',
  });
});

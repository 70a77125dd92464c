// Mocks made on a state that outlives them (a shared state, as petkit/postgres connects): each asks
// the state to tell it of resets, and a mock its caller has dropped must not be kept alive by that.
// Run in a child process with --expose-gc, so the collection is the test's to call.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const DIST = fileURLToPath(new URL('../dist/mocks/', import.meta.url));

const SCRIPT = `
import { createMock } from ${JSON.stringify(`${DIST}mock.js`)};
import { memoryState } from ${JSON.stringify(`${DIST}memory-state.js`)};
const listeners = new Set();
const memory = memoryState(1000);
const state = {
  store: memory.store,
  limiter: memory.limiter,
  control: memory.control,
  seed: (pets) => memory.seed(pets),
  reset: (pets) => memory.reset(pets),
  onReset(listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
const kept = createMock({ state });
await kept.request('/v1/pets/1', { headers: { authorization: 'Bearer demo-free' } });
for (let i = 0; i < 50; i += 1) createMock({ state });
const made = listeners.size;
await new Promise((resolve) => setTimeout(resolve, 0));
globalThis.gc();
await new Promise((resolve) => setTimeout(resolve, 0));
const before = kept.journal.length;
for (const listener of [...listeners]) listener({ kind: 'reset', local: false });
console.log(JSON.stringify({ made, left: listeners.size, before, after: kept.journal.length }));
`;

it('a dropped mock is not kept alive by its shared state, and the one kept still has its journal cleared', () => {
  const out = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', SCRIPT], {
    encoding: 'utf8',
  });
  expect(JSON.parse(out)).toEqual({ made: 51, left: 1, before: 1, after: 0 });
});

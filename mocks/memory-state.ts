// The in-memory engine: a mock's state in this process's memory, shared with no other mock. Key
// buckets are as many as the keys; address buckets (requests without a valid key) are bounded, the
// least recently used going first, and never banned (a ban is a key's).
import type { NewPet } from '../openapi/index.js';
import { type MemoryControl, memoryControl } from './memory-control.js';
import { createRateLimiter, MAX_ANONYMOUS_BUCKETS } from './rate-limiter.js';
import type { StoredRule } from './rules.js';
import type { MockState } from './state.js';
import { createStore } from './store.js';

/** A state in this process's memory; its control store answers at once (no promise). */
export interface MemoryState extends MockState {
  readonly control: MemoryControl;
}

export function memoryState(maxPets: number): MemoryState {
  const store = createStore(maxPets);
  const keys = createRateLimiter();
  const addresses = createRateLimiter({ maxBuckets: MAX_ANONYMOUS_BUCKETS, bans: false });
  const control = memoryControl();
  const reset = (pets: readonly NewPet[]): void => {
    store.clear();
    for (const pet of pets) store.create(pet);
    keys.reset();
    addresses.reset();
    control.clear();
  };
  const latest = (a: number | undefined, b: number | undefined): number | undefined =>
    a === undefined ? b : b === undefined ? a : Math.max(a, b);
  return {
    store,
    limiter: {
      take: (bucket, limits, now) =>
        (bucket.kind === 'address' ? addresses : keys).take(bucket.id, limits, now),
      peek: (bucket, limits, now) =>
        (bucket.kind === 'address' ? addresses : keys).peek(bucket.id, limits, now),
      latestWindow: () => latest(keys.latestWindow(), addresses.latestWindow()),
      reset() {
        keys.reset();
        addresses.reset();
      },
      count: () => keys.size + addresses.size,
    },
    control,
    seed(pets: readonly NewPet[], rules: readonly StoredRule[] = []) {
      reset(pets);
      for (const rule of rules) control.arm(rule);
    },
    reset,
  };
}

// The in-memory engine: a mock's state in this process's memory, shared with no other mock. Key
// buckets are as many as the keys; address buckets (requests without a valid key) are bounded, the
// least recently used going first, and never banned (a ban is a key's).
import type { NewPet } from '../openapi/index.js';
import { createRateLimiter, MAX_ANONYMOUS_BUCKETS } from './rate-limiter.js';
import { bucketId, type MockState } from './state.js';
import { createStore } from './store.js';

const ADDRESS = bucketId.address('');

export function memoryState(maxPets: number): MockState {
  const store = createStore(maxPets);
  const keys = createRateLimiter();
  const addresses = createRateLimiter({ maxBuckets: MAX_ANONYMOUS_BUCKETS, bans: false });
  const reset = (pets: readonly NewPet[]): void => {
    store.clear();
    for (const pet of pets) store.create(pet);
    keys.reset();
    addresses.reset();
  };
  return {
    store,
    limiter: {
      take: (bucket, limits, now) =>
        (bucket.startsWith(ADDRESS) ? addresses : keys).take(bucket, limits, now),
      reset() {
        keys.reset();
        addresses.reset();
      },
      count: () => keys.size + addresses.size,
    },
    seed: reset,
    reset,
  };
}

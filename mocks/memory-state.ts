// The in-memory engine: a mock's state in this process's memory, shared with no other mock.
import { createRateLimiter, MAX_ANONYMOUS_BUCKETS } from './rate-limiter.js';
import type { MockState } from './state.js';
import { createStore } from './store.js';

export function memoryState(maxPets: number): MockState {
  return {
    store: createStore(maxPets),
    keyLimiter: createRateLimiter(),
    anonymousLimiter: createRateLimiter({ maxBuckets: MAX_ANONYMOUS_BUCKETS }),
  };
}

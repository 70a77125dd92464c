// The keys file the bench hands `petkit mock`: one key whose limits far exceed what a run sends, so
// the limiter counts every request but never answers 429.
import { BENCH_KEY } from './scenarios.js';

export const BENCH_KEYS_FILE = {
  keys: [{ key: BENCH_KEY, plan: 'enterprise', perMinute: 1_000_000_000, perDay: 1_000_000_000_000 }],
} as const;

// The keys file the bench hands `petkit mock`: one key, and the anonymous bucket (requests without a
// valid key, counted per client address), both with limits far beyond what a run sends, so the limiter
// counts every request but never answers 429.
import type { KeysFile } from '../mocks/index.js';
import { BENCH_KEY } from './scenarios.js';

export const BENCH_KEYS_FILE: Readonly<KeysFile> = {
  keys: [{ key: BENCH_KEY, plan: 'enterprise', perMinute: 1_000_000_000, perDay: 1_000_000_000_000 }],
  anonymous: { perMinute: 1_000_000_000, perDay: 1_000_000_000_000 },
};

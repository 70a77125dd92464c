// Servers broken in a way only the 'sequences' method catches (test/contract-ablation.test.ts proves it).
import type { MethodBrokenServer } from './method-broken.js';

export const BROKEN_SEQUENCES_SERVERS: readonly MethodBrokenServer[] = [];

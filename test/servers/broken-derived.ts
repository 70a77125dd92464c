// Servers broken in a way only the 'derived' method catches (test/contract-ablation.test.ts proves it).
import type { MethodBrokenServer } from './method-broken.js';

export const BROKEN_DERIVED_SERVERS: readonly MethodBrokenServer[] = [];

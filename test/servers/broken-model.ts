// Servers broken in a way only the 'model' method catches (test/contract-ablation.test.ts proves it).
import type { MethodBrokenServer } from './method-broken.js';

export const BROKEN_MODEL_SERVERS: readonly MethodBrokenServer[] = [];

// Servers broken in a way only the 'http' method catches (test/contract-ablation.test.ts proves it).
import type { MethodBrokenServer } from './method-broken.js';

export const BROKEN_HTTP_SERVERS: readonly MethodBrokenServer[] = [];

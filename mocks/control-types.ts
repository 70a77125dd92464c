// The shapes of the control API's rules and clock, as a client sends and reads them. Written by hand
// for the i21 contract; i21-rules replaces the bodies with aliases of the types generated from
// openapi.yaml (`components['schemas'][…]`), keeping these names.

/** How a rule breaks the connection instead of answering (node:http does each its own way). */
export type NetworkFault = 'reset' | 'close' | 'malformed' | 'truncated' | 'hang';

/** What a rule answers: a documented status, a delay, a fault (status and fault never together). */
export interface RuleAnswer {
  status?: number;
  delayMs?: number;
  fault?: NetworkFault;
}

export interface RuleInput {
  operation?: 'listPets' | 'createPet' | 'getPet';
  method?: string;
  path?: string;
  /** Absent: any caller; null: no valid key; a string: that key. */
  key?: string | null;
  times?: number;
  after?: number;
  probability?: number;
  seed?: number;
  respond: RuleAnswer;
}

/** A rule as the control API shows it (its key shown by keyLabel). */
export interface Rule extends RuleInput {
  id: string;
  enabled: boolean;
  matched: number;
  fired: number;
}

export interface ClockChange {
  advanceSeconds?: number;
  set?: string;
  frozen?: boolean;
}

export interface ClockReading {
  now: string;
  frozen: boolean;
  offsetSeconds: number;
}

export interface Window {
  limit: number;
  remaining: number;
  reset: number;
}

export interface KeyWindows {
  now: string;
  keys: { key: string; plan: string; minute: Window; day: Window; bannedUntil: string | null }[];
}

// The in-memory control store: the armed rules and the clock of one mock. Its view is one object,
// rebuilt only when something changes, so the request path reads it with no promise and no allocation.
import { REAL_TIME } from './clock.js';
import { decideFire, MAX_RULES, type StoredRule } from './rules.js';
import type { ActiveRule, ArmedRule, ClockState, ControlStore, ControlView } from './state.js';

interface Armed {
  readonly id: string;
  readonly rule: StoredRule;
  enabled: boolean;
  matched: number;
  fired: number;
}

export interface MemoryControl extends ControlStore {
  view(fresh?: boolean): ControlView;
  arm(rule: StoredRule): ArmedRule | undefined;
  list(): readonly ArmedRule[];
  enable(id: string, enabled: boolean): ArmedRule | undefined;
  disarm(id?: string): number;
  fire(id: string): boolean;
  setClock(clock: ClockState, version: number): boolean;
  /** No rule, real time, ids from r1 again. */
  clear(): void;
}

const armedRule = (armed: Armed): ArmedRule => ({
  ...armed.rule,
  id: armed.id,
  enabled: armed.enabled,
  matched: armed.matched,
  fired: armed.fired,
});

export function memoryControl(): MemoryControl {
  /** Oldest first. */
  let armed: Armed[] = [];
  let nextId = 1;
  let clock: ClockState = REAL_TIME;
  let version = 0;
  let view: ControlView = { version, clock, rules: [] };

  const changed = (): void => {
    version += 1;
    const rules: ActiveRule[] = [];
    for (let i = armed.length - 1; i >= 0; i -= 1) {
      const one = armed[i] as Armed;
      if (one.enabled) rules.push({ ...one.rule, id: one.id });
    }
    view = { version, clock, rules };
  };
  const find = (id: string): Armed | undefined => armed.find((one) => one.id === id);

  return {
    view: () => view,
    get last() {
      return view;
    },
    arm(rule) {
      if (armed.length >= MAX_RULES) return undefined;
      const one: Armed = { id: `r${nextId}`, rule, enabled: true, matched: 0, fired: 0 };
      nextId += 1;
      armed.push(one);
      changed();
      return armedRule(one);
    },
    list: () => armed.map(armedRule).reverse(),
    enable(id, enabled) {
      const one = find(id);
      if (one === undefined) return undefined;
      if (one.enabled !== enabled) {
        one.enabled = enabled;
        changed();
      }
      return armedRule(one);
    },
    disarm(id) {
      const before = armed.length;
      armed = id === undefined ? [] : armed.filter((one) => one.id !== id);
      const gone = before - armed.length;
      if (gone > 0) changed();
      return gone;
    },
    fire(id) {
      const one = find(id);
      if (one === undefined) return false;
      // Counts change no view: the request path reads rules, not their counts.
      const next = decideFire(one.rule, one);
      one.matched = next.matched;
      one.fired = next.fired;
      return next.fires;
    },
    setClock(next, at) {
      if (at !== version) return false;
      clock = next;
      changed();
      return true;
    },
    clear() {
      armed = [];
      nextId = 1;
      clock = REAL_TIME;
      changed();
    },
  };
}

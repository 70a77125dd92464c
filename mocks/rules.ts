// Rules: what a tester arms to make chosen requests fail (a status, a delay, a network fault).
// i21 contract: the signatures are final; i21-rules writes the bodies (validation, messages). The
// matching and firing below are a minimal version so that the core's rule step runs meanwhile.
import type { ErrorDetail, OperationId } from '../openapi/index.js';
import type { Rule, RuleAnswer } from './control-types.js';
import type { ResolvedKey } from './keys.js';
import type { ActiveRule, ArmedRule, Awaitable } from './state.js';

/** The most rules armed at once. */
export const MAX_RULES = 100;

/** A rule as the store keeps it: every field decided (the seed defaulted to the mock's). */
export interface StoredRule {
  readonly operation: OperationId | null;
  readonly method: string | null;
  readonly path: string | null;
  /** undefined: any caller; null: no valid key; a string: that key. */
  readonly key: string | null | undefined;
  readonly times: number | null;
  readonly after: number;
  readonly probability: number | null;
  readonly seed: number;
  readonly respond: RuleAnswer;
}

/** What normalizeRule needs of the mock. */
export interface RuleContext {
  /** The mock's `--seed`: a rule's default, so replicas draw alike. */
  readonly seed: number;
  readonly keys: readonly ResolvedKey[];
}

/** Why a rule cannot be armed. */
export interface RuleFault {
  readonly message: string;
  readonly details?: readonly ErrorDetail[];
}

/** What a request is, as a rule matches it. */
export interface RequestFacts {
  readonly operationId: OperationId;
  readonly method: string;
  readonly path: string;
  /** The valid key sent, or null. */
  readonly key: string | null;
}

export function normalizeRule(_input: unknown, _context: RuleContext): StoredRule | RuleFault {
  throw new Error('i21: not yet');
}

export function normalizeRules(_inputs: readonly unknown[], _context: RuleContext): StoredRule[] {
  throw new Error('i21: not yet');
}

export function shownRule(_rule: ArmedRule): Rule {
  throw new Error('i21: not yet');
}

function matches(rule: StoredRule, facts: RequestFacts): boolean {
  if (rule.operation !== null && rule.operation !== facts.operationId) return false;
  if (rule.method !== null && rule.method !== facts.method) return false;
  if (rule.path !== null) {
    const prefix = rule.path.endsWith('*') ? rule.path.slice(0, -1) : undefined;
    if (prefix === undefined ? rule.path !== facts.path : !facts.path.startsWith(prefix)) return false;
  }
  return rule.key === undefined || rule.key === facts.key;
}

/**
 * The rule that answers a request: tried newest first, each matching one counted by `fire`; the first
 * that fires. Synchronous while `fire` is (the in-memory store).
 */
export function pickRule(
  rules: readonly ActiveRule[],
  facts: RequestFacts,
  fire: (id: string) => Awaitable<boolean>,
): Awaitable<ActiveRule | undefined> {
  for (let i = 0; i < rules.length; i += 1) {
    const rule = rules[i] as ActiveRule;
    if (!matches(rule, facts)) continue;
    const fired = fire(rule.id);
    if (fired instanceof Promise)
      return fired.then((yes) => (yes ? rule : pickRule(rules.slice(i + 1), facts, fire)));
    if (fired) return rule;
  }
  return undefined;
}

/** Counts one match; whether the rule fires on it (after `after` matches, at most `times`, drawn). */
export function decideFire(
  rule: StoredRule,
  counts: { readonly matched: number; readonly fired: number },
): { matched: number; fired: number; fires: boolean } {
  const matched = counts.matched + 1;
  const fires =
    matched > rule.after &&
    (rule.times === null || counts.fired < rule.times) &&
    (rule.probability === null || seededDraw(rule.seed, matched) < rule.probability);
  return { matched, fired: counts.fired + (fires ? 1 : 0), fires };
}

/** A number in [0, 1) from a seed and a count, the same on every replica (mulberry32 of seed ^ n). */
export function seededDraw(seed: number, n: number): number {
  let t = ((seed ^ n) + 0x6d2b79f5) | 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

// Rules: what a tester arms to make chosen API requests fail (a documented status, a delay, a network
// fault), from outside the app (docs/mock.md, "Rules"). A rule is checked once, where it enters
// (normalizeRule: openapi.yaml's RuleInput, then what a schema cannot say), and kept with every field
// decided (StoredRule). On the request path, pickRule tries the enabled rules newest first.
import {
  type ErrorDetail,
  type Fault,
  loadSpec,
  type OperationId,
  type OperationSpec,
} from '../openapi/index.js';
import { describeFaultAsSent, invalidMessage, MAX_DETAILS } from './control-invalid.js';
import type { Rule, RuleAnswer, RuleInput } from './control-types.js';
import { keyLabel } from './key-label.js';
import type { ResolvedKey } from './keys.js';
import { MockOptionsError } from './options.js';
import { shown } from './refusals.js';
import { createRouter } from './router.js';
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

/** Why a rule cannot be armed: a message, and each fault with its JSON Pointer. */
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

/**
 * The value as a message may quote it: a key of the rule shown as the journal shows keys, and every
 * text inside a `key` that is not one (`["sk_live_…"]`, `{"value": "sk_live_…"}`) likewise: whatever
 * shape it came in, a key of the keys file is never repeated.
 */
function quotable(input: unknown): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  const { key } = input as { key?: unknown };
  return key === undefined || key === null ? input : { ...input, key: labelled(key, 0) };
}

/** Each text in `value` as keyLabel shows a key, a few levels and members deep (a message quotes 60 characters). */
function labelled(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return keyLabel(value);
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= 3) return Array.isArray(value) ? [] : {};
  if (Array.isArray(value)) return value.slice(0, 8).map((member) => labelled(member, depth + 1));
  const shown: Record<string, unknown> = {};
  for (const name of Object.keys(value).slice(0, 8))
    shown[keyLabel(name)] = labelled((value as Record<string, unknown>)[name], depth + 1);
  return shown;
}

/** The fault of a rule: the first of its faults in words, all of them (20 at most) in details. */
const ruleFault = (details: readonly ErrorDetail[], total = details.length): RuleFault => ({
  message: invalidMessage('rule', details, total),
  details,
});

/** `400, 401, 429`: the error statuses an operation documents. */
const errorStatuses = (operation: OperationSpec): number[] =>
  [...operation.responses.keys()]
    .map(Number)
    .filter((status) => status >= 400)
    .sort((a, b) => a - b);

const NOTHING = 'the rule would match nothing';

/** Whether a request with `method` can be one of `operation`'s (HEAD is answered as GET). */
const methodOf = (method: string, operation: OperationSpec): boolean =>
  method === operation.method || (method === 'HEAD' && operation.method === 'GET');

/**
 * Whether some path of `template` (`/v1/pets/{petId}`, a parameter one or more characters other
 * than `/`) begins with `prefix`.
 */
function beginsSomePath(template: string, prefix: string): boolean {
  let t = 0;
  let p = 0;
  while (p < prefix.length) {
    if (t >= template.length) return false;
    if (template[t] === '{') {
      if (prefix[p] === '/') return false;
      while (p < prefix.length && prefix[p] !== '/') p += 1;
      t = template.indexOf('}', t) + 1;
    } else {
      if (template[t] !== prefix[p]) return false;
      t += 1;
      p += 1;
    }
  }
  return true;
}

/**
 * The operation a rule is for: the one it names, or the one its method and exact path route to; and
 * each part of it that can match no request of that operation (a rule that would never fire).
 */
function operationOf(
  rule: RuleInput,
  method: string | null,
): { operation: OperationSpec | undefined; faults: ErrorDetail[] } {
  const spec = loadSpec();
  const named = rule.operation === undefined ? undefined : spec.operation(rule.operation);
  const faults: ErrorDetail[] = [];
  if (method !== null) {
    if (named !== undefined && !methodOf(method, named))
      faults.push({
        path: '/method',
        message: `${method} is not the method of ${named.id} (${named.method}): ${NOTHING}`,
      });
    if (named === undefined && !spec.operations.some((operation) => methodOf(method, operation)))
      faults.push({ path: '/method', message: `${method} is the method of no operation: ${NOTHING}` });
  }
  const path = rule.path;
  if (faults.length > 0 || path === undefined) return { operation: named, faults };
  // A control character or a space is no part of a request's target (RFC 9112): no request has it.
  if (hasControl(path)) {
    faults.push({
      path: '/path',
      message: `${shown(path)} holds a space or a control character, which no request's path has: ${NOTHING}`,
    });
    return { operation: named, faults };
  }
  if (/[?#]/.test(path)) {
    faults.push({
      path: '/path',
      message: `${shown(path)} holds a query or a fragment; a rule matches the path without them: ${NOTHING}`,
    });
    return { operation: named, faults };
  }
  // The operations the rule could be for: the one it names, or those of its method, or any.
  const candidates =
    named !== undefined
      ? [named]
      : spec.operations.filter((operation) => method === null || methodOf(method, operation));
  if (path.endsWith('*')) {
    const prefix = path.slice(0, -1);
    if (!candidates.some((operation) => beginsSomePath(`${spec.basePath}${operation.path}`, prefix)))
      faults.push({
        path: '/path',
        message: `no path of ${named?.id ?? (method === null ? 'any operation' : `an operation with ${method}`)} begins ${shown(prefix)} (paths start ${spec.basePath}, as the journal shows them): ${NOTHING}`,
      });
    return { operation: named, faults };
  }
  const exact = path;
  const router = createRouter(spec);
  const methods = method !== null ? [method] : [...new Set(candidates.map((operation) => operation.method))];
  let routed: OperationSpec | undefined;
  for (const tried of methods) {
    const route = router.match(tried, exact);
    if (route.kind === 'operation') {
      routed = route.operation;
      break;
    }
  }
  // A path alone names no operation (a status needs one), even one it routes to.
  if (named === undefined && method === null && routed !== undefined) return { operation: named, faults };
  if (routed === undefined)
    faults.push({
      path: '/path',
      message: `${shown(exact)} is no path of ${named?.id ?? (method === null ? 'any operation' : `an operation with ${method}`)} (paths start ${spec.basePath}, as the journal shows them): ${NOTHING}`,
    });
  else if (named !== undefined && routed !== named)
    faults.push({
      path: '/path',
      message: `${shown(exact)} routes to ${routed.id}, not ${named.id}: ${NOTHING}`,
    });
  return { operation: named ?? routed, faults };
}

/**
 * A rule as it enters (the control API's body, a rules file's entry, `mock.rules.arm`): checked
 * against openapi.yaml's RuleInput, then for what a schema cannot say (a status the operation
 * documents, a key of the keys file, a status or a fault, not both); every field decided.
 */
export function normalizeRule(input: unknown, context: RuleContext): StoredRule | RuleFault {
  const faults: readonly Fault[] = loadSpec().schema('RuleInput')(input);
  if (faults.length > 0)
    return ruleFault(faults.slice(0, MAX_DETAILS).map(describeFaultAsSent(quotable(input))), faults.length);
  const given = input as RuleInput;
  // A lone surrogate is half of a character, none at all: no request's target holds one (fetch and
  // Node's URL send U+FFFD). Said as it came: the percent-encoding below would have made it a NUL.
  if (given.path !== undefined && LONE_SURROGATE.test(given.path))
    return ruleFault([
      {
        path: '/path',
        message: `${shown(given.path)} holds a lone surrogate (half of a character), which no request's path has: ${NOTHING}`,
      },
    ]);
  // A path is matched as the request's target came, and a target is ASCII: a character beyond it is
  // sent percent-encoded (`/v1/pets/ü` as `/v1/pets/%C3%BC`, as fetch, browsers and Node's URL encode
  // it), so the rule keeps it that way; else it was armed and could never match.
  // Its escapes are written upper-case (`%c3%bc` is `%C3%BC`, RFC 3986 2.1), as a request's are
  // read when rules are tried.
  const rule = given.path === undefined ? given : { ...given, path: upperEscapes(asciiPath(given.path)) };
  const method = rule.method === undefined ? null : rule.method.toUpperCase();
  const { operation, faults: details } = operationOf(rule, method);
  const { status, fault } = rule.respond;
  if (status !== undefined && fault !== undefined)
    details.push({
      path: '/respond',
      message:
        'holds a status and a fault: a rule answers with one or the other (delayMs may go with either)',
    });
  if (status !== undefined) {
    if (operation === undefined) {
      details.push({
        path: '/respond/status',
        message:
          'needs an operation: give operation, or method and a path that routes to one (a status must be one the operation documents)',
      });
    } else if (!operation.responses.has(String(status))) {
      details.push({
        path: '/respond/status',
        message: `${status} is not a documented error status of ${operation.id} (documented: ${errorStatuses(operation).join(', ')})`,
      });
    }
  }
  if (typeof rule.key === 'string' && !context.keys.some((entry) => entry.key === rule.key))
    details.push({ path: '/key', message: `${keyLabel(rule.key)} names no key of the keys file` });
  if (details.length > 0) return ruleFault(details);
  const respond: { -readonly [K in keyof RuleAnswer]: RuleAnswer[K] } = {};
  if (status !== undefined) respond.status = status;
  if (rule.respond.delayMs !== undefined) respond.delayMs = rule.respond.delayMs;
  if (fault !== undefined) respond.fault = fault;
  return {
    operation: (operation?.id as OperationId | undefined) ?? null,
    method,
    path: rule.path ?? null,
    key: rule.key,
    times: rule.times ?? null,
    after: rule.after ?? 0,
    probability: rule.probability ?? null,
    seed: rule.seed ?? context.seed,
    respond,
  };
}

export const isRuleFault = (rule: StoredRule | RuleFault): rule is RuleFault => 'message' in rule;

/**
 * The rules of a rules file or the `rules` option; throws MockOptionsError naming the first bad one
 * by its index and its fault's pointer (`rules[2]/respond/status 418 is not …`).
 */
export function normalizeRules(inputs: readonly unknown[], context: RuleContext): StoredRule[] {
  if (inputs.length > MAX_RULES)
    throw new MockOptionsError(`rules holds ${inputs.length} rules; at most ${MAX_RULES} are armed at once.`);
  return inputs.map((input, i) => {
    const rule = normalizeRule(input, context);
    if (!isRuleFault(rule)) return rule;
    const [first] = rule.details ?? [];
    const others = (rule.details?.length ?? 1) - 1;
    const what = first === undefined ? rule.message : `${first.path} ${first.message}`;
    throw new MockOptionsError(`rules[${i}]${what}${others > 0 ? ` (and ${others} more)` : ''}.`);
  });
}

/**
 * A rule as the control API shows it: what it matches (its key as the journal shows keys), how it
 * answers, then its switch and counts; `seed` only where it draws (`probability`).
 */
export function shownRule(rule: ArmedRule): Rule {
  const matching: Partial<Rule> = {};
  if (rule.operation !== null) matching.operation = rule.operation;
  if (rule.method !== null) matching.method = rule.method;
  if (rule.path !== null) matching.path = rule.path;
  if (rule.key !== undefined) matching.key = rule.key === null ? null : keyLabel(rule.key);
  if (rule.times !== null) matching.times = rule.times;
  const drawn = rule.probability === null ? {} : { probability: rule.probability, seed: rule.seed };
  return {
    id: rule.id,
    enabled: rule.enabled,
    ...matching,
    after: rule.after,
    ...drawn,
    respond: { ...rule.respond },
    matched: rule.matched,
    fired: rule.fired,
  };
}

function matches(rule: StoredRule, facts: RequestFacts, path: string): boolean {
  if (rule.operation !== null && rule.operation !== facts.operationId) return false;
  // A GET rule matches HEAD too: the router answers HEAD as GET.
  if (
    rule.method !== null &&
    rule.method !== facts.method &&
    !(rule.method === 'GET' && facts.method === 'HEAD')
  )
    return false;
  if (rule.path !== null) {
    const prefix = rule.path.endsWith('*') ? rule.path.slice(0, -1) : undefined;
    if (prefix === undefined ? rule.path !== path : !path.startsWith(prefix)) return false;
  }
  return rule.key === undefined || rule.key === facts.key;
}

/**
 * The rule that answers a request: tried newest first, each matching one counted by `fire`; the first
 * that fires. A newer one that matches but does not fire (times spent, `after` not reached, not drawn)
 * lets older ones try. Synchronous while `fire` is (the in-memory store).
 */
export function pickRule(
  rules: readonly ActiveRule[],
  facts: RequestFacts,
  fire: (id: string) => Awaitable<boolean>,
): Awaitable<ActiveRule | undefined> {
  // Percent-encoding's hex digits are either case (`%c3%bc` and `%C3%BC` are one path, RFC 3986
  // 2.1; clients send both): compared upper-case, as a rule's path is kept.
  const path = facts.path.includes('%') ? upperEscapes(facts.path) : facts.path;
  for (let i = 0; i < rules.length; i += 1) {
    const rule = rules[i] as ActiveRule;
    if (!matches(rule, facts, path)) continue;
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

/** `path` with every character beyond ASCII percent-encoded as UTF-8 (upper-case hex, as `new URL` writes it). */
function asciiPath(path: string): string {
  // A lone surrogate never comes here (normalizeRule refuses it first): encodeURIComponent throws on it.
  return NON_ASCII.test(path) ? path.replace(NON_ASCII_RUNS, encodeURIComponent) : path;
}
const LONE_SURROGATE = /\p{Surrogate}/u;
/** `path` with the hex digits of its percent-escapes upper-case. */
function upperEscapes(path: string): string {
  return LOWER_ESCAPE.test(path) ? path.replace(ESCAPES, (hex) => hex.toUpperCase()) : path;
}
const LOWER_ESCAPE = /%(?:[a-f][0-9a-fA-F]|[0-9A-F][a-f])/;
const ESCAPES = /%[0-9a-fA-F]{2}/g;
const NON_ASCII = /[\u{80}-\u{10FFFF}]/u;
const NON_ASCII_RUNS = /[\u{80}-\u{10FFFF}]+/gu;

/** A space, a control character or DEL: none is in a request's target. */
function hasControl(path: string): boolean {
  for (let i = 0; i < path.length; i += 1) {
    const code = path.charCodeAt(i);
    if (code <= 0x20 || code === 0x7f) return true;
  }
  return false;
}

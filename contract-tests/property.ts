// Runs a scenario's cases in two passes of the run, so that a tight budget of requests is spent where it
// tells most: in the first pass, the first hand-derived case of each kind (every boundary, every kind of
// invalid value); in the second, the other cases of those kinds, then generated ones from the seed as a
// fast-check property (as many as the budget's share allows), whose first failing case is shrunk to a
// minimal one within a request budget. Each distinct kind of failing case gives its own finding, so a
// second bug is not hidden by the first; a kind that failed in the first pass is not sent again.
// `runCases` sends fixed cases each on its own instead: every one is sent and judged, whatever failed
// before it, and the failures group into one finding per kind and fault.
import fc from 'fast-check';
import type { CheckId } from './checks.js';
import type { Context, Verdict } from './context.js';

/** Requests a shrink may spend; past it, candidates are not sent and the smallest failure so far stands. */
const SHRINK_BUDGET = 40;

type Failure = Extract<Verdict, { kind: 'fail' }>;

export interface PropertyInput<T> {
  readonly check: CheckId;
  readonly operationId: string;
  readonly examples: readonly T[];
  readonly arbitrary: fc.Arbitrary<T>;
  /** Distinguishes the properties of one run, so that each draws its own cases from the seed. */
  readonly salt: number;
  readonly run: (value: T) => Promise<Verdict>;
  /** The case in words, for the finding's message: what is invalid in it. */
  readonly describe: (value: T) => string;
  /** The kind of case (the mutation): one finding per failing kind. One kind when absent. */
  readonly kind?: (value: T) => string;
}

export async function runProperty<T>(context: Context, input: PropertyInput<T>): Promise<void> {
  const kindOf = input.kind ?? (() => '');
  const failed = new Map<string, { failure: Failure; value: T; shrinks: number }>();
  const failedBefore = context.failedKinds(`${input.check}|${input.operationId}|${input.salt}`);
  const seenKinds = new Set<string>();
  // Without kinds, every example is a boundary of its own; with them, the first of each kind is.
  const firsts = input.examples.filter((value) => {
    if (input.kind === undefined) return true;
    const kind = kindOf(value);
    if (seenKinds.has(kind)) return false;
    seenKinds.add(kind);
    return true;
  });
  const examples =
    context.pass === 'boundaries' ? firsts : input.examples.filter((value) => !firsts.includes(value));

  for (const value of examples) {
    if (failed.has(kindOf(value)) || failedBefore.has(kindOf(value))) continue;
    if (context.pass === 'more' && context.budgetLeft() < 1) break;
    const verdict = await input.run(value);
    if (verdict.kind === 'fail') failed.set(kindOf(value), { failure: verdict, value, shrinks: 0 });
    if (verdict.kind === 'pass') context.passed(input.check, input.operationId);
  }

  const runs = context.pass === 'more' ? Math.min(context.examples, context.generatedShare()) : 0;
  if (runs > 0) {
    let failure: Failure | undefined;
    let failingValue: T | undefined;
    let aborted: unknown;
    let sent = 0;
    let failedAt = 0;
    const details = await fc.check(
      fc.asyncProperty(input.arbitrary, async (value) => {
        if (aborted !== undefined) return true;
        // A kind the examples already showed failing is not sent again (not filtered: fast-check's
        // filter would loop for ever once every kind has failed).
        if (failed.has(kindOf(value)) || failedBefore.has(kindOf(value))) return true;
        if (context.budgetLeft() < 1) return true;
        if (failure !== undefined && sent - failedAt >= SHRINK_BUDGET) return true;
        if (failure !== undefined && kindOf(value) !== kindOf(failingValue as T)) return true;
        if (sent >= runs + SHRINK_BUDGET) return true;
        sent += 1;
        let verdict: Verdict;
        try {
          verdict = await input.run(value);
        } catch (cause) {
          aborted = cause;
          return true;
        }
        if (verdict.kind === 'fail') {
          if (failure === undefined) failedAt = sent;
          failure = verdict;
          failingValue = value;
          return false;
        }
        if (verdict.kind === 'pass') context.passed(input.check, input.operationId);
        return true;
      }),
      { seed: (context.seed + input.salt * 7919) | 0, numRuns: runs },
    );
    if (aborted !== undefined) throw aborted;
    if (failure !== undefined && failingValue !== undefined) {
      failed.set(kindOf(failingValue), { failure, value: failingValue, shrinks: details.numShrinks });
    }
  }

  for (const [kind, { failure, value, shrinks }] of failed) {
    failedBefore.add(kind);
    const shrunk = shrinks > 0 ? ` (shrunk in ${shrinks} steps)` : '';
    context.failed(input.check, failure.exchange, {
      message: `${failure.message} for ${input.describe(value)}${shrunk}`,
      expected: failure.expected,
      ...(failure.instancePath === undefined ? {} : { instancePath: failure.instancePath }),
    });
  }
}

export interface CasesInput<T> {
  readonly check: CheckId;
  readonly operationId: string;
  readonly cases: readonly T[];
  /** The salt of the property that generates more cases of the kind `generated` (runProperty). */
  readonly salt: number;
  /** The kind of the generated cases: when a fixed case of it failed, they are not sent (runProperty). */
  readonly generated: string;
  readonly run: (value: T) => Promise<Verdict>;
  /** The case in words, for the finding's message and its list of cases. */
  readonly describe: (value: T) => string;
  /** The kind of case: one finding per failing kind (and fault). */
  readonly kind: (value: T) => string;
}

/**
 * Fixed cases, in the first pass only, each sent and judged on its own: a failing case does not keep
 * the others from being sent. The failures of one kind with one fault are one finding, whose cases
 * list them; a failure of the kind `generated` keeps runProperty from sending generated cases of it.
 */
export async function runCases<T>(context: Context, input: CasesInput<T>): Promise<void> {
  if (context.pass !== 'boundaries') return;
  const failedBefore = context.failedKinds(`${input.check}|${input.operationId}|${input.salt}`);
  for (const value of input.cases) {
    const verdict = await input.run(value);
    if (verdict.kind === 'pass') context.passed(input.check, input.operationId);
    if (verdict.kind !== 'fail') continue;
    const kind = input.kind(value);
    if (kind === input.generated) failedBefore.add('');
    const status = verdict.exchange.response?.status;
    const fault =
      verdict.cause ??
      verdict.instancePath ??
      `${verdict.expected} → ${status ?? verdict.exchange.failure?.kind ?? 'no response'}`;
    const described = input.describe(value);
    context.failed(input.check, verdict.exchange, {
      message: `${verdict.message} for ${described}`,
      expected: verdict.expected,
      cause: `${kind}: ${fault}`,
      case: described,
      ...(verdict.instancePath === undefined ? {} : { instancePath: verdict.instancePath }),
    });
  }
}

// Runs a scenario's cases: the hand-picked examples one by one, then generated ones from the seed as a
// fast-check property, whose first failing case is shrunk to a minimal one within a request budget.
// Each distinct kind of failing case gives its own finding, so a second bug is not hidden by the first.
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

  for (const value of input.examples) {
    if (failed.has(kindOf(value))) continue;
    const verdict = await input.run(value);
    if (verdict.kind === 'fail') failed.set(kindOf(value), { failure: verdict, value, shrinks: 0 });
    if (verdict.kind === 'pass') context.passed(input.check, input.operationId);
  }

  if (context.examples > 0) {
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
        if (failed.has(kindOf(value))) return true;
        if (failure !== undefined && sent - failedAt >= SHRINK_BUDGET) return true;
        if (failure !== undefined && kindOf(value) !== kindOf(failingValue as T)) return true;
        if (sent >= context.examples + SHRINK_BUDGET) return true;
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
      { seed: (context.seed + input.salt * 7919) | 0, numRuns: context.examples },
    );
    if (aborted !== undefined) throw aborted;
    if (failure !== undefined && failingValue !== undefined) {
      failed.set(kindOf(failingValue), { failure, value: failingValue, shrinks: details.numShrinks });
    }
  }

  for (const { failure, value, shrinks } of failed.values()) {
    const shrunk = shrinks > 0 ? ` (shrunk in ${shrinks} steps)` : '';
    context.failed(input.check, failure.exchange, {
      message: `${failure.message} for ${input.describe(value)}${shrunk}`,
      expected: failure.expected,
      ...(failure.instancePath === undefined ? {} : { instancePath: failure.instancePath }),
    });
  }
}

// Runs a scenario's cases as a fast-check property: hand-picked examples first, then generated
// ones from the seed; the first failing case is shrunk to a minimal one, within a request budget.
import fc from 'fast-check';
import type { CheckId } from './checks.js';
import type { Context, Verdict } from './context.js';

/** Requests a shrink may spend; past it, candidates are not sent and the smallest failure so far stands. */
const SHRINK_BUDGET = 40;

export interface PropertyInput<T> {
  readonly check: CheckId;
  readonly operationId: string;
  readonly examples: readonly T[];
  readonly arbitrary: fc.Arbitrary<T>;
  /** Distinguishes the properties of one run, so that each draws its own cases from the seed. */
  readonly salt: number;
  readonly run: (value: T) => Promise<Verdict>;
  readonly describe: (value: T) => string;
}

export async function runProperty<T>(context: Context, input: PropertyInput<T>): Promise<void> {
  let failure: Extract<Verdict, { kind: 'fail' }> | undefined;
  let failingValue: T | undefined;
  let aborted: unknown;
  let sent = 0;
  let failedAt = 0;
  const budget = input.examples.length + context.examples;
  const details = await fc.check(
    fc.asyncProperty(input.arbitrary, async (value) => {
      if (aborted !== undefined) return true;
      if (failure !== undefined && sent - failedAt >= SHRINK_BUDGET) return true;
      if (sent >= budget + SHRINK_BUDGET) return true;
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
    {
      seed: (context.seed + input.salt * 7919) | 0,
      numRuns: input.examples.length + context.examples,
      examples: input.examples.map((value) => [value] as [T]),
    },
  );
  if (aborted !== undefined) throw aborted;
  if (failure !== undefined && failingValue !== undefined) {
    const shrunk = details.numShrinks > 0 ? ` (shrunk in ${details.numShrinks} steps)` : '';
    context.failed(input.check, failure.exchange, {
      message: `${failure.message} for ${input.describe(failingValue)}${shrunk}`,
      expected: failure.expected,
      ...(failure.instancePath === undefined ? {} : { instancePath: failure.instancePath }),
    });
  }
}

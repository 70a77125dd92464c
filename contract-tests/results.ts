// What the run concluded, pair by pair (check, operation): passes, findings, notes and what could not be
// verified, and the results table built from them at the end.
import type { Spec } from '../openapi/index.js';
import { CHECKS, type CheckId } from './checks.js';
import { type Finding, findingKey, MAX_CASES } from './finding.js';
import type { NormalizedOptions } from './options.js';
import type { CheckResult, CoverageEntry } from './report.js';

/** Why a pair was skipped when the run was asked not to judge it: the selection, an opt-in, --read-only. */
const NOT_SELECTED_OPERATION = 'not selected (--operations/--skip-operations)';
const NOT_SELECTED_CHECK = 'not selected (--checks/--skip)';
const OPT_IN = 'opt-in: run with ';
const READ_ONLY = '--read-only: no request sent';

/**
 * Whether a pair was skipped because the run was asked not to judge it (see above), rather than
 * because the run did not get to it or could not conclude (a budget, a stop, no conclusive case).
 */
export function skippedByChoice(reason: string | undefined): boolean {
  return (
    reason === NOT_SELECTED_OPERATION ||
    reason === NOT_SELECTED_CHECK ||
    reason === READ_ONLY ||
    reason?.startsWith(OPT_IN) === true
  );
}

/** How the run ended, as far as the table needs it to say why a pair was not judged. */
export interface RunEnd {
  /** The target stopped answering after this many answered requests. */
  readonly silentAfter: number | undefined;
  /**
   * Operations no longer sent (client.ts, OPERATION_SILENT_AFTER), each with why, in words that follow
   * its id: `got no whole response to 3 requests in a row (the last: …)`.
   */
  readonly muted?: ReadonlyMap<string, string>;
  readonly aborted: boolean;
  /** The budget in force when it was spent, or undefined when it was not. */
  readonly budgetSpent: number | undefined;
  /**
   * The time budget (s) and why it stopped the run (what the windows offered), if it did; `waitsFor`,
   * when the budget did not run out but a wait for the window would have ended past it: the
   * --time-budget (s) that would have waited.
   */
  readonly outOfTime?:
    | { readonly seconds: number; readonly reason: string; readonly waitsFor?: number | undefined }
    | undefined;
}

/** Who found it on which exchange: one finding per (check, exchange), a scenario's before a judge's. */
export interface FoundBy {
  readonly sentSeq: number;
  readonly by: 'judge' | 'scenario';
}

export interface Results {
  /**
   * A finding of a selected check on a tested operation; the same departure again counts an
   * occurrence. With `foundBy`, a judge's finding and a scenario's on one exchange under one check are
   * one: the scenario's words stand (they name its case), with the judge's reasons.
   */
  add(finding: Finding, foundBy?: FoundBy): void;
  /** A finding whatever was selected (a target that stopped answering). */
  force(finding: Finding): void;
  passed(check: CheckId, operationId: string): void;
  /**
   * A phase of the run finished: its passes stand even if the run stops later. Until then, a stop
   * leaves the pairs it alone judged skipped, not passed.
   */
  completed(phase: string): void;
  note(check: CheckId, operationId: string, reason: string): void;
  unverified(check: CheckId, operationId: string, reason: string): void;
  /** A request of an operation went out (answered or not): a pair of one that got none says so. */
  sent(operationId: string): void;
  /** A status an operation answered (the coverage). */
  exercised(operationId: string, status: number): void;
  findings(): Finding[];
  table(end: RunEnd): CheckResult[];
  coverage(): CoverageEntry[];
}

export function createResults(
  spec: Spec,
  options: Pick<NormalizedOptions, 'checks' | 'operations' | 'readOnly' | 'budget' | 'maxRpm'>,
  /** The phase running now, which a pass is counted in. */
  phaseOf: () => string = () => '',
): Results {
  const findings = new Map<string, Finding>();
  const passes = new Map<string, number>();
  const notes = new Map<string, string>();
  const unverified = new Map<string, string>();
  const seen = new Set<string>();
  /** The operations a request went out to. */
  const sentOf = new Set<string>();
  const key = (check: CheckId, operationId: string) => `${check}|${operationId}`;
  /** Passes by the phase that judged them: a phase that did not complete proves nothing passed. */
  const passesIn = new Map<string, Map<string, number>>();
  const done = new Set<string>();
  /** By check and exchange: the judge's finding there, under its key, and whether it made the entry. */
  const judged = new Map<
    string,
    { readonly key: string; readonly fresh: boolean; readonly finding: Finding }
  >();
  const scenarioFound = new Set<string>();

  const insert = (finding: Finding): boolean => {
    const existing = findings.get(findingKey(finding));
    if (existing === undefined) {
      findings.set(findingKey(finding), finding);
      return true;
    }
    existing.occurrences += 1;
    if (!existing.instancePaths.includes(finding.instancePath))
      existing.instancePaths.push(finding.instancePath);
    const next = finding.cases?.[0];
    const cases = existing.cases;
    if (next !== undefined && cases !== undefined && !cases.includes(next) && cases.length < MAX_CASES)
      cases.push(next);
    return false;
  };

  return {
    add(finding, foundBy) {
      if (!options.checks.has(finding.check) || !options.operations.has(finding.operationId)) return;
      if (foundBy === undefined) {
        insert(finding);
        return;
      }
      const at = `${finding.check}|${foundBy.sentSeq}`;
      if (foundBy.by === 'judge') {
        if (scenarioFound.has(at) || judged.has(at)) return;
        judged.set(at, { key: findingKey(finding), fresh: insert(finding), finding });
        return;
      }
      scenarioFound.add(at);
      const earlier = judged.get(at);
      judged.delete(at);
      if (earlier !== undefined) {
        // Taken back: the scenario's finding says the same of this exchange in its own words.
        const entry = findings.get(earlier.key);
        if (entry !== undefined && entry.occurrences > 1) entry.occurrences -= 1;
        else if (earlier.fresh) findings.delete(earlier.key);
      }
      const because = earlier?.finding.because;
      insert(because === undefined || finding.because !== undefined ? finding : { ...finding, because });
    },
    force(finding) {
      findings.set(findingKey(finding), finding);
    },
    passed(check, operationId) {
      const k = key(check, operationId);
      passes.set(k, (passes.get(k) ?? 0) + 1);
      const byPhase = passesIn.get(k) ?? new Map<string, number>();
      byPhase.set(phaseOf(), (byPhase.get(phaseOf()) ?? 0) + 1);
      passesIn.set(k, byPhase);
    },
    completed(phase) {
      done.add(phase);
    },
    note(check, operationId, reason) {
      notes.set(key(check, operationId), reason);
    },
    unverified(check, operationId, reason) {
      unverified.set(key(check, operationId), reason);
    },
    sent(operationId) {
      sentOf.add(operationId);
    },
    exercised(operationId, status) {
      seen.add(`${operationId}|${status}`);
    },
    // A finding only a judge made comes after the others: a scenario's names its case (a shrunk one).
    findings: () => {
      const byJudge = new Set([...judged.values()].filter((at) => at.fresh).map((at) => at.key));
      const all = [...findings.entries()];
      return [...all.filter(([key]) => !byJudge.has(key)), ...all.filter(([key]) => byJudge.has(key))].map(
        ([, finding]) => finding,
      );
    },
    coverage: () =>
      spec.operations.flatMap((operation) =>
        [...operation.responses.keys()].map((status) => ({
          operationId: operation.id,
          status,
          exercised: seen.has(`${operation.id}|${status}`),
        })),
      ),
    table(end) {
      const all = [...findings.values()];
      const results: CheckResult[] = [];
      /** Why the run ended before its last phase, when it did (a silent target has its own reasons). */
      const timeBudget =
        end.outOfTime === undefined
          ? undefined
          : end.outOfTime.waitsFor === undefined
            ? `the time budget of ${end.outOfTime.seconds} s ran out (--time-budget)`
            : `the run stopped short of its time budget of ${end.outOfTime.seconds} s, not to wait past it ` +
              `(--time-budget ${end.outOfTime.waitsFor} or more waits)`;
      const stopped = end.aborted
        ? 'the run stopped'
        : end.outOfTime !== undefined
          ? `${timeBudget}: ${end.outOfTime.reason}`
          : end.budgetSpent === undefined
            ? undefined
            : budgetSpent(end.budgetSpent, options, '');
      /** Passes counted in phases that did not finish: after a stop, a pair with any is not judged whole. */
      const unfinished = (k: string) =>
        stopped === undefined
          ? 0
          : [...(passesIn.get(k) ?? new Map<string, number>())]
              .filter(([phase]) => !done.has(phase))
              .reduce((sum, [, n]) => sum + n, 0);
      for (const check of CHECKS) {
        for (const operation of spec.operations) {
          if (!check.appliesTo(operation)) continue;
          const k = key(check.id, operation.id);
          const mine = all.filter(
            (finding) => finding.check === check.id && finding.operationId === operation.id,
          );
          const passed = passes.get(k) ?? 0;
          const base = { check: check.id, operationId: operation.id, passes: passed, findings: mine.length };
          if (!options.operations.has(operation.id)) {
            results.push({
              ...base,
              outcome: 'skipped',
              reason: NOT_SELECTED_OPERATION,
            });
          } else if (!options.checks.has(check.id)) {
            const reason = check.optIn !== false ? `${OPT_IN}${check.optIn}` : NOT_SELECTED_CHECK;
            results.push({ ...base, outcome: 'skipped', reason });
          } else if (mine.some((finding) => finding.severity === 'error')) {
            results.push({ ...base, outcome: 'failed' });
          } else if (end.silentAfter !== undefined) {
            const answered = `${end.silentAfter} answered request${end.silentAfter === 1 ? '' : 's'}`;
            results.push({
              ...base,
              outcome: 'skipped',
              reason: `not judged: the target stopped answering after ${answered}`,
            });
          } else if (end.muted?.has(operation.id) === true) {
            // Its first requests may have passed: not the cases it was to send after.
            const why = `${operation.id} was no longer sent: it ${end.muted.get(operation.id) ?? ''}`;
            const cases = `${passed} case${passed === 1 ? '' : 's'} passed before, none failed`;
            results.push({
              ...base,
              outcome: 'skipped',
              reason: passed === 0 ? `not judged: ${why}` : `${why} (${cases})`,
            });
          } else if (unverified.has(k)) {
            results.push({ ...base, outcome: 'skipped', reason: unverified.get(k) ?? '' });
          } else if (mine.length > 0) {
            results.push({ ...base, outcome: 'warning' });
          } else if (passed > 0 && unfinished(k) === 0) {
            results.push({ ...base, outcome: 'passed' });
          } else if (passed > 0 && stopped !== undefined) {
            // A phase that judged it did not finish: the cases sent so far passed, the rest were never judged.
            const cases = `${passed} case${passed === 1 ? '' : 's'} passed, none failed`;
            results.push({ ...base, outcome: 'skipped', reason: `${stopped} before it finished (${cases})` });
          } else {
            const reason =
              notes.get(k) ??
              (options.readOnly && operation.method !== 'GET'
                ? READ_ONLY
                : end.aborted
                  ? 'the run stopped before it'
                  : end.outOfTime !== undefined
                    ? `${timeBudget} before it: ${end.outOfTime.reason}`
                    : end.budgetSpent !== undefined
                      ? budgetSpent(end.budgetSpent, options, ' before it')
                      : !sentOf.has(operation.id)
                        ? `no request of ${operation.id} was sent by the checks selected`
                        : 'no conclusive case (see the other findings)');
            results.push({ ...base, outcome: 'skipped', reason });
          }
        }
      }
      return results;
    },
  };
}

/**
 * Why a pair was not judged when the budget ran out: `--budget N` given, or the default of two windows
 * of --max-rpm when given, else of the key's limit (which a key of 1 or 2 a minute leaves at a single
 * request), less their margins.
 */
function budgetSpent(
  requests: number,
  options: { readonly budget: number | undefined; readonly maxRpm: number | undefined },
  when: string,
): string {
  const count = `${requests} request${requests === 1 ? '' : 's'}`;
  const which =
    options.budget !== undefined
      ? '--budget'
      : `the default: two windows of ${options.maxRpm !== undefined ? '--max-rpm' : "the key's X-RateLimit-Limit"} less their margins; --budget N sets it`;
  return `the budget of ${count} was spent${when} (${which})`;
}

// The result of a run, as data: what every reporter formats. Its JSON form is documented in the README.
import type { CheckId } from './checks.js';
import type { AbortCode } from './errors.js';
import type { Finding } from './finding.js';

export type Outcome = 'passed' | 'failed' | 'warning' | 'skipped';

export interface CheckResult {
  readonly check: CheckId;
  readonly operationId: string;
  readonly outcome: Outcome;
  /** Conclusive evaluations that found nothing wrong. */
  readonly passes: number;
  /** Findings (distinct departures) of this check on this operation. */
  readonly findings: number;
  /** Why it was skipped, when it was. */
  readonly reason?: string;
}

export interface CoverageEntry {
  readonly operationId: string;
  /** A documented status: `200`, `404`. */
  readonly status: string;
  readonly exercised: boolean;
}

export interface Report {
  readonly tool: 'petkit contract';
  /** The shape's version: a breaking change to this shape bumps it. */
  readonly schemaVersion: 1;
  readonly baseUrl: string;
  readonly seed: number;
  readonly examples: number;
  readonly readOnly: boolean;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly requests: number;
  /** The requests-per-minute budget in force at the end (explicit, or learnt from X-RateLimit-Limit). */
  readonly maxRpm: number | null;
  /** The most requests the run would send (--budget, or two minutes of the pace); null if unknown. */
  readonly budget: number | null;
  /** One per check and operation it applies to. */
  readonly results: readonly CheckResult[];
  readonly findings: readonly Finding[];
  readonly coverage: readonly CoverageEntry[];
  /** `aborted` when the run could not go on (exit 2); `nonconformant` when a check failed (exit 1). */
  readonly verdict: 'conformant' | 'nonconformant' | 'aborted';
  /** Why the run stopped, and the request (as curl, key redacted) that made it stop when one did. */
  readonly aborted: {
    readonly code: AbortCode;
    readonly message: string;
    readonly curl: string | null;
  } | null;
  readonly exitCode: 0 | 1 | 2;
}

// Every exchange of the run, judged as it comes: observed once (observe.ts), then held to each judge of
// the registry (judges.ts). A judge whose method is off still sees it (it may learn from it); what it
// says is dropped. What the judges that are on said is kept by exchange, for sequences to ask.
import type { Spec } from '../openapi/index.js';
import type { Exchange } from './exchange.js';
import { findingOf } from './finding.js';
import type { JudgeEntry, Judgement } from './model/types.js';
import { observe } from './observe.js';
import type { NormalizedOptions } from './options.js';
import type { Results } from './results.js';

export interface Judge {
  judge(exchange: Exchange): void;
  judgementsOf(sentSeq: number): readonly Judgement[];
  /** The run is over: the findings later exchanges were to decide are decided now. */
  settle(): void;
}

export function createJudge(input: {
  readonly spec: Spec;
  readonly options: Pick<NormalizedOptions, 'checks' | 'operations' | 'methods' | 'now'>;
  readonly judges: readonly JudgeEntry[];
  readonly results: Results;
}): Judge {
  const { spec, options, judges, results } = input;
  const bySeq = new Map<number, readonly Judgement[]>();
  const pending: { exchange: Exchange; entry: JudgeEntry; settle: () => Judgement }[] = [];
  const record = (exchange: Exchange, entry: JudgeEntry, judgement: Judgement): void => {
    if (judgement.cause === undefined) {
      results.passed(judgement.check, exchange.operationId);
      return;
    }
    // A header's fault is grouped by its cause (the header and the kind of fault, not the value that
    // showed it, whatever the status): the same fault on every response is one finding, counted. A
    // body's is grouped by its path and message (finding.ts findingKey).
    const header = judgement.instancePath?.startsWith('/headers/') === true;
    results.add(
      findingOf(exchange, {
        check: judgement.check,
        ...(header ? { cause: judgement.cause } : {}),
        severity: judgement.severity ?? 'error',
        message: judgement.message ?? judgement.cause,
        expected: judgement.expected ?? '',
        ...(judgement.instancePath === undefined ? {} : { instancePath: judgement.instancePath }),
        ...(judgement.schemaPath === undefined ? {} : { schemaPath: judgement.schemaPath }),
        ...(judgement.because === undefined ? {} : { because: judgement.because }),
        ...(judgement.case === undefined ? {} : { case: judgement.case }),
      }),
      // The baseline's findings stand alone, as they always have; the others merge with a scenario's.
      entry.method === 'baseline' ? undefined : { sentSeq: exchange.sentSeq, by: 'judge' },
    );
  };
  return {
    judge(exchange) {
      if (exchange.response === null) return;
      // A helper request to an operation left out (--operations) is not judged.
      if (!options.operations.has(exchange.operationId)) return;
      const observed = observe(spec, exchange, options.now());
      results.exercised(exchange.operationId, exchange.response.status);
      const kept: Judgement[] = [];
      for (const entry of judges) {
        const judgements = entry.judge(observed);
        if (!options.methods.has(entry.method)) continue;
        for (const judgement of judgements) {
          if (judgement.settle !== undefined) {
            pending.push({ exchange, entry, settle: judgement.settle });
            continue;
          }
          if (!options.checks.has(judgement.check)) continue;
          kept.push(judgement);
          record(exchange, entry, judgement);
        }
      }
      bySeq.set(exchange.sentSeq, kept);
    },
    judgementsOf: (sentSeq) => bySeq.get(sentSeq) ?? [],
    settle() {
      for (const { exchange, entry, settle } of pending.splice(0)) {
        const judgement = settle();
        if (options.checks.has(judgement.check)) record(exchange, entry, judgement);
      }
    },
  };
}

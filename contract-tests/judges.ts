// The registry of judges: each holds every exchange of the run to one way of reading the contract.
// A check is one entry in checks.ts plus one function here (or in the module a judge names). A judge
// is made per run (it may remember earlier exchanges) and runs on every exchange, whether its method
// is on or not, so that what it learns does not depend on the switches; only its judgements are
// dropped when its method is off (judge.ts).
import { checkResponse, type Spec } from '../openapi/index.js';
import { createHttpJudge } from './http/judge.js';
import { locationFinding } from './location.js';
import type { ContractModel } from './model/index.js';
import type { JudgeEntry, Judgement } from './model/types.js';
import type { Pet } from './pet-id.js';

/** What the response alone says (checkResponse), and where Location points. */
export function createBaselineJudge(spec: Spec, baseUrl: string): JudgeEntry {
  return {
    id: 'baseline',
    method: 'baseline',
    judge(observed) {
      const { exchange, response } = observed;
      if (response === undefined || exchange.response === null) return [];
      const judgements: Judgement[] = [];
      if (exchange.operationId === 'createPet' && response.status === 201) {
        const created = response.conforms ? (response.json?.value as Pet | undefined) : undefined;
        // Where the Location points (a missing one is the header checks' below); the id is use_after_create's.
        const requestUrl = `${baseUrl}${spec.operation('createPet').path}`;
        const placed = locationFinding(response.headers.location, requestUrl, baseUrl, created?.id);
        if (placed !== undefined) judgements.push({ ...placed, cause: placed.cause ?? placed.message });
      }
      // A method the document does not give the path (the 405 probe): only the http judge reads it.
      const operation = observed.operation;
      if (operation === undefined) return judgements;
      for (const verdict of checkResponse(spec, operation, exchange.response, {
        nowMs: observed.atMs,
        baseUrl,
      })) {
        judgements.push(
          verdict.finding === undefined
            ? { check: verdict.check }
            : {
                ...verdict.finding,
                check: verdict.check,
                // Grouped by the words without a value or place, which differ from body to body.
                cause: verdict.finding.cause ?? verdict.finding.message,
              },
        );
      }
      return judgements;
    },
  };
}

/** Every judge of a run, in the order they judge. */
export function createJudges(spec: Spec, baseUrl: string, model: ContractModel): readonly JudgeEntry[] {
  return [model.window, createBaselineJudge(spec, baseUrl), model.judge, createHttpJudge(spec, baseUrl)];
}

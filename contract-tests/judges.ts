// The registry of judges: each holds every exchange of the run to one way of reading the contract.
// A check is one entry in checks.ts plus one function here (or in the module a judge names). A judge
// is made per run (it may remember earlier exchanges) and runs on every exchange, whether its method
// is on or not, so that what it learns does not depend on the switches; only its judgements are
// dropped when its method is off (judge.ts).
import { checkResponse, type Spec } from '../openapi/index.js';
import type { ResponseRecord } from './exchange.js';
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
      for (const verdict of checkResponse(spec, operation, exchange.response, { nowMs: observed.atMs })) {
        judgements.push(
          verdict.finding === undefined
            ? { check: verdict.check }
            : {
                ...verdict.finding,
                check: verdict.check,
                // Grouped by the words without the place, which differs from body to body.
                cause: verdict.finding.cause ?? verdict.finding.message,
                message: whereNotJson(verdict.finding.message, exchange.response),
              },
        );
      }
      return judgements;
    },
  };
}

/**
 * "the body is not JSON (…)" with where it stops being JSON: at a byte, line and column, what was due
 * there, and the body around it; a body that ends inside the JSON at its Content-Length is said to be
 * cut there. Any other message as it is.
 */
export function whereNotJson(message: string, response: ResponseRecord): string {
  const broken = response.notJson;
  if (broken === undefined || !message.startsWith('the body is not JSON')) return message;
  const place = `byte ${broken.byte} (line ${broken.line}, column ${broken.column})`;
  const shown = broken.excerpt === '' ? '' : `: ${JSON.stringify(broken.excerpt)}`;
  if (!broken.ended) return `${message}: it breaks at ${place}, where ${broken.expected} was due${shown}`;
  const length = response.headers['content-length'];
  // Content-Length counts the bytes as sent: with a content coding, not those of the decoded body.
  const framed =
    length !== undefined &&
    response.headers['content-encoding'] === undefined &&
    length.trim() === String(broken.bodyBytes) &&
    broken.byte === broken.bodyBytes;
  if (framed)
    return `${message}: it ends inside the JSON, where its Content-Length: ${length.trim()} ends it (${broken.expected} was due), cut there, as by a Content-Length shorter than the body sent; its end${shown}`;
  return `${message}: it ends inside the JSON, at ${place} (${broken.expected} was due); its end${shown}`;
}

/** Every judge of a run, in the order they judge. */
export function createJudges(spec: Spec, baseUrl: string, model: ContractModel): readonly JudgeEntry[] {
  return [model.window, createBaselineJudge(spec, baseUrl), model.judge, createHttpJudge(spec, baseUrl)];
}

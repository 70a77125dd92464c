// The model of the contract: what the run knows of the target's pets and window, and the judge that
// holds every exchange to what the document and the earlier exchanges predict (method 'model'). It
// learns from every exchange, whether its judgements count or not (judge.ts).
import type { NewPet, Spec } from '../../openapi/index.js';
import { isPetId, jsonText, type Pet } from '../pet-id.js';
import { createAbsentIds } from './absent.js';
import { faultPointers, isJsonPointer } from './details.js';
import { invalidBodyCode, readErrorCodes } from './error-codes.js';
import { judgeList } from './lists.js';
import { createPetLedger, differingFields } from './pets.js';
import { classify, documentSays, predict } from './predict.js';
import type { JudgeEntry, Judgement, ModelView, Observed } from './types.js';
import { createWindowModel } from './window.js';

export interface ContractModel {
  readonly view: ModelView;
  /** The key's window over time (method 'baseline': the suite has always kept it). */
  readonly window: JudgeEntry;
  readonly judge: JudgeEntry;
}

export function createContractModel(spec: Spec, baseUrl: string): ContractModel {
  const ledger = createPetLedger();
  const absentIds = createAbsentIds();
  /** Whether getPet answered 200 for an id no pet has: then what it alone shows teaches nothing. */
  let getPetInvents = false;
  const window = createWindowModel();
  const errorCodes = readErrorCodes(spec);
  const basePath = new URL(baseUrl).pathname;
  const view: ModelView = {
    knownPets: ledger.all,
    createdPets: ledger.created,
    maxKnownId: ledger.maxId,
    knownBefore: ledger.before,
    knownAbsent: (id, sentSeq) =>
      ledger.known(id) ? undefined : absentIds.absent(id, sentSeq, ledger.maxId()),
    window: window.reading,
  };
  const describedAt = (path: string, method: string) =>
    documentSays(spec, `/paths/${path.replaceAll('~', '~0').replaceAll('/', '~1')}/${method}/description`);

  const judge = (observed: Observed): Judgement[] => {
    const { exchange, operation, response } = observed;
    if (operation === undefined || response === undefined) return [];
    // A 5xx is not_a_server_error's; a 429 the window's (with the key) or unverified (without).
    if (response.status >= 500 || response.status === 429) return [];
    const judgements: Judgement[] = [];
    const prediction = predict(spec, observed, view, basePath);
    if (prediction !== undefined) {
      const statuses = [...prediction.statuses].join(' or ');
      const expected = prediction.expected ?? statuses;
      // The key refused is auth_enforced's, whatever the request was.
      const check =
        response.status === 401 && exchange.credential === 'key' ? 'auth_enforced' : prediction.check;
      judgements.push(
        prediction.statuses.has(response.status)
          ? { check: prediction.check }
          : {
              check,
              cause: `${statuses} → ${response.status}`,
              ...(prediction.severity === undefined ? {} : { severity: prediction.severity }),
              message: `${prediction.what}: got ${response.status}`,
              expected,
              case: prediction.what,
              because: prediction.because,
            },
      );
    }
    if (!response.conforms || response.json === undefined) return judgements;
    const body = response.json.value;
    if (response.status >= 400)
      judgements.push(...judgeCode(observed, body), ...judgeDetails(observed, body));
    const since = (what: string) => `${exchange.request.method} ${what} (request ${exchange.sentSeq})`;
    if (operation.id === 'createPet' && response.status === 201) {
      const pet = body as Pet;
      const described = describedAt(operation.path, 'post');
      // Only a valid body is echoed; a 201 to another is the prediction's finding above.
      const requestClass = classify(operation, exchange, basePath);
      const sent = (requestClass?.kind === 'valid' ? requestClass.body : {}) as Partial<NewPet>;
      const echoed = Object.entries(sent).filter(
        ([name, value]) => jsonText((pet as Record<string, unknown>)[name]) !== jsonText(value),
      );
      if (echoed.length > 0)
        judgements.push({
          check: 'positive_data_acceptance',
          cause: 'a 201 that does not echo what was sent',
          message: `sent ${echoed.map(([name, value]) => `${name} ${jsonText(value)}`).join(', ')}; the 201 has ${echoed.map(([name]) => `${name} ${jsonText((pet as Record<string, unknown>)[name])}`).join(', ')}`,
          expected: 'the created animal as sent, with its assigned id',
          because: [documentSays(spec, '/paths/~1pets/post/responses/201/description')],
        });
      const before = ledger.before(pet.id, exchange.sentSeq);
      const twin = ledger.all().find((known) => known.pet.id === pet.id && known.origin === 'created');
      if (before !== undefined)
        judgements.push({
          check: 'use_after_create',
          cause: 'a create given the id of a pet that existed',
          message: `the 201 gives id ${pet.id}, which was already pet ${jsonText(before.pet)} before this request left`,
          expected: 'a fresh id: the service assigns it on creation',
          because: [described, before.since],
        });
      else if (twin !== undefined)
        judgements.push({
          check: 'use_after_create',
          cause: 'two creates given one id',
          message: `two 201s give id ${pet.id}`,
          expected: 'a distinct id for each created animal',
          because: [described, twin.since],
        });
      ledger.learn(pet, 'created', exchange, since('createPet'));
    }
    if (operation.id === 'getPet' && response.status === 200) {
      const pet = body as Pet;
      const requestClass = classify(operation, exchange, basePath);
      const id = requestClass?.kind === 'valid' ? requestClass.params.petId : undefined;
      const described = describedAt(operation.path, 'get');
      // A 200 for an id no pet has is not_found's (the prediction above): its pet is made up, so
      // neither compared nor learnt; nor, from then on, a pet that getPet alone shows.
      const invented = isPetId(id) && view.knownAbsent(id, exchange.sentSeq) !== undefined;
      if (invented) getPetInvents = true;
      if (isPetId(id) && pet.id !== id && !invented)
        judgements.push({
          check: 'use_after_create',
          cause: 'getPet answers another pet',
          message: `asked for pet ${id}, got pet ${pet.id}`,
          expected: `pet ${id}`,
          instancePath: '/id',
          because: [described],
        });
      const known = isPetId(id) && id === pet.id ? ledger.before(id, exchange.sentSeq) : undefined;
      if (known !== undefined) {
        const fields = differingFields(known.pet, pet as Readonly<Record<string, unknown>>);
        if (fields.length > 0)
          judgements.push({
            check: 'use_after_create',
            cause: `getPet answers a ${known.origin} pet changed`,
            severity: known.origin === 'created' ? 'error' : 'warning',
            message: `pet ${pet.id} has ${fields.map((name) => `${name} ${jsonText((pet as Record<string, unknown>)[name])}`).join(', ')}; known as ${jsonText(known.pet)}`,
            expected: 'the pet as known',
            because: [described, known.since],
          });
      }
      if (!invented && (!getPetInvents || ledger.known(pet.id)))
        ledger.learn(pet, 'seen', exchange, since(`pet ${pet.id}`));
    }
    if (operation.id === 'listPets' && response.status === 200 && Array.isArray(body)) {
      const requestClass = classify(operation, exchange, basePath);
      const pets = body as Pet[];
      if (requestClass?.kind === 'valid' && requestClass.params.status === undefined) {
        const limit = typeof requestClass.params.limit === 'number' ? requestClass.params.limit : 20;
        const ascending = pets.every((pet, at) => at === 0 || pet.id > (pets[at - 1]?.id ?? 0));
        if (ascending && pets.length <= limit)
          absentIds.learnList(
            exchange,
            pets.map((pet) => pet.id),
          );
      }
      if (requestClass?.kind === 'valid')
        judgements.push(
          ...judgeList(
            exchange,
            body as Pet[],
            requestClass.params,
            ledger,
            describedAt(operation.path, 'get'),
          ),
        );
      for (const pet of body as Pet[]) ledger.learn(pet, 'seen', exchange, since('listPets'));
    }
    return judgements;
  };

  /** An Error's code against the fault the request has and the status it came with (error-codes.ts). */
  const judgeCode = (observed: Observed, body: unknown): Judgement[] => {
    const { exchange, operation, response } = observed;
    const code = (body as { code?: unknown } | null)?.code;
    // A code the document does not list is response_schema_conformance's alone.
    if (operation === undefined || response === undefined || typeof code !== 'string') return [];
    if (!errorCodes.listed(code)) return [];
    const requestClass = response.status === 400 ? classify(operation, exchange, basePath) : undefined;
    if (requestClass?.kind === 'invalid' && requestClass.where === 'body') {
      const wanted = invalidBodyCode(spec, requestClass.what);
      return [
        code === wanted.code
          ? { check: 'error_body_consistency' }
          : {
              check: 'error_body_consistency',
              cause: `${requestClass.what}: a 400 with code ${code}`,
              message: `${requestClass.what}: the 400 has code ${JSON.stringify(code)}`,
              expected: `code ${JSON.stringify(wanted.code)}`,
              instancePath: '/code',
              case: requestClass.what,
              because: wanted.because,
            },
      ];
    }
    const misfit = errorCodes.misfit(code, response.status);
    if (misfit === undefined) return [{ check: 'error_body_consistency' }];
    const others = [...misfit.statuses].join(', ');
    return [
      {
        check: 'error_body_consistency',
        cause: `a ${response.status} with code ${code}`,
        message: `the ${response.status} has code ${JSON.stringify(code)}, which the document gives to ${others} only`,
        expected: `${errorCodes.codesOf(response.status).join(' or ') || 'a code'}: what the document gives to ${response.status}`,
        instancePath: '/code',
        because: misfit.because,
      },
    ];
  };

  /**
   * Each of a 400's details points at a fault the request has (ErrorDetail.path): one that points
   * elsewhere, or is no JSON Pointer (`categoryId`, `body.categoryId`), sends a client to the wrong field.
   */
  const judgeDetails = (observed: Observed, body: unknown): Judgement[] => {
    const { exchange, operation, response } = observed;
    const details = (body as { details?: unknown } | null)?.details;
    if (operation === undefined || response?.status !== 400 || !Array.isArray(details)) return [];
    if (classify(operation, exchange, basePath)?.kind !== 'invalid') return [];
    const faults = faultPointers(operation, exchange, basePath);
    if (faults === undefined) return [];
    const because = [documentSays(spec, '/components/schemas/ErrorDetail/properties/path/description')];
    const paths = details.map((detail) => String((detail as { path?: unknown }).path));
    const at = paths.findIndex((path) => !isJsonPointer(path) || !faults.has(path));
    if (at < 0) return [{ check: 'error_body_consistency' }];
    const path = paths[at] ?? '';
    // The object that lacks or holds a property is named by the property's own path.
    const where = [...faults].filter((pointer) => pointer !== '');
    const shown = where.length > 0 ? where.join(', ') : '"" (the body)';
    return [
      isJsonPointer(path)
        ? {
            check: 'error_body_consistency',
            cause: 'a detail that points where the request has no fault',
            message: `details/${at}/path is ${JSON.stringify(path)}, where the request has no fault; its faults are at ${shown}`,
            expected: `details that point at ${shown}`,
            instancePath: `/details/${at}/path`,
            because,
          }
        : {
            check: 'error_body_consistency',
            cause: 'a detail whose path is no JSON Pointer',
            message: `details/${at}/path is ${JSON.stringify(path)}, which is no JSON Pointer (RFC 6901: empty, or each part after a /)`,
            expected: `a JSON Pointer: ${shown}`,
            instancePath: `/details/${at}/path`,
            because,
          },
    ];
  };

  return {
    view,
    window: {
      id: 'window',
      method: 'baseline',
      judge(observed) {
        const { exchange } = observed;
        if (observed.response === undefined) return [];
        const contradiction = window.observe(exchange, exchange.overlapped === true, observed.atMs);
        return contradiction === undefined
          ? []
          : [{ check: 'response_headers_conformance', cause: contradiction.message, ...contradiction }];
      },
    },
    judge: {
      id: 'model',
      method: 'model',
      judge(observed) {
        // One finding per check on one exchange: the first stands. One the run's end settles may
        // take another check then, so it stands apart.
        const seen = new Set<string>();
        return judge(observed).filter((judgement) => {
          if (judgement.cause === undefined || judgement.settle !== undefined) return true;
          if (seen.has(judgement.check)) return false;
          seen.add(judgement.check);
          return true;
        });
      },
    },
  };
}

// What status a request must get, by its class, in the order the document decides (route → auth →
// rate limit → validation → operation): read from what was sent alone, the document, and what earlier
// answers showed (the view). Pure: no state, no I/O. undefined: the model does not predict this one.
import { MAX_BODY_BYTES, mediaTypeOf, type OperationSpec, type Spec, valueAt } from '../../openapi/index.js';
import type { CheckId } from '../checks.js';
import type { Exchange } from '../exchange.js';
import { isPetId, petIdOf } from '../pet-id.js';
import type { Because, ModelView, Observed } from './types.js';

export interface Prediction {
  readonly statuses: ReadonlySet<number>;
  readonly check: CheckId;
  /** The class of the request, in a few words: `no valid credential`, `limit=0`. */
  readonly what: string;
  readonly because: readonly Because[];
  /** A warning when the expectation rests on a pet only seen (the document shows no delete, but "not shown" is not "absent"). */
  readonly severity?: 'warning';
  /** What was expected, when more than the statuses: `404: …why`. */
  readonly expected?: string;
}

/** The request's class: what a server that keeps the contract must make of it. */
export type RequestClass =
  | { readonly kind: 'unauthenticated'; readonly what: string }
  | { readonly kind: 'invalid'; readonly where: 'parameters' | 'body'; readonly what: string }
  | { readonly kind: 'too-large' | 'media-type' | 'too-large-or-media-type'; readonly what: string }
  | { readonly kind: 'valid'; readonly params: Readonly<Record<string, unknown>>; readonly body: unknown };

/** The document's own words at a pointer, as a reason. */
export function documentSays(spec: Spec, pointer: string): Because {
  const text = valueAt(spec.document, pointer);
  const sentence = typeof text === 'string' ? text.replace(/\s+/g, ' ').trim() : '(not in the document)';
  return { kind: 'document', pointer: `#${pointer}`, sentence };
}

const UNAUTHORIZED = '/components/responses/Unauthorized/description';
const AUTH_ORDER = '/components/securitySchemes/bearerAuth/x-petkit-decision';

/** The pathname of a recorded URL under the base URL's path, or undefined when it is not under it. */
export function pathUnder(url: string, basePath: string): string | undefined {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const base = basePath.replace(/\/+$/, '');
  return pathname.startsWith(`${base}/`) ? pathname.slice(base.length) : undefined;
}

/**
 * Each of the operation's parameters as the request sent it (a path's one value, a query's every one),
 * or 'undecodable' for a path that does not decode; undefined when the URL is not the operation's path.
 */
export function sentParameters(
  operation: OperationSpec,
  url: string,
  basePath: string,
): ((parameter: OperationSpec['parameters'][number]) => (string | undefined)[]) | 'undecodable' | undefined {
  const path = pathUnder(url, basePath);
  if (path === undefined) return undefined;
  let pathParams: Record<string, string> | null;
  try {
    pathParams = operation.match(path);
  } catch {
    return 'undecodable';
  }
  if (pathParams === null) return undefined;
  const matched = pathParams;
  const query = new URL(url).searchParams;
  return (parameter) => (parameter.in === 'path' ? [matched[parameter.name]] : query.getAll(parameter.name));
}

/** Reads the request as the contract does; undefined when its class cannot be told from the record. */
export function classify(
  operation: OperationSpec,
  exchange: Exchange,
  basePath: string,
): RequestClass | undefined {
  if (exchange.credential !== 'key') {
    const what =
      exchange.credential === 'none'
        ? 'no Authorization'
        : exchange.credential === 'other-scheme'
          ? 'the key under another scheme than Bearer'
          : 'a key that is not the key';
    return { kind: 'unauthenticated', what };
  }
  const sent = sentParameters(operation, exchange.request.url, basePath);
  if (sent === 'undecodable')
    return { kind: 'invalid', where: 'parameters', what: 'a path that does not decode' };
  // Another path's shape (a route the document lacks): not this model's to predict.
  if (sent === undefined) return undefined;
  const params: Record<string, unknown> = {};
  for (const parameter of operation.parameters) {
    const given = sent(parameter);
    if (given.length > 1)
      return { kind: 'invalid', where: 'parameters', what: `${parameter.name} given twice` };
    const parsed = parameter.parse(given[0]);
    if (parsed.faults.length > 0)
      return { kind: 'invalid', where: 'parameters', what: `${parameter.name}=${given[0] ?? '(absent)'}` };
    // A path's id as its digits say, exact past 2^53 (pet-id.ts).
    params[parameter.name] = parameter.in === 'path' ? petIdOf(given[0], parsed.value) : parsed.value;
  }
  const bodySpec = operation.requestBody?.content.get('application/json');
  if (bodySpec === undefined) return { kind: 'valid', params, body: undefined };
  const text = exchange.request.body ?? '';
  const tooLarge = Buffer.byteLength(text) > MAX_BODY_BYTES;
  const json = mediaTypeOf(exchange.request.headers['content-type'] ?? '') === 'application/json';
  // The document does not order 413 and 415: either holds when both do.
  if (tooLarge && !json) return { kind: 'too-large-or-media-type', what: 'a large body of another type' };
  if (tooLarge) return { kind: 'too-large', what: `a body over ${MAX_BODY_BYTES} bytes` };
  if (!json) return { kind: 'media-type', what: 'a body that is not application/json' };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return {
      kind: 'invalid',
      where: 'body',
      what: text === '' ? 'an empty body' : 'a body that is not JSON',
    };
  }
  if (bodySpec.validate(body).length > 0)
    return { kind: 'invalid', where: 'body', what: 'a body off its schema' };
  return { kind: 'valid', params, body };
}

/** The statuses the document allows for the observed request, and why. */
export function predict(
  spec: Spec,
  observed: Observed,
  view: ModelView,
  basePath: string,
): Prediction | undefined {
  const { operation, exchange } = observed;
  if (operation === undefined) return undefined;
  const requestClass = classify(operation, exchange, basePath);
  if (requestClass === undefined) return undefined;
  const responses = (name: string) => `/components/responses/${name}/description`;
  switch (requestClass.kind) {
    case 'unauthenticated':
      return {
        statuses: new Set([401]),
        check: 'auth_enforced',
        what: requestClass.what,
        because: [documentSays(spec, UNAUTHORIZED), documentSays(spec, AUTH_ORDER)],
      };
    case 'invalid':
      return {
        statuses: new Set([400]),
        check: 'negative_data_rejection',
        what: requestClass.what,
        because: [
          documentSays(
            spec,
            requestClass.where === 'body'
              ? responses('InvalidBody')
              : operation.id === 'getPet'
                ? responses('InvalidPetId')
                : responses('InvalidQuery'),
          ),
        ],
      };
    case 'too-large':
    case 'media-type':
    case 'too-large-or-media-type': {
      const statuses =
        requestClass.kind === 'too-large' ? [413] : requestClass.kind === 'media-type' ? [415] : [413, 415];
      return {
        statuses: new Set(statuses),
        check: 'negative_data_rejection',
        what: requestClass.what,
        because: statuses.map((status) =>
          documentSays(spec, responses(status === 413 ? 'PayloadTooLarge' : 'UnsupportedMediaType')),
        ),
      };
    }
    case 'valid':
      return validPrediction(spec, operation, exchange, requestClass.params, view, basePath);
  }
}

function validPrediction(
  spec: Spec,
  operation: OperationSpec,
  exchange: Exchange,
  params: Readonly<Record<string, unknown>>,
  view: ModelView,
  basePath: string,
): Prediction | undefined {
  const described = documentSays(
    spec,
    `/paths/${operation.path.replaceAll('~', '~0').replaceAll('/', '~1')}/${operation.method.toLowerCase()}/description`,
  );
  if (operation.id === 'listPets')
    return {
      statuses: new Set([200]),
      check: 'positive_data_acceptance',
      what: 'a valid list request',
      because: [described],
    };
  if (operation.id === 'createPet')
    return {
      statuses: new Set([201, 507]),
      check: 'positive_data_acceptance',
      what: 'a valid body',
      because: [described, documentSays(spec, '/components/responses/StoreFull/description')],
    };
  if (operation.id === 'getPet') {
    const id = params.petId;
    if (!isPetId(id)) return undefined;
    // The id in another spelling the document admits (/pets/%31 is pet 1): what is under test is
    // that spelling, positive_data_acceptance's; the id's own answer, a 200 or a 404, never a 400.
    const path = pathUnder(exchange.request.url, basePath);
    const decoded = path === undefined ? null : operation.match(path);
    if (path !== undefined && decoded !== null && path !== operation.expand(decoded))
      return {
        statuses: new Set([200, 404]),
        check: 'positive_data_acceptance',
        what: `petId ${path.split('/').at(-1)}, a spelling of ${id} the document admits`,
        because: [documentSays(spec, '/components/parameters/PetId/x-petkit-decision')],
      };
    const known = view.knownBefore(id, exchange.sentSeq);
    const absent = known === undefined ? view.knownAbsent(id, exchange.sentSeq) : undefined;
    if (absent !== undefined)
      return {
        statuses: new Set([404]),
        check: 'not_found',
        what: `an id no pet has (${path?.split('/').at(-1) ?? id})`,
        expected: `404: ${absent.why}`,
        because: [
          documentSays(spec, '/paths/~1pets~1{petId}/get/responses/404/description'),
          ...absent.because,
        ],
      };
    if (known === undefined) return undefined;
    // Known before the request left: it exists (the document shows no delete).
    return {
      statuses: new Set([200]),
      check: 'use_after_create',
      what: `pet ${id}, ${known.origin === 'created' ? 'created' : 'seen'} before`,
      because: [described, known.since],
      ...(known.origin === 'seen' ? { severity: 'warning' as const } : {}),
    };
  }
  return undefined;
}

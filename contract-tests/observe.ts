// One exchange made into what every judge reads (Observed): its operation, and its body parsed and
// validated against the schema of its status once, however many judges and scenarios read it.
import type { OperationSpec, Spec } from '../openapi/index.js';
import type { Exchange } from './exchange.js';
import type { Observed } from './model/types.js';
import { withExactIds } from './pet-id.js';

type Parsed = { readonly json: { readonly value: unknown } | undefined; readonly conforms: boolean };

/**
 * Parsed bodies by spec, then exchange. A cache of a pure function of immutable values, held weakly: it
 * changes no answer and frees itself with the run, so it is the one module-level value allowed here.
 */
const PARSED = new WeakMap<Spec, WeakMap<Exchange, Parsed>>();

/** The operation an exchange was sent to, unless its method is not that operation's (a 405 probe). */
export function operationOf(spec: Spec, exchange: Exchange): OperationSpec | undefined {
  const operation = spec.operations.find((candidate) => candidate.id === exchange.operationId);
  return operation?.method === exchange.request.method.toUpperCase() ? operation : undefined;
}

function parse(spec: Spec, exchange: Exchange): Parsed {
  let bySpec = PARSED.get(spec);
  if (bySpec === undefined) {
    bySpec = new WeakMap();
    PARSED.set(spec, bySpec);
  }
  const known = bySpec.get(exchange);
  if (known !== undefined) return known;
  const response = exchange.response;
  let parsed: Parsed = { json: undefined, conforms: false };
  if (response !== null && response.body !== '') {
    try {
      const value: unknown = JSON.parse(response.body);
      const body = operationOf(spec, exchange)?.response(response.status)?.content.get('application/json');
      // Validated as JSON.parse reads it; read by the judges with its ids exact (pet-id.ts).
      parsed = {
        json: { value: withExactIds(response.body, value) },
        conforms: body !== undefined && body.validate(value).length === 0,
      };
    } catch {
      // Not JSON: the schema and content-type checks say so.
    }
  }
  bySpec.set(exchange, parsed);
  return parsed;
}

export function observe(spec: Spec, exchange: Exchange, nowMs: number): Observed {
  const response = exchange.response;
  return {
    exchange,
    operation: operationOf(spec, exchange),
    atMs: nowMs,
    response:
      response === null
        ? undefined
        : { status: response.status, headers: response.headers, ...parse(spec, exchange) },
  };
}

/** A response body that passed its schema, or undefined when another check will report it. */
export function conformingBody(spec: Spec, exchange: Exchange): { value: unknown } | undefined {
  const parsed = parse(spec, exchange);
  return parsed.conforms ? parsed.json : undefined;
}

// Typed overrides for MSW tests (`petkit/msw`'s `override`): one operation's answer replaced, in the
// style of `server.use(http.get(...))`, with its status and body typed from openapi.yaml (a body the
// operation does not document for that status is a type error, and is refused when the override is
// made). Browser-safe: imports nothing from Node.
import { http, type RequestHandler } from 'msw';
import { describeFault, loadSpec, type OperationId, type operations } from '../openapi/index.js';

type Responses<Id extends OperationId> = operations[Id]['responses'];
type JsonBody<R> = R extends { content: { 'application/json': infer Body } } ? Body : never;

/** One documented answer of an operation: a status it lists and that status's JSON body. */
export type OperationAnswer<Id extends OperationId> = {
  [Status in keyof Responses<Id>]: {
    readonly status: Status;
    readonly body: JsonBody<Responses<Id>[Status]>;
    /** Added to the answer's headers (Content-Type is application/json). */
    readonly headers?: Readonly<Record<string, string>>;
  };
}[keyof Responses<Id>];

/** What the override's resolver is given: the request, and the path parameters by name. */
export interface OverrideInfo {
  readonly request: Request;
  readonly params: Readonly<Record<string, string>>;
}

export type OverrideResolver<Id extends OperationId> = (
  info: OverrideInfo,
) => OperationAnswer<Id> | Promise<OperationAnswer<Id>>;

export interface OverrideOptions {
  /** The API's base URL as your code calls it, as for createHandlers. Default `*\/v1`. */
  baseUrl?: string;
  /** Answer only the first matching request, then let the handlers after it answer (MSW's `once`). */
  once?: boolean;
}

/** A fault of an answer: its status is not documented, or its body departs from the schema. */
export class OverrideError extends TypeError {
  override readonly name = 'OverrideError';
}

const HTTP = { GET: http.get, POST: http.post, PUT: http.put, PATCH: http.patch, DELETE: http.delete };

/**
 * A request handler that answers one operation as given, for `server.use(...)` or `worker.use(...)`
 * in front of petkit's handlers: a fixed answer (checked now against openapi.yaml), or a function of
 * the request that answers one.
 */
export function override<Id extends OperationId>(
  operationId: Id,
  answer: NoInfer<OperationAnswer<Id> | OverrideResolver<Id>>,
  options: OverrideOptions = {},
): RequestHandler {
  const operation = loadSpec().operation(operationId);
  const check = (given: OperationAnswer<Id>): OperationAnswer<Id> => {
    const status = Number(given.status);
    const documented = operation.response(status)?.content.get('application/json');
    if (documented === undefined) {
      throw new OverrideError(
        `override('${operationId}'): ${status} is not a documented JSON answer of ${operationId}.`,
      );
    }
    const [fault] = documented.validate(given.body).map(describeFault);
    if (fault !== undefined) {
      throw new OverrideError(
        `override('${operationId}'): the ${status} body departs from openapi.yaml: ${fault.path || '(body)'} ${fault.message}.`,
      );
    }
    return given;
  };
  const fixed = typeof answer === 'function' ? undefined : check(answer);
  const base = (options.baseUrl ?? '*/v1').replace(/\/+$/, '');
  const path = `${base}${operation.path.replace(/\{([^}]+)\}/g, ':$1')}`;
  const method = HTTP[operation.method as keyof typeof HTTP];
  return method(
    path,
    async ({ request, params }) => {
      const given =
        fixed ??
        check(await (answer as OverrideResolver<Id>)({ request, params: params as Record<string, string> }));
      return new Response(JSON.stringify(given.body), {
        status: Number(given.status),
        headers: { 'content-type': 'application/json', 'access-control-allow-origin': '*', ...given.headers },
      });
    },
    { once: options.once ?? false },
  );
}

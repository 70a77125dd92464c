// What petkit/msw's `override` refuses of an answer, for callers without types: each fault a sentence
// that says what is wrong and what openapi.yaml documents instead. msw.ts throws it as an
// OverrideError when the override is made, or, for an answer a function returned, answers it as a 500
// `internal_error`. Browser-safe, as msw.ts is: imports nothing from Node, nor msw.
import { describeFault, type HeaderSpec, type OperationSpec, type Spec } from '../openapi/index.js';
import { headerFault, normalizeHeaders } from './override-headers.js';

/** An answer that passed answerFault: its status a number, its headers by lower-case name. */
export interface CheckedAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly headers: ReadonlyMap<string, string>;
}

const ANSWER_KEYS = ['status', 'body', 'headers'];
/** A header's name: an RFC 9110 token. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The operation's id, or a sentence naming the ones openapi.yaml has. */
export function operationFault(spec: Spec, operationId: unknown): string | undefined {
  if (spec.operations.some((operation) => operation.id === operationId)) return undefined;
  const ids = spec.operations.map((operation) => operation.id).join(', ');
  return `openapi.yaml has no operation ${shown(operationId)}; its operations are ${ids}.`;
}

/** The answer checked against its operation: the answer, or the first fault found as a sentence. */
export function checkAnswer(
  operation: OperationSpec,
  given: unknown,
  headerSpecs: ReadonlyMap<string, HeaderSpec>,
): CheckedAnswer | string {
  if (given instanceof Response) {
    return "an answer is an object { status, body, headers? }, not a Response (MSW's http.get(...) answers a Response of your own).";
  }
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    return `an answer is an object { status, body, headers? }; got ${shown(given)}.`;
  }
  const answer = given as Record<string, unknown>;
  const unknown = Object.keys(answer).find((key) => !ANSWER_KEYS.includes(key));
  if (unknown !== undefined) {
    return `an answer has no key ${shown(unknown)}; its keys are status, body and headers.`;
  }
  const documented = [...operation.responses.keys()].join(', ');
  const status =
    typeof answer.status === 'number' || (typeof answer.status === 'string' && /^\d+$/.test(answer.status))
      ? Number(answer.status)
      : Number.NaN;
  const content = operation.response(status)?.content.get('application/json');
  if (content === undefined) {
    return 'status' in answer
      ? `${shown(answer.status)} is not a documented JSON answer of ${operation.id}; it documents ${documented}.`
      : `the answer has no status; ${operation.id} documents ${documented}.`;
  }
  if (!('body' in answer)) return `the ${status} answer has no body.`;
  const [fault] = content.validate(answer.body).map(describeFault);
  if (fault !== undefined) {
    return `the ${status} body departs from openapi.yaml: ${fault.path || '(body)'} ${fault.message}.`;
  }
  const headers = answer.headers === undefined ? {} : answer.headers;
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) {
    return `the ${status} headers are an object of names to strings or numbers; got ${shown(headers)}.`;
  }
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name)) {
      return `${shown(name)} is not a header name: a name is letters, digits and !#$%&'*+-.^_\`|~, no spaces nor colons.`;
    }
    if (typeof value !== 'string' && !(typeof value === 'number' && Number.isFinite(value))) {
      return `the ${status} header ${name} is ${shown(value)}; a header is a string or a number.`;
    }
    if (/[\0\r\n]/.test(String(value))) {
      return `the ${status} header ${name} is ${shown(value)}; a header's value has no line break nor NUL.`;
    }
  }
  const normalized = normalizeHeaders(headers as Record<string, string | number>);
  const headerFaulty = headerFault(normalized, headerSpecs);
  if (headerFaulty !== undefined) return `the ${status} header ${headerFaulty}.`;
  return { status, body: answer.body, headers: normalized };
}

/** A value in a message: a string quoted, anything else as JSON says it (or its type). */
function shown(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`;
  if (typeof value === 'function') return 'a function';
  if (value === undefined || typeof value === 'symbol') return String(value);
  try {
    return JSON.stringify(value) ?? typeof value;
  } catch {
    return typeof value;
  }
}

// For tests: every response a mock test sees goes through checkedRequest / checkResponse, which
// hold it to openapi.yaml (status documented for the operation, body schema, required headers) and
// to the mock's own rules (CORS on every answer, Error `status` equal to the HTTP status, a code
// from the registry). A departure throws, so no test can pass on a response that breaks the contract.
import { describeFault, type HeaderSpec, loadSpec, type OperationSpec } from '../openapi/index.js';
import { ERRORS } from './errors.js';
import type { Mock } from './mock.js';

export interface CheckedResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The parsed body, or undefined when there is none. */
  readonly json: unknown;
}

export class ContractViolation extends Error {
  override readonly name = 'ContractViolation';
}

const spec = loadSpec();
const RATE_HEADERS: readonly HeaderSpec[] = (spec.operation('listPets').response(401)?.headers ?? []).filter(
  (h) => h.name.toLowerCase().startsWith('x-ratelimit-'),
);
const errorSchema = spec.schema('Error');

function findOperation(method: string, pathname: string): { operation?: OperationSpec; pathKnown: boolean } {
  const sub = pathname.startsWith(`${spec.basePath}/`) ? pathname.slice(spec.basePath.length) : undefined;
  let pathKnown = false;
  if (sub === undefined) return { pathKnown };
  for (const operation of spec.operations) {
    let matched: boolean;
    try {
      matched = operation.match(sub) !== null;
    } catch {
      matched = operation.match(sub.replaceAll('%', '%25')) !== null;
    }
    if (!matched) continue;
    pathKnown = true;
    if (operation.method === (method === 'HEAD' ? 'GET' : method)) return { operation, pathKnown };
  }
  return { pathKnown };
}

function checkHeaders(headers: Headers, specs: readonly HeaderSpec[], problems: string[]): void {
  for (const header of specs) {
    for (const fault of header.validate(headers.get(header.name))) {
      problems.push(
        `header ${header.name}: ${describeFault(fault).message} (got ${headers.get(header.name)})`,
      );
    }
  }
}

function checkError(status: number, body: unknown, problems: string[]): void {
  for (const fault of errorSchema(body))
    problems.push(`Error body ${describeFault(fault).path} ${describeFault(fault).message}`);
  const error = body as { code?: unknown; status?: unknown };
  if (error.status !== status)
    problems.push(`Error status ${String(error.status)} is not the HTTP status ${status}`);
  const entry = ERRORS[error.code as keyof typeof ERRORS] as { status: number } | undefined;
  if (entry === undefined) problems.push(`Error code ${String(error.code)} is not in mocks/errors.ts`);
  else if (entry.status !== status)
    problems.push(`Error code ${String(error.code)} belongs to ${entry.status}, sent with ${status}`);
}

/** Every way a response departs from openapi.yaml and the mock's rules; empty when it conforms. */
export function conformanceProblems(
  method: string,
  url: string,
  status: number,
  headers: Headers,
  text: string,
): string[] {
  const problems: string[] = [];
  const { pathname } = new URL(url, 'http://petkit.local');
  if (headers.get('access-control-allow-origin') !== '*') problems.push('no Access-Control-Allow-Origin: *');
  if (pathname.startsWith('/__petkit/')) return problems;
  if (method === 'OPTIONS' && status === 204) {
    if (headers.get('access-control-allow-headers') === null)
      problems.push('preflight without Access-Control-Allow-Headers');
    return problems;
  }
  const head = method === 'HEAD';
  if (head && text !== '') problems.push('a HEAD response with a body');
  let json: unknown;
  if (!head) {
    if (headers.get('content-type') !== 'application/json')
      problems.push(`Content-Type ${headers.get('content-type')}`);
    try {
      json = JSON.parse(text);
    } catch {
      problems.push(`body is not JSON: ${text.slice(0, 80)}`);
      return problems;
    }
  }
  const { operation, pathKnown } = findOperation(method, pathname);
  if (operation === undefined) {
    const expected = pathKnown ? 405 : 404;
    if (status !== expected)
      problems.push(`${method} ${pathname} has no operation: expected ${expected}, got ${status}`);
    if (status === 405 && headers.get('allow') === null) problems.push('405 without Allow');
    checkHeaders(headers, RATE_HEADERS, problems);
    if (!head) checkError(status, json, problems);
    return problems;
  }
  const response = operation.responses.get(String(status));
  if (response === undefined) {
    problems.push(`status ${status} is not documented for ${operation.id}`);
    return problems;
  }
  checkHeaders(headers, response.headers, problems);
  if (!head) {
    const body = response.content.get('application/json');
    if (body === undefined) problems.push(`${operation.id} ${status} documents no JSON body`);
    else
      for (const fault of body.validate(json))
        problems.push(`body ${describeFault(fault).path} ${describeFault(fault).message}`);
    if (status >= 400) checkError(status, json, problems);
  }
  return problems;
}

/** Reads a response and throws ContractViolation if it departs from openapi.yaml. */
export async function checkResponse(
  method: string,
  url: string,
  response: Response,
): Promise<CheckedResponse> {
  const text = await response.text();
  const problems = conformanceProblems(method, url, response.status, response.headers, text);
  if (problems.length > 0) {
    throw new ContractViolation(
      `${method} ${url} → ${response.status} breaks the contract:\n- ${problems.join('\n- ')}`,
    );
  }
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: text === '' ? undefined : JSON.parse(text),
  };
}

/** mock.request, with the answer held to openapi.yaml. */
export async function checkedRequest(mock: Mock, path: string, init?: RequestInit): Promise<CheckedResponse> {
  return checkResponse(init?.method ?? 'GET', path, await mock.request(path, init));
}

/** A request init with a bearer key (and JSON body when given). */
export function withKey(key: string, init: RequestInit & { json?: unknown } = {}): RequestInit {
  const { json, ...rest } = init;
  const headers = new Headers(rest.headers);
  headers.set('authorization', `Bearer ${key}`);
  if (json !== undefined) headers.set('content-type', 'application/json');
  return {
    ...rest,
    headers,
    ...(json === undefined ? {} : { body: JSON.stringify(json), method: rest.method ?? 'POST' }),
  };
}

// For tests: every response a mock test sees goes through checkedRequest / checkResponse, which
// hold it to openapi.yaml with the contract module's own response checker (the one the contract
// suite runs) and to the mock's own rules (CORS on every answer, exactly `application/json`, 404 or
// 405 off the routes, an Error code from the registry). A departure throws, so no test can pass on a
// response that breaks the contract.
import { checkResponse as checkContract, loadSpec } from '../openapi/index.js';
import { ERRORS } from './errors.js';
import type { Mock } from './mock.js';
import type { StoredRule } from './rules.js';

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

/** The mock's Error codes are its registry's, each with its own status. */
function codeProblems(status: number, text: string, problems: string[]): void {
  let code: unknown;
  try {
    code = (JSON.parse(text) as { code?: unknown }).code;
  } catch {
    return; // the contract's checker says the body is not JSON
  }
  const entry = ERRORS[code as keyof typeof ERRORS] as { status: number } | undefined;
  if (entry === undefined) problems.push(`Error code ${String(code)} is not in mocks/errors.ts`);
  else if (entry.status !== status)
    problems.push(`Error code ${String(code)} belongs to ${entry.status}, sent with ${status}`);
}

/**
 * Every way a response departs from openapi.yaml and the mock's rules; empty when it conforms.
 * `nowMs` is the mock's clock (X-RateLimit-Reset is the end of a window of its time).
 */
export function conformanceProblems(
  method: string,
  url: string,
  status: number,
  headers: Headers,
  text: string,
  nowMs: number = Date.now(),
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
  if (!head && headers.get('content-type') !== 'application/json')
    problems.push(`Content-Type ${headers.get('content-type')}`);
  const underBase = pathname.startsWith(`${spec.basePath}/`);
  const found = underBase ? spec.matchPath(pathname.slice(spec.basePath.length)) : undefined;
  const operation = found?.path.operations.get(head ? 'GET' : method);
  if (operation === undefined) {
    const expected = found === undefined ? 404 : 405;
    if (status !== expected)
      problems.push(`${method} ${pathname} has no operation: expected ${expected}, got ${status}`);
    if (status === 405 && headers.get('allow') === null) problems.push('405 without Allow');
  }
  const response = { status, headers: Object.fromEntries(headers), body: text };
  for (const { check, finding } of checkContract(spec, operation, response, { nowMs, head })) {
    // A documented 500 is the mock's to send when asked (`Prefer: code=500`): no departure here.
    if (finding === undefined || check === 'not_a_server_error') continue;
    problems.push(`${check}: ${finding.message}${finding.instancePath ? ` (${finding.instancePath})` : ''}`);
  }
  if (!head && status >= 400) codeProblems(status, text, problems);
  return problems;
}

/** Reads a response and throws ContractViolation if it departs from openapi.yaml. */
export async function checkResponse(
  method: string,
  url: string,
  response: Response,
  nowMs: number = Date.now(),
): Promise<CheckedResponse> {
  const text = await response.text();
  const problems = conformanceProblems(method, url, response.status, response.headers, text, nowMs);
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

/** mock.request, with the answer held to openapi.yaml at the mock's own time. */
export async function checkedRequest(mock: Mock, path: string, init?: RequestInit): Promise<CheckedResponse> {
  const response = await mock.request(path, init);
  return checkResponse(init?.method ?? 'GET', path, response, mock.clock.now());
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

/** A stored rule (as normalizeRule decides one) that matches every request, with `over` applied. */
export const storedRule = (over: Partial<StoredRule> = {}): StoredRule => ({
  operation: null,
  method: null,
  path: null,
  key: undefined,
  times: null,
  after: 0,
  probability: null,
  seed: 42,
  respond: {},
  ...over,
});

// What every answer of the mock must be, whatever was sent: never a 5xx it was not asked for, a
// documented response that the contract module's response checker passes, with its X-RateLimit-*
// headers (over a socket, the transport's own refusals, which no operation documents: a JSON Error of
// the registry with the CORS headers, of the statuses the transport sends), messages that quote what
// came in a few dozen characters however deep or wide it was, and nothing in it that leaks: no key,
// no stack trace, no path of this machine.
import { METHODS } from 'node:http';
import { ERRORS } from '../../mocks/errors.js';
import { conformanceProblems } from '../../mocks/test-helpers.js';

/** Text that must never reach a client or a log line: a stack frame, a path of this machine. */
const LEAKS = [/\n\s+at /, /node:internal/, /node_modules/, /file:\/\//, /\/(?:work|home|usr|tmp)\//];

export interface SentRequest {
  readonly method: string;
  readonly target: string;
  readonly headers: Readonly<Record<string, string>>;
}

export interface SeenAnswer {
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** What the HTTP server itself refuses, before routing (docs/mock.md, "Refusals"). */
const TRANSPORT_STATUSES = new Set([400, 405, 408, 413, 417, 431]);

/**
 * The longest message of a validation fault: the keyword's words and the value quoted (60 characters
 * at most; an enum fault also lists its values).
 */
const MAX_DETAIL_MESSAGE = 160;

/**
 * Every way an answer breaks the invariants; empty when it keeps them. `via`: over the core, every
 * answer is the API's; over a socket, the transport may refuse a request before the API sees it.
 */
export function answerProblems(
  sent: SentRequest,
  answer: SeenAnswer,
  secrets: readonly string[],
  nowMs: number,
  via: 'core' | 'socket',
): string[] {
  const problems: string[] = [];
  const forced = answer.headers['preference-applied']?.includes(`code=${answer.status}`) === true;
  if (answer.status >= 500 && !forced) problems.push(`an unforced ${answer.status}`);
  if (answer.status < 100 || answer.status > 599) problems.push(`status ${answer.status}`);
  const text = `${JSON.stringify(answer.headers)}\n${answer.body}`;
  for (const secret of secrets) if (text.includes(secret)) problems.push('the key in the answer');
  for (const leak of LEAKS) if (leak.test(answer.body)) problems.push(`a leak in the body (${leak})`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    try {
      headers.set(name, value);
    } catch {
      problems.push(`an invalid header ${name}`);
    }
  }
  let code: string | undefined;
  if (answer.status >= 400 && answer.body !== '') {
    try {
      const error = JSON.parse(answer.body) as ErrorBody;
      code = error.code;
      problems.push(...messageProblems(error));
    } catch {
      problems.push('an error answer that is not JSON');
    }
  }
  const target = /^\/[\x21-\x7e]*$/.test(sent.target) ? sent.target : '/';
  // The HTTP server's own refusals (before routing, so no rate-limit headers and no operation that
  // documents them): a JSON Error of the registry, its own status, CORS, and the connection closed.
  const transport =
    answer.headers['x-ratelimit-limit'] === undefined &&
    answer.status >= 400 &&
    !target.startsWith('/__petkit/');
  if (transport && via === 'core') {
    problems.push(`a ${answer.status} without X-RateLimit-* headers`);
    return problems;
  }
  if (transport) {
    // A method Node's parser does not know, off the routes: the core's 404, in its words, as
    // mock.request answers it (client-error.ts); any other 404 comes from the core, with its headers.
    const unknownOffRoute = answer.status === 404 && !METHODS.includes(sent.method);
    if (!TRANSPORT_STATUSES.has(answer.status) && !unknownOffRoute)
      problems.push(`a ${answer.status} without X-RateLimit-* headers, which the transport never sends`);
    const entry = code === undefined ? undefined : (ERRORS as Record<string, { status: number }>)[code];
    const headWithoutBody = sent.method === 'HEAD' && answer.body === '';
    if (entry?.status !== answer.status && !headWithoutBody)
      problems.push(`a transport refusal with code ${code} and ${answer.status}`);
    if (answer.headers['access-control-allow-origin'] !== '*')
      problems.push('no CORS on a transport refusal');
    if (answer.headers.connection !== 'close') problems.push('a transport refusal that keeps the connection');
    return problems;
  }
  try {
    // The mock takes the path as sent; the checker parses it as a URL, which would turn a backslash
    // into `/` and resolve `.` and `..` segments. Stand-ins that route the same way: `%5C` (decoded
    // back in a parameter), and `x` for each dot of a dot segment (a literal segment, no route, or
    // an invalid petId, as the dots are).
    const asSent = target
      .replaceAll('\\', '%5C')
      .replace(/\/(\.\.?)(?=\/|\?|$)/g, (_, dots: string) => `/${'x'.repeat(dots.length)}`);
    const url = `http://petkit.local${asSent}`;
    problems.push(...conformanceProblems(sent.method, url, answer.status, headers, answer.body, nowMs));
  } catch (error) {
    problems.push(`the checker could not read it: ${String(error)}`);
  }
  return problems;
}

interface ErrorBody {
  readonly code?: string;
  readonly message?: unknown;
  readonly details?: readonly { readonly path?: unknown; readonly message?: unknown }[];
}

/**
 * A validation Error's messages: each fault's within MAX_DETAIL_MESSAGE, and the Error's message no
 * longer than its first fault's path and message with a few words around them.
 */
function messageProblems(error: ErrorBody): string[] {
  if (!Array.isArray(error.details)) return [];
  const problems: string[] = [];
  for (const detail of error.details) {
    if (typeof detail.message === 'string' && detail.message.length > MAX_DETAIL_MESSAGE)
      problems.push(
        `a detail message of ${detail.message.length} characters: ${detail.message.slice(0, 80)}…`,
      );
  }
  const [first] = error.details;
  const path = typeof first?.path === 'string' ? first.path.length : 0;
  if (typeof error.message === 'string' && error.message.length > path + MAX_DETAIL_MESSAGE + 40)
    problems.push(`a message of ${error.message.length} characters: ${error.message.slice(0, 80)}…`);
  return problems;
}

/** Log lines that leak: the key, a stack trace, a path of this machine. */
export function logProblems(lines: readonly string[], secrets: readonly string[]): string[] {
  const problems: string[] = [];
  for (const line of lines) {
    for (const secret of secrets)
      if (line.includes(secret)) problems.push(`the key in a log line: ${line.slice(0, 80)}`);
    for (const leak of LEAKS)
      if (leak.test(line)) problems.push(`a leak in a log line: ${line.slice(0, 80)}`);
  }
  return problems;
}

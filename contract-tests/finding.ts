// A finding: one way the target departs from openapi.yaml, as data. Reporters only format it.
import type { CheckId } from './checks.js';
import { type Exchange, excerpt, type RequestRecord, toCurl } from './exchange.js';
import type { Because } from './model/types.js';

export interface Finding {
  readonly check: CheckId;
  readonly operationId: string;
  readonly severity: 'error' | 'warning';
  /** The HTTP status that came back; null when none did. */
  readonly status: number | null;
  /** JSON Pointer into the response body (or `/headers/<name>`), as ajv gives it. */
  readonly instancePath: string;
  /** Where in openapi.yaml the rule lives, or the check's own rule (`#/check/...`). */
  readonly schemaPath: string;
  readonly message: string;
  readonly expected: string;
  readonly request: RequestRecord;
  /** The request as a curl command, the key as `$API_KEY`. */
  readonly curl: string;
  readonly response: {
    readonly status: number;
    readonly headers: Readonly<Record<string, string>>;
    readonly bodyExcerpt: string;
  } | null;
  /** How many exchanges showed this same departure (the first one is shown). */
  occurrences: number;
  /** Every distinct instancePath it was seen at (one bug at `/0/id`, `/1/id`… is one finding). */
  readonly instancePaths: string[];
  /** The departure in stable words without a case's detail (`401 → 403`): what groups findings. */
  readonly cause?: string;
  /** The cases that showed it, a few words each (at most MAX_CASES): `message` is the first. */
  readonly cases?: string[];
  /** Why it is one: the document's sentence, an RFC's, or an earlier exchange. */
  readonly because?: readonly Because[];
  /** A POSIX sh script that reproduces it, step by step. */
  readonly script?: string;
}

const RELEVANT_HEADERS = [
  'content-type',
  'location',
  'retry-after',
  'www-authenticate',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'sunset',
  'deprecation',
];

export interface FindingInput {
  readonly check: CheckId;
  readonly severity: 'error' | 'warning';
  readonly message: string;
  readonly expected: string;
  readonly instancePath?: string;
  readonly schemaPath?: string;
  readonly cause?: string;
  readonly case?: string;
  readonly because?: readonly Because[];
  readonly script?: string;
  /** The curl line, when the request's own (toCurl) would not show the fault (the wire probe's). */
  readonly curl?: string;
}

/** The most case descriptions a finding keeps; `occurrences` still counts them all. */
export const MAX_CASES = 10;

/**
 * The cause of a status mismatch when the finding names none: the status expected (a bare one, `401`)
 * and the one that came. Other findings have none: their message says it.
 */
function causeOf(input: FindingInput, status: number | undefined): string | undefined {
  if (input.cause !== undefined) return input.cause;
  if (status === undefined || !/^\d{3}$/.test(input.expected) || input.expected === String(status))
    return undefined;
  return `${input.expected} → ${status}`;
}

export function findingOf(exchange: Exchange, input: FindingInput): Finding {
  const response = exchange.response;
  const cause = causeOf(input, response?.status);
  return {
    check: input.check,
    operationId: exchange.operationId,
    severity: input.severity,
    status: response?.status ?? null,
    instancePath: input.instancePath ?? '',
    schemaPath: input.schemaPath ?? `#/check/${input.check}`,
    message: input.message,
    expected: input.expected,
    request: exchange.request,
    curl:
      input.curl ??
      toCurl(
        exchange.request,
        response?.headers['content-encoding'] !== undefined || exchange.failure?.encoded === true,
      ),
    response:
      response === null
        ? null
        : {
            status: response.status,
            headers: Object.fromEntries(
              Object.entries(response.headers).filter(([name]) => RELEVANT_HEADERS.includes(name)),
            ),
            bodyExcerpt: excerpt(response.body),
          },
    occurrences: 1,
    instancePaths: [input.instancePath ?? ''],
    ...(cause === undefined ? {} : { cause }),
    cases: [input.case ?? input.message],
    ...(input.because === undefined ? {} : { because: input.because }),
    ...(input.script === undefined ? {} : { script: input.script }),
  };
}

/** Two findings are the same departure when they differ only in the request that showed them. */
export function findingKey(finding: Finding): string {
  // One cause on one operation is one finding, whatever the case (every bad key answered 403, every
  // response's X-RateLimit-Remaining a decimal); an error and a warning are never one.
  if (finding.cause !== undefined)
    return [finding.check, finding.operationId, finding.severity, finding.cause].join('|');
  // Array indices apart: the same fault in every item of a list is one departure.
  const path = finding.instancePath.replace(/\/\d+(?=\/|$)/g, '/*');
  return [
    finding.check,
    finding.operationId,
    finding.status,
    finding.schemaPath,
    path,
    finding.instancePath === '' ? finding.message : finding.message.replaceAll(finding.instancePath, path),
  ].join('|');
}

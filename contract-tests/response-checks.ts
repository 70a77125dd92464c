// The checks that every response is held to, whichever scenario sent the request.
import {
  describeFault,
  escapeToken,
  type HeaderSpec,
  type OperationSpec,
  type Spec,
} from '../openapi/index.js';
import type { CheckId } from './checks.js';
import type { Exchange } from './exchange.js';
import type { FindingInput } from './finding.js';

/** Headers that say an operation is deprecated: deprecation_signalled's, not response_headers_conformance's. */
const DEPRECATION_HEADERS = ['sunset', 'deprecation', 'link'];
const RATE_LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];
/** Allowance for a server's clock being off from ours. */
const CLOCK_SKEW_S = 300;
/** The longest window the API has is a day. */
const LONGEST_WINDOW_S = 24 * 3600;

export interface ResponseVerdict {
  readonly check: CheckId;
  readonly finding?: Omit<FindingInput, 'check'>;
}

const isJsonMediaType = (mediaType: string) =>
  mediaType === 'application/json' || mediaType.endsWith('+json');

/** The X-RateLimit-* header specs, read from the document (the first operation response that has them). */
export function rateLimitHeaderSpecs(spec: Spec): HeaderSpec[] {
  const found = new Map<string, HeaderSpec>();
  for (const operation of spec.operations) {
    for (const response of operation.responses.values()) {
      for (const header of response.headers) {
        const name = header.name.toLowerCase();
        if (RATE_LIMIT_HEADERS.includes(name) && !found.has(name)) found.set(name, header);
      }
    }
  }
  return [...found.values()];
}

function headerVerdicts(
  operation: OperationSpec,
  exchange: Exchange,
  rateLimitSpecs: readonly HeaderSpec[],
  nowS: number,
): ResponseVerdict[] {
  const response = exchange.response;
  if (response === null) return [];
  const documented = operation.response(response.status);
  const verdicts: ResponseVerdict[] = [];
  const specs = new Map<string, HeaderSpec>(
    rateLimitSpecs.map((header) => [header.name.toLowerCase(), header]),
  );
  for (const header of documented?.headers ?? []) specs.set(header.name.toLowerCase(), header);
  for (const [name, header] of specs) {
    if (DEPRECATION_HEADERS.includes(name)) continue;
    const raw = response.headers[name] ?? null;
    for (const fault of header.validate(raw)) {
      verdicts.push({
        check: 'response_headers_conformance',
        finding: {
          severity: 'error',
          instancePath: `/headers/${header.name}`,
          schemaPath: fault.schemaPath,
          message:
            raw === null
              ? `${header.name} is missing`
              : `${header.name}: ${JSON.stringify(raw)} ${fault.message}`,
          expected: `${header.name} header, ${JSON.stringify(header.schema)}`,
        },
      });
    }
  }
  const limit = Number(response.headers['x-ratelimit-limit']);
  const remaining = Number(response.headers['x-ratelimit-remaining']);
  const reset = Number(response.headers['x-ratelimit-reset']);
  if (Number.isInteger(limit) && Number.isInteger(remaining) && remaining > limit) {
    verdicts.push({
      check: 'response_headers_conformance',
      finding: {
        severity: 'error',
        instancePath: '/headers/X-RateLimit-Remaining',
        schemaPath: '#/components/headers/X-RateLimit-Remaining/description',
        message: `X-RateLimit-Remaining ${remaining} is more than X-RateLimit-Limit ${limit}`,
        expected: 'X-RateLimit-Remaining ≤ X-RateLimit-Limit',
      },
    });
  }
  if (
    Number.isInteger(reset) &&
    (reset < nowS - CLOCK_SKEW_S || reset > nowS + LONGEST_WINDOW_S + CLOCK_SKEW_S)
  ) {
    verdicts.push({
      check: 'response_headers_conformance',
      finding: {
        severity: 'error',
        instancePath: '/headers/X-RateLimit-Reset',
        schemaPath: '#/components/headers/X-RateLimit-Reset/description',
        message: `X-RateLimit-Reset ${reset} (${new Date(reset * 1000).toISOString()}) is not the end of a current window`,
        expected: `a Unix time between now (${nowS}, give or take ${CLOCK_SKEW_S} s) and a day ahead`,
      },
    });
  }
  return verdicts;
}

function deprecationVerdicts(operation: OperationSpec, exchange: Exchange): ResponseVerdict[] {
  const response = exchange.response;
  if (response === null || !operation.deprecated) return [];
  const documented = operation.response(response.status)?.headers ?? [];
  const verdicts: ResponseVerdict[] = [];
  for (const name of ['Sunset', 'Deprecation']) {
    const spec = documented.find((header) => header.name.toLowerCase() === name.toLowerCase());
    const raw = response.headers[name.toLowerCase()] ?? null;
    const faults =
      spec === undefined ? (raw === null ? [{ message: 'is required' }] : []) : spec.validate(raw);
    for (const fault of faults) {
      verdicts.push({
        check: 'deprecation_signalled',
        finding: {
          severity: 'warning',
          instancePath: `/headers/${name}`,
          schemaPath: `#/components/headers/${name}`,
          message:
            raw === null
              ? `${operation.id} is deprecated but the response has no ${name} header`
              : `${name}: ${JSON.stringify(raw)} ${fault.message ?? 'is not valid'}`,
          expected: `${name} on every response of the deprecated ${operation.id}`,
        },
      });
    }
  }
  return verdicts;
}

/** Runs every response check on one exchange: a verdict without a finding means it passed. */
export function checkResponse(spec: Spec, exchange: Exchange, nowMs: number): ResponseVerdict[] {
  const response = exchange.response;
  if (response === null) return [];
  const operation = spec.operation(exchange.operationId);
  const status = response.status;
  const documented = operation.response(status);
  const verdicts: ResponseVerdict[] = [];
  const finding = (check: CheckId, input: Omit<FindingInput, 'check' | 'severity'>) =>
    verdicts.push({ check, finding: { severity: 'error', ...input } });

  if (status >= 500) {
    finding('not_a_server_error', {
      message: `the server answered ${status}`,
      expected: 'a status below 500',
      schemaPath: '#/check/not_a_server_error',
    });
  } else verdicts.push({ check: 'not_a_server_error' });

  if (documented === undefined) {
    finding('status_code_conformance', {
      message: `${status} is not a documented status of ${operation.id}`,
      expected: `one of ${[...operation.responses.keys()].join(', ')}`,
      schemaPath: `#/paths/${escapeToken(operation.path)}/${operation.method.toLowerCase()}/responses`,
    });
  } else verdicts.push({ check: 'status_code_conformance' });

  const documentedBody = documented?.content.get('application/json');
  const contentType = response.headers['content-type'] ?? '';
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  let parsed: { value: unknown } | undefined;
  if (response.body.length > 0) {
    try {
      parsed = { value: JSON.parse(response.body) };
    } catch {
      parsed = undefined;
    }
    const expectJson = documented === undefined || documentedBody !== undefined;
    if (expectJson && (!isJsonMediaType(mediaType) || parsed === undefined)) {
      finding('content_type_conformance', {
        message:
          parsed === undefined
            ? `the body is not JSON (Content-Type: ${contentType || '(none)'})`
            : `Content-Type is ${contentType || '(none)'}`,
        expected: 'Content-Type: application/json and a JSON body',
        instancePath: '/headers/Content-Type',
      });
    } else verdicts.push({ check: 'content_type_conformance' });
  }

  if (documentedBody !== undefined) {
    const schemaPath = `#/paths/${escapeToken(operation.path)}/${operation.method.toLowerCase()}/responses/${documented?.status}/content/application~1json/schema`;
    if (response.body.length === 0) {
      finding('response_schema_conformance', {
        message: `the ${status} response has no body`,
        expected: `a body matching ${schemaPath}`,
        schemaPath,
      });
    } else if (parsed !== undefined) {
      const faults = documentedBody.validate(parsed.value);
      for (const fault of faults.slice(0, 3)) {
        const detail = describeFault(fault);
        finding('response_schema_conformance', {
          message: `${detail.path || '(body)'} ${detail.message}`,
          expected: `the ${status} body to match ${schemaPath}`,
          instancePath: detail.path,
          schemaPath: `${schemaPath}${fault.schemaPath.slice(1)}`,
        });
      }
      if (faults.length === 0) verdicts.push({ check: 'response_schema_conformance' });
    }
  }

  if (status >= 400 && parsed !== undefined && typeof parsed.value === 'object' && parsed.value !== null) {
    const bodyStatus = (parsed.value as Record<string, unknown>).status;
    if (bodyStatus !== undefined && bodyStatus !== status) {
      finding('error_body_consistency', {
        message: `the Error body says status ${JSON.stringify(bodyStatus)}, the HTTP status is ${status}`,
        expected: `"status": ${status}`,
        instancePath: '/status',
        schemaPath: '#/components/schemas/Error/properties/status',
      });
    } else verdicts.push({ check: 'error_body_consistency' });
  }

  const headers = headerVerdicts(operation, exchange, rateLimitHeaderSpecs(spec), Math.floor(nowMs / 1000));
  verdicts.push(...(headers.length > 0 ? headers : [{ check: 'response_headers_conformance' as const }]));
  if (operation.deprecated) {
    const deprecation = deprecationVerdicts(operation, exchange);
    verdicts.push(...(deprecation.length > 0 ? deprecation : [{ check: 'deprecation_signalled' as const }]));
  }
  return verdicts;
}

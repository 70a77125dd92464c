// The one response checker: what openapi.yaml says of any response, whoever sent the request. The
// contract suite holds every response of a target to it (each verdict under its check id); the
// mock's tests hold every answer of the mock to it.
import { describeFault } from './faults.js';
import { headerInteger } from './header-integer.js';
import { type BodyBreak, bodyBreak, whereItBreaks } from './json-break.js';
import { escapeToken } from './json-pointer.js';
import type { HeaderSpec, OperationSpec, ResponseSpec, Spec, Validator } from './spec-types.js';

/** The contract suite's check ids (contract-tests/checks.ts) that a response alone decides. */
export type ResponseCheckId =
  | 'not_a_server_error'
  | 'status_code_conformance'
  | 'content_type_conformance'
  | 'response_schema_conformance'
  | 'response_headers_conformance'
  | 'error_body_consistency'
  | 'deprecation_signalled';

/** One way a response departs from the document. */
export interface ResponseFinding {
  readonly severity: 'error' | 'warning';
  readonly message: string;
  readonly expected: string;
  /** JSON Pointer into the body, or `/headers/<name>`. */
  readonly instancePath?: string;
  /** Where in openapi.yaml the rule lives; default the check's own (`#/check/<id>`). */
  readonly schemaPath?: string;
  /**
   * A header's fault in stable words, without the value that showed it (`X-RateLimit-Remaining must be
   * integer`): the same fault on every response is one finding, its values its cases.
   */
  readonly cause?: string;
}

export interface ResponseToCheck {
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as text, '' when there is none. */
  readonly body: string;
  /**
   * Where the body stops being JSON, found by whoever read it as it came (the suite: its `body` is the
   * recorded one, the key hidden); without it, found in `body` (json-break.ts).
   */
  readonly notJson?: BodyBreak;
}

export interface CheckOptions {
  /** The time now (ms since the epoch): X-RateLimit-Reset must be the end of a current window. */
  readonly nowMs: number;
  /** A response to HEAD: it has no body to check. Default false. */
  readonly head?: boolean;
  /**
   * The request was a conditional GET or HEAD (If-None-Match, If-Modified-Since: a browser revalidating
   * what it cached): a 304 Not Modified is HTTP's answer to it (RFC 9110 §15.4.5), standing for the
   * 200 the client holds, no status of the API's, and has no body. Its headers are held as any
   * response's. Default false.
   */
  readonly conditional?: boolean;
  /**
   * The text as a finding may quote it, the key hidden (the proxy's keys): what a finding shows of a
   * body that is not JSON is taken from the body so hidden. Default the text as it is.
   */
  readonly hide?: (text: string) => string;
  /**
   * The API's base URL as the response came from it (`http://host/api`: the suite's --base-url, the
   * proxy's upstream): a deprecated operation's `Link` names the successor under it. Without it, a
   * target that ends with the document's example (`/v1/pets`) is taken, as before.
   */
  readonly baseUrl?: string;
}

/** Headers that say an operation is deprecated: deprecation_signalled's, not response_headers_conformance's. */
const DEPRECATION_HEADERS = ['Sunset', 'Deprecation', 'Link'];
const RATE_LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];
/** Allowance for a server's clock being off from ours. */
const CLOCK_SKEW_S = 300;
/** The longest window the API has is a day. */
const LONGEST_WINDOW_S = 24 * 3600;

/** A check's verdict on one response: passed without a finding, departed with one. */
export interface ResponseVerdict {
  readonly check: ResponseCheckId;
  readonly finding?: ResponseFinding;
}

/** The media type of a Content-Type, without its parameters (`charset` and the like), lower case. */
export const mediaTypeOf = (contentType: string) => contentType.split(';')[0]?.trim().toLowerCase() ?? '';

/**
 * The Error `code` values the document lists (its description: "whose `code` is one of: `a`, `b`…"),
 * or undefined when it lists none. Compared exactly: `Not_Found` is not `not_found`.
 */
export function documentedErrorCodes(spec: Spec): ReadonlySet<string> | undefined {
  const description = String(spec.document.info.description ?? '');
  const match = /`code` is one of:([^.]*(?:\.[^\s][^.]*)*)\./.exec(description);
  if (match?.[1] === undefined) return undefined;
  const codes = [...match[1].matchAll(/`([a-z0-9_]+)`/gi)].map((m) => m[1] ?? '');
  return codes.length === 0 ? undefined : new Set(codes);
}

/** The successor a deprecated operation's `Link` must name: the target of the document's example. */
function documentedSuccessor(spec: Spec): string | undefined {
  const link = spec.document.components?.headers?.Link as { example?: unknown } | undefined;
  const example = typeof link?.example === 'string' ? link.example : '';
  return /^\s*<([^>]*)>/.exec(example)?.[1];
}

/** Where no base URL is given: the document's base path, at an origin of no server. */
const ANY_ORIGIN = 'http://any-origin.invalid';

/**
 * The successor as the server reached at `baseUrl` names it. The document's example, `</v1/pets>`, is
 * listPets of the API at its own base path, `/v1` (its servers'): the same collection of a server
 * mounted elsewhere is under that server's base path (`/api/pets` under `http://host/api`). Returned:
 * the path the Link must name, and whether a target names it: resolved (RFC 8288 §3.2, RFC 3986 §5)
 * against the operation's URL under the base, at the same origin and that path (a query, such as the
 * `status` filter the description names, allowed). Without a base URL, as before: a target that ends
 * with the document's own.
 */
function successorUnder(
  spec: Spec,
  operation: OperationSpec,
  successor: string,
  baseUrl: string | undefined,
): { path: string; names: (target: string) => boolean } {
  // A base URL that is none (a caller's mistake) is not this check's to refuse: the document's then.
  const given = baseUrl !== undefined && URL.canParse(baseUrl) ? baseUrl : undefined;
  const base = new URL(`${(given ?? `${ANY_ORIGIN}${spec.basePath}`).replace(/\/+$/, '')}/`);
  const prefix = base.pathname.replace(/\/+$/, '');
  const relative =
    spec.basePath !== '' && successor.startsWith(`${spec.basePath}/`)
      ? successor.slice(spec.basePath.length)
      : successor;
  const path = `${prefix}${relative}`;
  // The request's own URL, for a relative target (`../pets`): the operation's path, a parameter's place held.
  const requestUrl = new URL(`.${operation.path.replace(/\{[^}]*\}/g, '_')}`, base);
  const wanted = new URL(path, base).pathname;
  return {
    path,
    names(target) {
      // No base URL given (the mock's own tests, in process): as before, a target that ends with it.
      if (given === undefined) return target === successor || target.endsWith(successor);
      if (!URL.canParse(target, requestUrl)) return false;
      const resolved = new URL(target, requestUrl);
      return resolved.origin === base.origin && resolved.pathname === wanted;
    },
  };
}

/** The links of a `Link` header (RFC 8288) with their `rel` values, lower case. */
export function parseLinks(raw: string): { target: string; rels: string[] }[] {
  const links: { target: string; rels: string[] }[] = [];
  for (const match of raw.matchAll(/<([^>]*)>((?:\s*;\s*[^;,=\s]+\s*=\s*(?:"[^"]*"|[^;,\s]*))*)/g)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;,\s]*))/i.exec(match[2] ?? '');
    const rels = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    links.push({ target: match[1] ?? '', rels });
  }
  return links;
}

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
  operation: OperationSpec | undefined,
  response: ResponseToCheck,
  rateLimitSpecs: readonly HeaderSpec[],
  nowS: number,
): ResponseVerdict[] {
  const documented = operation?.response(response.status);
  const verdicts: ResponseVerdict[] = [];
  const deprecation = DEPRECATION_HEADERS.map((name) => name.toLowerCase());
  const specs = new Map<string, HeaderSpec>(
    rateLimitSpecs.map((header) => [header.name.toLowerCase(), header]),
  );
  for (const header of documented?.headers ?? []) specs.set(header.name.toLowerCase(), header);
  for (const [name, header] of specs) {
    if (deprecation.includes(name)) continue;
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
          cause: raw === null ? `${header.name} is missing` : `${header.name} ${fault.message}`,
        },
      });
    }
  }
  const limit = headerInteger(response.headers['x-ratelimit-limit']);
  const remaining = headerInteger(response.headers['x-ratelimit-remaining']);
  const reset = headerInteger(response.headers['x-ratelimit-reset']);
  if (limit !== undefined && remaining !== undefined && remaining > limit) {
    verdicts.push({
      check: 'response_headers_conformance',
      finding: {
        severity: 'error',
        instancePath: '/headers/X-RateLimit-Remaining',
        schemaPath: '#/components/headers/X-RateLimit-Remaining/description',
        message: `X-RateLimit-Remaining ${remaining} is more than X-RateLimit-Limit ${limit}`,
        expected: 'X-RateLimit-Remaining ≤ X-RateLimit-Limit',
        cause: 'X-RateLimit-Remaining more than X-RateLimit-Limit',
      },
    });
  }
  if (
    reset !== undefined &&
    (reset < nowS - CLOCK_SKEW_S || reset > nowS + LONGEST_WINDOW_S + CLOCK_SKEW_S)
  ) {
    verdicts.push({
      check: 'response_headers_conformance',
      finding: {
        severity: 'error',
        instancePath: '/headers/X-RateLimit-Reset',
        schemaPath: '#/components/headers/X-RateLimit-Reset/description',
        message: `X-RateLimit-Reset ${reset} (${new Date(reset * 1000).toISOString()}) is not the end of a current window${clockOff(response, nowS)}`,
        expected: `a Unix time between now (${nowS}, give or take ${CLOCK_SKEW_S} s) and a day ahead`,
        cause: 'X-RateLimit-Reset not the end of a current window',
      },
    });
  }
  return verdicts;
}

/**
 * Said beside a Reset out of every current window when the response's own Date is as far off this
 * machine's clock: the server's clock is off, and its Reset with it (a client counting the seconds to
 * the Reset on its own clock waits that much too long or too short).
 */
function clockOff(response: ResponseToCheck, nowS: number): string {
  const dateMs = Date.parse(response.headers.date ?? '');
  if (Number.isNaN(dateMs)) return '';
  const offS = Math.floor(dateMs / 1000) - nowS;
  if (Math.abs(offS) <= CLOCK_SKEW_S) return '';
  return `; the response's own Date (${response.headers.date}) is ${Math.abs(offS)} s ${offS < 0 ? 'behind' : 'ahead of'} this machine's clock: the server's clock is off, and its Reset with it`;
}

/**
 * X-RateLimit-Reset is the end of the window, so it is not before the response's own `Date`: both
 * come from the server's clock, so no skew is allowed between them. A `Date` far from our clock (more
 * than the skew allowance: a server on a clock of its own) is not compared.
 */
function resetBeforeDate(response: ResponseToCheck, nowS: number): ResponseVerdict[] {
  const reset = headerInteger(response.headers['x-ratelimit-reset']);
  const dateMs = Date.parse(response.headers.date ?? '');
  if (reset === undefined || Number.isNaN(dateMs)) return [];
  const dateS = Math.floor(dateMs / 1000);
  if (Math.abs(dateS - nowS) > CLOCK_SKEW_S || reset >= dateS) return [];
  return [
    {
      check: 'response_headers_conformance',
      finding: {
        severity: 'error',
        instancePath: '/headers/X-RateLimit-Reset',
        schemaPath: '#/components/headers/X-RateLimit-Reset/description',
        message: `X-RateLimit-Reset ${reset} (${new Date(reset * 1000).toISOString()}) is before the response's own Date (${response.headers.date})`,
        expected: 'the end of the current window: not before the Date header',
        cause: "X-RateLimit-Reset before the response's Date",
      },
    },
  ];
}

/**
 * Every response of a deprecated operation says so, whatever its status. Where the documented response
 * requires a header, a missing or malformed one is an error; where the document leaves it out (a 401,
 * a 429), only a warning. `Link` must name the documented successor with `rel="successor-version"`.
 */
function deprecationVerdicts(
  spec: Spec,
  operation: OperationSpec,
  response: ResponseToCheck,
  baseUrl: string | undefined,
): ResponseVerdict[] {
  const documented = operation.response(response.status)?.headers ?? [];
  const verdicts: ResponseVerdict[] = [];
  const documentedTarget = documentedSuccessor(spec);
  const under =
    documentedTarget === undefined ? undefined : successorUnder(spec, operation, documentedTarget, baseUrl);
  const successor = under?.path;
  for (const name of DEPRECATION_HEADERS) {
    const header = documented.find((candidate) => candidate.name.toLowerCase() === name.toLowerCase());
    const raw = response.headers[name.toLowerCase()] ?? null;
    const faults: { message?: string; kind?: string }[] =
      header === undefined ? (raw === null ? [{ message: 'is required' }] : []) : header.validate(raw);
    if (name === 'Link' && raw !== null && faults.length === 0 && successor !== undefined) {
      const links = parseLinks(raw).filter((link) => link.rels.includes('successor-version'));
      if (links.length === 0) faults.push({ message: 'has no rel="successor-version" link' });
      else if (under !== undefined && !links.some((link) => under.names(link.target)))
        faults.push({
          message: `names ${links.map((link) => `<${link.target}>`).join(', ')}, not <${successor}>`,
          kind: 'names another successor',
        });
    }
    const required = header?.required === true;
    for (const fault of faults) {
      verdicts.push({
        check: 'deprecation_signalled',
        finding: {
          severity: required ? 'error' : 'warning',
          instancePath: `/headers/${name}`,
          schemaPath: `#/components/headers/${name}`,
          message:
            raw === null
              ? `${operation.id} is deprecated but the response has no ${name} header`
              : `${name}: ${JSON.stringify(raw)} ${fault.message ?? 'is not valid'}`,
          expected:
            name === 'Link' && successor !== undefined
              ? `Link: <${successor}>; rel="successor-version" on every response of the deprecated ${operation.id}`
              : `${name} on every response of the deprecated ${operation.id}${header === undefined ? '' : `, ${JSON.stringify(header.schema)}`}`,
          cause: raw === null ? `no ${name}` : `${name} ${fault.kind ?? fault.message ?? 'is not valid'}`,
        },
      });
    }
  }
  return verdicts;
}

/**
 * Runs every response check on one response to an operation: a verdict without a finding means it
 * passed. With no operation (a route the document does not have), the response is held to what the
 * document says of every response: X-RateLimit-* headers, and an Error body that repeats the status.
 */
export function checkResponse(
  spec: Spec,
  operation: OperationSpec | undefined,
  response: ResponseToCheck,
  options: CheckOptions,
): ResponseVerdict[] {
  const status = response.status;
  const documented = operation?.response(status);
  const verdicts: ResponseVerdict[] = [];
  const notModified = status === 304 && options.conditional === true;
  const finding = (check: ResponseCheckId, input: Omit<ResponseFinding, 'severity'>) =>
    verdicts.push({ check, finding: { severity: 'error', ...input } });

  if (status >= 500) {
    finding('not_a_server_error', {
      message: `the server answered ${status}`,
      expected: 'a status below 500',
      schemaPath: '#/check/not_a_server_error',
    });
  } else verdicts.push({ check: 'not_a_server_error' });

  if (operation === undefined) {
    // No operation, so no status to hold it to.
  } else if (notModified) {
    verdicts.push({ check: 'status_code_conformance' });
  } else if (documented === undefined) {
    finding('status_code_conformance', {
      message: `${status} is not a documented status of ${operation.id}`,
      expected: `one of ${[...operation.responses.keys()].join(', ')}`,
      schemaPath: `#/paths/${escapeToken(operation.path)}/${operation.method.toLowerCase()}/responses`,
    });
  } else verdicts.push({ check: 'status_code_conformance' });

  const documentedBody = expectedBody(spec, operation, documented, status);
  const contentType = response.headers['content-type'] ?? '';
  const mediaType = mediaTypeOf(contentType);
  // The documented media types of this response, exactly (parameters such as charset allowed): an
  // Error documented as application/json is not application/problem+json.
  const mediaTypes =
    documented === undefined ? ['application/json'] : [...documented.content.keys()].map(mediaTypeOf);
  let parsed: { value: unknown } | undefined;
  // A 304 has no body (RFC 9110 §15.4.5): what the client shows is the 200 it cached.
  const bodiless = options.head === true || notModified;
  if (response.body.length > 0 && !bodiless) {
    try {
      parsed = { value: JSON.parse(response.body) };
    } catch {
      parsed = undefined;
    }
    const expectJson = documented === undefined || documentedBody !== undefined;
    if (expectJson && (!mediaTypes.includes(mediaType) || parsed === undefined)) {
      const notJson = `the body is not JSON (Content-Type: ${contentType || '(none)'})`;
      // Where it breaks, and the body there: the cause stays without it, the same on every such body.
      const broken =
        parsed !== undefined
          ? undefined
          : (response.notJson ?? bodyBreak(response.body, options.hide?.(response.body) ?? response.body));
      finding('content_type_conformance', {
        message:
          parsed === undefined
            ? broken === undefined
              ? notJson
              : `${notJson}: ${whereItBreaks(broken, response.headers)}`
            : `Content-Type is ${contentType || '(none)'}`,
        expected: `Content-Type: ${mediaTypes.join(' or ')} and a JSON body`,
        instancePath: '/headers/Content-Type',
        ...(parsed === undefined ? { cause: notJson } : {}),
      });
    } else verdicts.push({ check: 'content_type_conformance' });
  }

  // The body's faults against its documented schema, once: a body off its schema is
  // response_schema_conformance's alone, and the checks below that read it say nothing of it.
  const schemaFaults =
    documentedBody !== undefined && parsed !== undefined ? documentedBody.validate(parsed.value) : [];
  if (documentedBody !== undefined && !bodiless) {
    const { schemaPath } = documentedBody;
    if (response.body.length === 0) {
      finding('response_schema_conformance', {
        message: `the ${status} response has no body`,
        expected: `a body matching ${schemaPath}`,
        schemaPath,
      });
    } else if (parsed !== undefined) {
      const faults = schemaFaults;
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

  // Inconclusive on a body off its schema (a `"status": "400"` is the schema's finding, not this one's).
  if (
    status >= 400 &&
    parsed !== undefined &&
    schemaFaults.length === 0 &&
    typeof parsed.value === 'object' &&
    parsed.value !== null
  ) {
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

  // An Error's code is one the document lists, when the response is a documented Error (an undocumented
  // status is status_code_conformance's alone).
  const codes = documentedErrorCodes(spec);
  if (
    status >= 400 &&
    codes !== undefined &&
    documentedBody !== undefined &&
    parsed !== undefined &&
    schemaFaults.length === 0 &&
    spec.schema('Error')(parsed.value).length === 0
  ) {
    const code = (parsed.value as Record<string, unknown>).code as string;
    if (!codes.has(code)) {
      finding('response_schema_conformance', {
        message: `the Error code ${JSON.stringify(code)} is not one the document lists`,
        expected: `one of ${[...codes].join(', ')}`,
        instancePath: '/code',
        schemaPath: '#/info/description',
      });
    }
  }

  const nowS = Math.floor(options.nowMs / 1000);
  const headers = headerVerdicts(operation, response, rateLimitHeaderSpecs(spec), nowS);
  headers.push(...resetBeforeDate(response, nowS));
  verdicts.push(...(headers.length > 0 ? headers : [{ check: 'response_headers_conformance' as const }]));
  if (operation?.deprecated === true) {
    const deprecation = deprecationVerdicts(spec, operation, response, options.baseUrl);
    verdicts.push(...(deprecation.length > 0 ? deprecation : [{ check: 'deprecation_signalled' as const }]));
  }
  return verdicts;
}

/**
 * The JSON body a response must carry and where its schema is: the documented one for the status or,
 * without an operation, an Error for an error (openapi.yaml's description says every error has one).
 */
function expectedBody(
  spec: Spec,
  operation: OperationSpec | undefined,
  documented: ResponseSpec | undefined,
  status: number,
): { readonly validate: Validator; readonly schemaPath: string } | undefined {
  if (operation === undefined) {
    return status >= 400
      ? { validate: spec.schema('Error'), schemaPath: '#/components/schemas/Error' }
      : undefined;
  }
  const body = documented?.content.get('application/json');
  if (documented === undefined || body === undefined) return undefined;
  const responsePath = `#/paths/${escapeToken(operation.path)}/${operation.method.toLowerCase()}/responses/${documented.status}`;
  return {
    validate: body.validate,
    schemaPath: `${responsePath}/content/${escapeToken('application/json')}/schema`,
  };
}

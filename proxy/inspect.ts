// What the proxy checks of one exchange it forwarded: the request against its operation's parameters
// and body (operation.validateRequest), the response with the contract module's one response checker
// (the suite's own checks). Each departure is data: the check, the operation, what was expected,
// what came, and a curl line that replays the request without the user's key (credential.ts). A body
// the proxy did not keep (over the bound, an encoding it does not decode) is not checked, and says so.
import { checkResponse, type OperationSpec, type Spec } from '../openapi/index.js';
import type { Captured } from './body-capture.js';
import { type KeyBook, replayOf } from './credential.js';
import { curlLine } from './curl.js';

type NodeHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** One request and its answer, as the proxy saw them. */
export interface Exchange {
  readonly method: string;
  /** The request target as the client sent it to the proxy. */
  readonly target: string;
  /** The same target in origin-form (path and query under the API's base path), as checked. */
  readonly path: string;
  /** The same request's URL at the upstream. */
  readonly upstreamUrl: string;
  /**
   * The API's base URL at the upstream (`https://x/api/v2`): a deprecated operation's Link names its
   * successor under it. Default the document's base path.
   */
  readonly upstreamBase?: string;
  readonly requestHeaders: NodeHeaders;
  /** The body, decoded, or why it was not kept. */
  readonly requestBody: Captured;
  readonly status: number;
  readonly responseHeaders: NodeHeaders;
  readonly responseBody: Captured;
}

export interface Departure {
  /** When the exchange ended, ms since the epoch. */
  readonly time: number;
  /** Whose departure: the request the client sent, or the answer the upstream gave. */
  readonly side: 'request' | 'response';
  /** The check: one of the suite's response checks, `request_conformance` or `undocumented_route`. */
  readonly check: string;
  readonly operationId: string | null;
  readonly method: string;
  readonly target: string;
  readonly status: number;
  readonly expected: string;
  readonly received: string;
  readonly curl: string;
}

/** A body of the exchange that was not checked, and why: `larger than 1048576 bytes`. */
export interface Unchecked {
  readonly side: 'request' | 'response';
  readonly reason: string;
}

export interface Inspection {
  readonly departures: Departure[];
  readonly unchecked: Unchecked[];
}

const header = (headers: NodeHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

/** Why the request's body was not validated: a departure of the client's, or a body not kept. */
type BodyRefusal = { readonly departs: string } | { readonly unchecked: string };

/**
 * The exchange's departures and bodies not checked, in the texts as they came: the caller hides the
 * credentials in them (proxy.ts, the exchange's hider). `hide` is that hider, which a finding's excerpt
 * of a body is cut from, so that no piece of a credential is left at its edge.
 */
export async function inspect(
  spec: Spec,
  exchange: Exchange,
  nowMs: number,
  keys: KeyBook,
  hide: (text: string) => string,
): Promise<Inspection> {
  const { method, target, status, requestBody, responseBody } = exchange;
  // Origin-form, checked by target.ts: a path, never a scheme-relative `//host`.
  const url = new URL(exchange.path, 'http://proxy.local');
  const requestText = 'text' in requestBody ? requestBody.text : '';
  const authorization = header(exchange.requestHeaders, 'authorization');
  // Written once, and only for an exchange that departs: most do not.
  let curl: string | undefined;
  const replay = () => {
    if (curl !== undefined) return curl;
    const credential = replayOf(authorization, status, keys);
    curl = curlLine(
      method,
      credential.text(exchange.upstreamUrl),
      exchange.requestHeaders,
      credential.text(requestText),
      credential.authorization,
      credential.keys,
    );
    return curl;
  };
  const departures: Departure[] = [];
  const unchecked: Unchecked[] = [];
  if ('unchecked' in requestBody) unchecked.push({ side: 'request', reason: requestBody.unchecked });
  const depart = (
    side: Departure['side'],
    check: string,
    operation: OperationSpec | undefined,
    expected: string,
    received: string,
  ) =>
    departures.push({
      time: nowMs,
      side,
      check,
      operationId: operation?.id ?? null,
      method,
      target,
      status,
      expected,
      received,
      curl: replay(),
    });

  const underBase = url.pathname === spec.basePath || url.pathname.startsWith(`${spec.basePath}/`);
  const match = underBase ? spec.matchPath(url.pathname.slice(spec.basePath.length)) : undefined;
  const operation = match?.path.operations.get(method === 'HEAD' ? 'GET' : method);
  if (operation === undefined) {
    if (method === 'OPTIONS') return { departures, unchecked }; // a CORS preflight: no operation is its own
    depart(
      'request',
      'undocumented_route',
      undefined,
      'an operation of openapi.yaml',
      `${method} ${url.pathname}`,
    );
  } else {
    const verdict = await operation.validateRequest<BodyRefusal>({
      pathParams: match?.params ?? null,
      query: url.search === '' ? undefined : url.searchParams,
      readBody: async () => {
        const contentType = header(exchange.requestHeaders, 'content-type');
        if ('unchecked' in requestBody) return { refusal: { unchecked: requestBody.unchecked } };
        if (contentType === undefined || !/^application\/json\s*(;|$)/i.test(contentType.trim())) {
          return {
            refusal: {
              departs: `a body with ${contentType === undefined ? 'no Content-Type' : `Content-Type ${contentType}`}`,
            },
          };
        }
        try {
          return { value: JSON.parse(requestText), text: requestText };
        } catch {
          return { refusal: { departs: 'a body that is not valid JSON' } };
        }
      },
    });
    if (verdict.kind === 'invalid') {
      depart(
        'request',
        'request_conformance',
        operation,
        `a request ${operation.id} accepts`,
        verdict.message,
      );
    } else if (verdict.kind === 'refused' && 'departs' in verdict.refusal) {
      depart(
        'request',
        'request_conformance',
        operation,
        'an application/json body',
        verdict.refusal.departs,
      );
    }
  }

  if ('unchecked' in responseBody) {
    unchecked.push({ side: 'response', reason: responseBody.unchecked });
    return { departures, unchecked };
  }
  const body = responseBody.text;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(exchange.responseHeaders)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  const verdicts = checkResponse(
    spec,
    operation,
    { status, headers, body },
    // A body that is not JSON is shown where it breaks from the body with every credential hidden.
    {
      nowMs,
      head: method === 'HEAD',
      // A browser revalidating what it cached: the upstream's 304 is HTTP's answer, not a status of the API's.
      conditional:
        (method === 'GET' || method === 'HEAD') &&
        (header(exchange.requestHeaders, 'if-none-match') !== undefined ||
          header(exchange.requestHeaders, 'if-modified-since') !== undefined),
      hide,
      ...(exchange.upstreamBase === undefined ? {} : { baseUrl: exchange.upstreamBase }),
    },
  );
  for (const { check, finding } of verdicts) {
    if (finding !== undefined && finding.severity === 'error') {
      depart('response', check, operation, finding.expected, finding.message);
    }
  }
  return { departures, unchecked };
}

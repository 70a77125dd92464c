// What the proxy checks of one exchange it forwarded: the request against its operation's parameters
// and body (operation.validateRequest), the response with the contract module's one response checker
// (the suite's own checks). Each departure is data: the check, the operation, what was expected,
// what came, and a curl line that replays the request with `$API_KEY` in place of the key.
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { checkResponse, type OperationSpec, type Spec } from '../openapi/index.js';
import { curlLine } from './curl.js';

type NodeHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** One request and its answer, as the proxy saw them. */
export interface Exchange {
  readonly method: string;
  /** Path and query as the client sent them to the proxy. */
  readonly target: string;
  /** The same request's URL at the upstream. */
  readonly upstreamUrl: string;
  readonly requestHeaders: NodeHeaders;
  /** The body; undefined when it was too large to keep. */
  readonly requestBody: Buffer | undefined;
  readonly status: number;
  readonly responseHeaders: NodeHeaders;
  readonly responseBody: Buffer | undefined;
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

const header = (headers: NodeHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

/** The body as text, decoded from its Content-Encoding; undefined when it cannot be. */
function textOf(body: Buffer, encoding: string | undefined): string | undefined {
  try {
    const coding = (encoding ?? 'identity').trim().toLowerCase();
    if (coding === 'identity' || coding === '') return body.toString('utf8');
    if (coding === 'gzip' || coding === 'x-gzip') return gunzipSync(body).toString('utf8');
    if (coding === 'br') return brotliDecompressSync(body).toString('utf8');
    if (coding === 'deflate') return inflateSync(body).toString('utf8');
    return undefined;
  } catch {
    return undefined;
  }
}

export async function inspect(spec: Spec, exchange: Exchange, nowMs: number): Promise<Departure[]> {
  const { method, target, status } = exchange;
  const url = new URL(target, 'http://proxy.local');
  const requestText = exchange.requestBody?.toString('utf8') ?? '';
  const curl = curlLine(method, exchange.upstreamUrl, exchange.requestHeaders, requestText);
  const departures: Departure[] = [];
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
      curl,
    });

  const underBase = url.pathname === spec.basePath || url.pathname.startsWith(`${spec.basePath}/`);
  const match = underBase ? spec.matchPath(url.pathname.slice(spec.basePath.length)) : undefined;
  const operation = match?.path.operations.get(method === 'HEAD' ? 'GET' : method);
  if (operation === undefined) {
    if (method === 'OPTIONS') return departures; // a CORS preflight: no operation is its own
    depart(
      'request',
      'undocumented_route',
      undefined,
      'an operation of openapi.yaml',
      `${method} ${url.pathname}`,
    );
  } else {
    const verdict = await operation.validateRequest<string>({
      pathParams: match?.params ?? null,
      query: url.search === '' ? undefined : url.searchParams,
      readBody: async () => {
        const contentType = header(exchange.requestHeaders, 'content-type');
        if (exchange.requestBody === undefined) return { refusal: 'a body too large to check' };
        if (contentType === undefined || !/^application\/json\s*(;|$)/i.test(contentType.trim())) {
          return {
            refusal: `a body with ${contentType === undefined ? 'no Content-Type' : `Content-Type ${contentType}`}`,
          };
        }
        try {
          return { value: JSON.parse(requestText) };
        } catch {
          return { refusal: 'a body that is not valid JSON' };
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
    } else if (verdict.kind === 'refused') {
      depart('request', 'request_conformance', operation, 'an application/json body', verdict.refusal);
    }
  }

  const body =
    exchange.responseBody === undefined
      ? undefined
      : textOf(exchange.responseBody, header(exchange.responseHeaders, 'content-encoding'));
  if (body === undefined) return departures; // too large to keep, or an encoding not read: unchecked
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(exchange.responseHeaders)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  const verdicts = checkResponse(
    spec,
    operation,
    { status, headers, body },
    { nowMs, head: method === 'HEAD' },
  );
  for (const { check, finding } of verdicts) {
    if (finding !== undefined && finding.severity === 'error') {
      depart('response', check, operation, finding.expected, finding.message);
    }
  }
  return departures;
}

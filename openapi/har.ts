// HTTP exchanges as a HAR 1.2 log (http://www.softwareishard.com/blog/har-12-spec/), the format a
// browser's devtools open: pure, no I/O, so the mock (`petkit mock --har`) and the contract suite can
// both build one and write it where they like.

/** One request and its response, as whoever saw them has them. */
export interface HarExchange {
  /** When the request started (ms since the epoch). */
  readonly startedMs: number;
  readonly method: string;
  /** The absolute URL. */
  readonly url: string;
  readonly requestHeaders: Readonly<Record<string, string>>;
  /** The request body as text, or undefined when it had none. */
  readonly requestBody?: string | undefined;
  readonly status: number;
  readonly responseHeaders: Readonly<Record<string, string>>;
  readonly responseBody?: string | undefined;
  /** The response body's whole size in bytes, when the text above is only its start. */
  readonly responseBytes?: number | undefined;
  readonly timeMs: number;
  /** Shown in devtools beside the entry (why it is cut, what a check found, …). */
  readonly comment?: string | undefined;
}

export interface HarLog {
  readonly log: {
    readonly version: '1.2';
    readonly creator: { readonly name: string; readonly version: string };
    readonly entries: readonly HarEntry[];
  };
}

interface NameValue {
  readonly name: string;
  readonly value: string;
}

export interface HarEntry {
  readonly startedDateTime: string;
  readonly time: number;
  readonly request: {
    readonly method: string;
    readonly url: string;
    readonly httpVersion: string;
    readonly headers: readonly NameValue[];
    readonly queryString: readonly NameValue[];
    readonly cookies: readonly NameValue[];
    readonly headersSize: -1;
    readonly bodySize: number;
    readonly postData?: { readonly mimeType: string; readonly text: string };
  };
  readonly response: {
    readonly status: number;
    readonly statusText: string;
    readonly httpVersion: string;
    readonly headers: readonly NameValue[];
    readonly cookies: readonly NameValue[];
    readonly content: { readonly size: number; readonly mimeType: string; readonly text?: string };
    readonly redirectURL: string;
    readonly headersSize: -1;
    readonly bodySize: number;
  };
  readonly cache: Record<string, never>;
  readonly timings: { readonly send: number; readonly wait: number; readonly receive: number };
  readonly comment?: string;
}

const pairs = (headers: Readonly<Record<string, string>>): NameValue[] =>
  Object.entries(headers).map(([name, value]) => ({ name, value }));

const byteLength = (text: string) => new TextEncoder().encode(text).byteLength;

function entryOf(exchange: HarExchange): HarEntry {
  const url = new URL(exchange.url);
  const requestType = exchange.requestHeaders['content-type'] ?? '';
  const responseText = exchange.responseBody;
  const responseSize = exchange.responseBytes ?? (responseText === undefined ? 0 : byteLength(responseText));
  return {
    startedDateTime: new Date(exchange.startedMs).toISOString(),
    time: exchange.timeMs,
    request: {
      method: exchange.method,
      url: url.href,
      httpVersion: 'HTTP/1.1',
      headers: pairs(exchange.requestHeaders),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      cookies: [],
      headersSize: -1,
      bodySize: exchange.requestBody === undefined ? 0 : byteLength(exchange.requestBody),
      ...(exchange.requestBody === undefined
        ? {}
        : { postData: { mimeType: requestType, text: exchange.requestBody } }),
    },
    response: {
      status: exchange.status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      headers: pairs(exchange.responseHeaders),
      cookies: [],
      content: {
        size: responseSize,
        mimeType: exchange.responseHeaders['content-type'] ?? '',
        ...(responseText === undefined ? {} : { text: responseText }),
      },
      redirectURL: exchange.responseHeaders.location ?? '',
      headersSize: -1,
      bodySize: responseSize,
    },
    cache: {},
    timings: { send: 0, wait: exchange.timeMs, receive: 0 },
    ...(exchange.comment === undefined ? {} : { comment: exchange.comment }),
  };
}

/** A HAR 1.2 log of the exchanges, in the order given. */
export function buildHar(
  exchanges: Iterable<HarExchange>,
  creator: { name: string; version: string } = { name: 'petkit', version: '0' },
): HarLog {
  return { log: { version: '1.2', creator, entries: [...exchanges].map(entryOf) } };
}

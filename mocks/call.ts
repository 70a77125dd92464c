// What the core reads of a request: method, URL, headers, a body it can read up to a cap, and the
// client's address. Each adapter makes one from what its runtime has: a Web Request (MSW,
// mock.request) or node's IncomingMessage (the server), without building a Request there.
import {
  CONTINUE,
  expectationReply,
  headerTooLargeReply,
  MAX_HEADER_BYTES,
  MAX_HEADER_LINES,
  NO_EXPECTATION,
  tooManyHeaderLinesReply,
} from './request-head.js';
import type { Reply } from './responses.js';

export interface BodySource {
  /** Whether the request carries a body at all (a declared length, or chunked). */
  readonly present: boolean;
  /** The body's bytes; undefined as soon as more than `limit` bytes arrive (reading stops there). */
  read(limit: number): Promise<Uint8Array | undefined>;
}

/** The body stopped before its end: the client went away or broke its framing. Not a server fault. */
export class BodyAbortedError extends Error {
  override readonly name = 'BodyAbortedError';
}

export interface RequestTarget {
  readonly pathname: string;
  /** `?…`, or '' when there is no query. */
  readonly search: string;
  readonly searchParams: URLSearchParams;
}

/**
 * A request target from an origin-form string (`/v1/pets?limit=2`), split by hand: a full URL parse
 * was the largest single cost of the node adapter. The path is taken as sent (no dot-segment
 * resolution), so `/v1/./pets` is no route, as a strict server would have it. The query is parsed
 * only when read (a class, not an object literal with a getter: that builds a closure per request).
 */
class OriginFormTarget implements RequestTarget {
  readonly pathname: string;
  readonly search: string;
  /** The target as sent, path and query. */
  readonly target: string;
  #params: URLSearchParams | undefined;
  constructor(target: string, pathname: string, search: string) {
    this.target = target;
    this.pathname = pathname;
    this.search = search;
  }
  get searchParams(): URLSearchParams {
    this.#params ??= new URLSearchParams(this.search);
    return this.#params;
  }
}

export function targetOf(target: string): RequestTarget {
  const mark = target.indexOf('?');
  if (mark < 0) return new OriginFormTarget(target, target, '');
  if (mark === target.length - 1)
    return new OriginFormTarget(target.slice(0, mark), target.slice(0, mark), '');
  return new OriginFormTarget(target, target.slice(0, mark), target.slice(mark));
}

/**
 * Path and query: the target as sent when it came as one (not put together again: a string joined
 * per request is copied flat again when the journal reads it character by character).
 */
export function targetText(url: RequestTarget): string {
  return url instanceof OriginFormTarget ? url.target : url.pathname + url.search;
}

export interface MockCall {
  readonly method: string;
  /** The request target: a URL, or anything with its path, query string and parsed query. */
  readonly url: RequestTarget;
  /** A header's value by its lower-case name, null when absent. */
  header(name: string): string | null;
  /** Every header as sent, names and values alternating (as Node's `rawHeaders`), for the journal. */
  rawHeaders(): readonly string[];
  readonly body: BodySource;
  readonly clientAddress: string | undefined;
  /**
   * Calls `listener` once if the client goes before its answer (its socket closed, its fetch
   * aborted); answers how to stop listening. Asked only by an answer that waits (a delay).
   */
  gone?(listener: () => void): () => void;
}

async function readStreamCapped(
  body: ReadableStream<Uint8Array>,
  limit: number,
): Promise<Uint8Array | undefined> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      // Not awaited: a stream tee'd upstream (MSW's interceptor keeps a branch of the request) settles
      // its cancel only once every branch is cancelled, so waiting for it held the answer for ever.
      reader.cancel('payload too large').catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return concat(chunks, total);
}

export function concat(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1 && chunks[0] !== undefined) return chunks[0];
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * What the server answers before the core, for a Web Request: its 431 over its limits, counted as
 * Node's parser counts them (the target's bytes, and each header's name and value; not the method,
 * separators or line ends; a Web Request joins a field sent twice, so its fields are counted, not its
 * lines), and its 417 for an `Expect` it does not serve (a test's `Expect: foo` was served 200 in
 * process). Undefined: the core answers it.
 */
export function refusedHead(request: Request): Reply | undefined {
  const { url } = request;
  // The origin is no part of the request target the server reads: only the path and query count.
  const scheme = url.indexOf('://');
  const path = scheme === -1 ? 0 : url.indexOf('/', scheme + 3);
  let size = path === -1 ? 1 : url.length - path - fragmentLength(url);
  if (size > MAX_HEADER_BYTES) return headerTooLarge();
  let fields = 0;
  for (const [name, value] of request.headers) {
    size += name.length + value.length;
    fields += 1;
  }
  if (size > MAX_HEADER_BYTES) return headerTooLarge();
  if (fields > MAX_HEADER_LINES) return tooManyHeaderLinesReply({});
  const expect = request.headers.get('expect');
  if (expect !== null && !CONTINUE.test(expect) && !NO_EXPECTATION.test(expect))
    return expectationReply(expect, {});
  return undefined;
}

/** A URL's `#…`, which a Request keeps and fetch never sends. */
function fragmentLength(url: string): number {
  const hash = url.indexOf('#');
  return hash === -1 ? 0 : url.length - hash;
}

/**
 * The server's answer, before the core: a runaway or hostile caller handed the core a request target
 * or header of many megabytes, which the journal, the log and every check then read. (No
 * `Connection: close`: that is the socket's, and there is no connection here.)
 */
const headerTooLarge = (): Reply => headerTooLargeReply(MAX_HEADER_BYTES);

/** A call over a Web Request (MSW's handlers, mock.handle, mock.request). */
export function callFromRequest(request: Request, clientAddress?: string): MockCall {
  // As fetch refuses it: its body read already was answered 400 malformed_json, "its stream failed",
  // which blamed the mock or the body for what the test had done to the Request.
  if (request.bodyUsed)
    throw new TypeError(
      `The Request to ${request.method} ${new URL(request.url).pathname} has had its body read already; a body is read once: send a new Request, or read a clone (request.clone()).`,
    );
  return {
    method: request.method,
    url: new URL(request.url),
    header: (name) => request.headers.get(name),
    rawHeaders: () => [...request.headers].flat(),
    clientAddress,
    gone(listener) {
      const { signal } = request;
      if (signal.aborted) {
        listener();
        return () => undefined;
      }
      signal.addEventListener('abort', listener, { once: true });
      return () => signal.removeEventListener('abort', listener);
    },
    body: {
      present: request.body !== null,
      read: (limit) => untilAborted(request.signal, readBody(request, limit)),
    },
  };
}

async function readBody(request: Request, limit: number): Promise<Uint8Array | undefined> {
  if (request.body === null) return new Uint8Array(0);
  // A declared length within the cap is read whole (cheaper than a reader); anything else
  // through a reader that stops at the cap.
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (Number.isInteger(declared) && declared <= limit) {
    const bytes = new Uint8Array(await request.arrayBuffer());
    return bytes.byteLength > limit ? undefined : bytes;
  }
  return readStreamCapped(request.body, limit);
}

/**
 * The body's read, ended by the request's abort: a body stream that stopped sending without ending
 * held the answer for ever after the app gave up on it (mock.request never settled; under MSW the
 * app's fetch rejected, and the mock kept the request in flight, unjournaled, for good).
 */
function untilAborted<T>(signal: AbortSignal, reading: Promise<T>): Promise<T> {
  if (signal.aborted) {
    reading.catch(() => undefined);
    return Promise.reject(new BodyAbortedError('The request was aborted before its body ended.'));
  }
  return new Promise<T>((resolve, reject) => {
    const aborted = () => reject(new BodyAbortedError('The request was aborted before its body ended.'));
    signal.addEventListener('abort', aborted, { once: true });
    reading.then(resolve, reject).finally(() => signal.removeEventListener('abort', aborted));
  });
}

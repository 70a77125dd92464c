// What the mock refuses of a request's head before the core, one rule for its three doors: the size
// of the head and the `Expect` it serves. The server holds a request to them (its parser and
// node-server.ts; client-error.ts answers), and a Web Request is held to them in process (call.ts's
// `refusedHead`: mock.request, mock.handle, MSW). Browser-safe.
import { errorReply, type Reply } from './responses.js';

/** Node's default `maxHeaderSize`: the request target and the headers' names and values, in bytes. */
export const MAX_HEADER_BYTES = 16_384;

/**
 * The most header lines a request may have. Node reads 1,000 by default and drops the rest without a
 * word (a key sent after them was read as missing); the server reads one more, to tell that some came.
 */
export const MAX_HEADER_LINES = 1_000;

/**
 * A request over `bytes` of request line and headers (RFC 6585 §5). `headers`: the socket's own
 * (`Connection: close`); none in process, where there is no connection.
 */
export const headerTooLargeReply = (bytes: number, headers?: Record<string, string>): Reply =>
  errorReply(
    'request_header_too_large',
    `The request line and headers are larger than ${bytes} bytes.`,
    undefined,
    headers,
  );

/** A request with more than MAX_HEADER_LINES header lines (RFC 6585 §5: the fields as a whole too large). */
export const tooManyHeaderLinesReply = (headers: Record<string, string> = CLOSE): Reply =>
  errorReply(
    'request_header_too_large',
    `The request has more than ${MAX_HEADER_LINES} header lines.`,
    undefined,
    headers,
  );

const CLOSE = { connection: 'close' } as const;

/** An `Expect` the mock serves: `100-continue`, or one that asks for nothing (RFC 9110 §10.1.1). */
export const CONTINUE = /^[ \t]*100-continue[ \t]*$/i;
export const NO_EXPECTATION = /^[ \t,]*$/;

/** An `Expect` other than `100-continue` (RFC 9110 §10.1.1): 417. `headers` as for headerTooLargeReply. */
export function expectationReply(expect: string, headers: Record<string, string> = CLOSE): Reply {
  const shown = expect.length > 64 ? `${expect.slice(0, 64)}…` : expect;
  return errorReply(
    'expectation_failed',
    `Expect: ${JSON.stringify(shown)} is not supported; only "100-continue" is.`,
    undefined,
    headers,
  );
}

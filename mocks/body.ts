// Reads a JSON request body: the media type first, then at most MAX_BODY_BYTES through the call's
// BodySource (a declared Content-Length over the cap is refused unread; the adapter's reader stops
// the moment a body passes the cap), then strict UTF-8 and JSON.parse.

import { MAX_BODY_BYTES, quoteValue } from '../openapi/index.js';
import type { MockCall } from './call.js';
import type { ErrorCode } from './errors.js';

/** Strict UTF-8: a body that is not is malformed, not silently mended. Stateless, so shared. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Why a body cannot be read: its Error code and, where the default says too little, a message. */
export interface BodyRefusal {
  readonly code: ErrorCode;
  readonly message?: string;
}

/**
 * The parsed body and its text as sent (whose numbers JSON.parse has not yet rounded), or why it is
 * refused; either way the bytes read, when it was read (the journal keeps them).
 */
export type BodyResult =
  | { readonly value: unknown; readonly text: string; readonly bytes: Uint8Array }
  | { readonly refusal: BodyRefusal; readonly bytes?: Uint8Array };

const refuse = (code: ErrorCode, message?: string, bytes?: Uint8Array): BodyResult => ({
  refusal: message === undefined ? { code } : { code, message },
  ...(bytes === undefined ? {} : { bytes }),
});

/** `application/json`, any case, parameters such as `charset=utf-8` allowed. */
export function isJsonMediaType(contentType: string): boolean {
  const semicolon = contentType.indexOf(';');
  const essence = (semicolon < 0 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
  return essence === 'application/json';
}

/** A Transfer-Encoding whose codings are all `chunked` (node's framing, taken off) or `identity` (none). */
function chunkedOnly(transfer: string): boolean {
  return transfer.split(',').every((coding) => {
    const name = coding.trim().toLowerCase();
    return name === 'chunked' || name === 'identity';
  });
}

export async function readJsonBody(call: MockCall): Promise<BodyResult> {
  const contentType = call.header('content-type');
  if (contentType === null && !call.body.present) {
    return refuse('malformed_json', 'The body is empty; send a JSON object.');
  }
  if (contentType === null || !isJsonMediaType(contentType)) {
    const sent = contentType === null ? 'no Content-Type' : `Content-Type ${quoteValue(contentType)}`;
    return refuse('unsupported_media_type', `The body must be application/json; this request sent ${sent}.`);
  }
  // A body in a content coding (gzip, br) is not JSON as sent: gzip was read as bytes that are not
  // UTF-8, and a plain body labelled br was taken. RFC 9110 §15.5.16 lets a server refuse it, 415.
  // Quoted as sent: lower-cased, a key of the keys file in it was no longer found by the journal's mask.
  const encoding = call.header('content-encoding')?.trim();
  if (encoding !== undefined && encoding !== '' && encoding.toLowerCase() !== 'identity')
    return refuse(
      'unsupported_media_type',
      `The body must be sent as it is; this request sent Content-Encoding ${quoteValue(encoding)}, which the mock does not decode.`,
    );
  // The same of a transfer coding: node takes off the chunks and leaves any other on (gzip, chunked:
  // the gzip bytes were read as "not valid UTF-8"; a plain body labelled deflate was stored).
  const transfer = call.header('transfer-encoding');
  if (transfer !== null && transfer !== 'chunked' && !chunkedOnly(transfer))
    return refuse(
      'unsupported_media_type',
      `The body must be sent as it is; this request sent Transfer-Encoding ${quoteValue(transfer)}, which the mock does not decode.`,
    );
  const declared = Number(call.header('content-length') ?? 0);
  if (declared > MAX_BODY_BYTES) return refuse('payload_too_large');
  let bytes: Uint8Array | undefined;
  try {
    bytes = await call.body.read(MAX_BODY_BYTES);
  } catch {
    // The request's stream failed before its end (a client that went away, a stream that errored):
    // what came is not a whole JSON text. Its error's words are the client's own, not repeated.
    return refuse('malformed_json', 'The body could not be read to its end: its stream failed.');
  }
  if (bytes === undefined) return refuse('payload_too_large');
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return refuse('malformed_json', 'The body is not valid UTF-8.', bytes);
  }
  try {
    return { value: JSON.parse(text), text, bytes };
  } catch (error) {
    if (text.trim() === '') return refuse('malformed_json', 'The body is empty; send a JSON object.', bytes);
    return refuse('malformed_json', `The body is not valid JSON: ${(error as Error).message}.`, bytes);
  }
}

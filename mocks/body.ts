// Reads a JSON request body: the media type first, then at most MAX_BODY_BYTES read from the stream
// (a declared Content-Length over the cap is refused unread; an undeclared one is cut off the moment
// it passes the cap and the stream cancelled), then strict UTF-8 and JSON.parse.
import { type ErrorCode, MAX_BODY_BYTES } from './errors.js';

export type BodyResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly code: ErrorCode; readonly message?: string };

/** `application/json`, any case, parameters such as `charset=utf-8` allowed. */
export function isJsonMediaType(contentType: string): boolean {
  const semicolon = contentType.indexOf(';');
  const essence = (semicolon < 0 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
  return essence === 'application/json';
}

async function readCapped(body: ReadableStream<Uint8Array>): Promise<Uint8Array | undefined> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_BODY_BYTES) {
      await reader.cancel('payload too large').catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  if (chunks.length === 1 && chunks[0] !== undefined) return chunks[0];
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

export async function readJsonBody(request: Request): Promise<BodyResult> {
  const contentType = request.headers.get('content-type');
  if (contentType === null && request.body === null) {
    return { ok: false, code: 'malformed_json', message: 'The body is empty; send a JSON object.' };
  }
  if (contentType === null || !isJsonMediaType(contentType)) {
    return { ok: false, code: 'unsupported_media_type' };
  }
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > MAX_BODY_BYTES) return { ok: false, code: 'payload_too_large' };
  const bytes = request.body === null ? new Uint8Array(0) : await readCapped(request.body);
  if (bytes === undefined) return { ok: false, code: 'payload_too_large' };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, code: 'malformed_json', message: 'The body is not valid UTF-8.' };
  }
  if (text.trim() === '')
    return { ok: false, code: 'malformed_json', message: 'The body is empty; send a JSON object.' };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return {
      ok: false,
      code: 'malformed_json',
      message: `The body is not valid JSON: ${(error as Error).message}.`,
    };
  }
}

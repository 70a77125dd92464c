// A copy of a body the proxy forwards, for checking: decoded from its Content-Encoding as it passes
// (zlib streams, off the main thread), and kept only up to a bound on the DECODED size, so a small
// body that decodes to gigabytes (a compression bomb) costs at most the bound: past it the decoder is
// destroyed and the copy dropped. The bytes forwarded are never touched here.

import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/** What the copy holds once the body has ended: its text, or why it cannot be checked. */
export type Captured = { readonly text: string } | { readonly unchecked: string };

export interface BodyCapture {
  /** A chunk of the body as it travels (encoded). */
  add(chunk: Buffer): void;
  /** The body has ended: the decoded text, or why there is none. */
  end(): Promise<Captured>;
  /** The body will not end (the exchange failed): frees the decoder. */
  abandon(): void;
}

const DECODERS: Readonly<Record<string, () => Transform>> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** Starts a copy of a body sent with `contentEncoding`, kept while it decodes to at most `limit` bytes. */
export function captureBody(contentEncoding: string | undefined, limit: number): BodyCapture {
  const coding = (contentEncoding ?? '').trim().toLowerCase();
  const chunks: Buffer[] = [];
  let size = 0;
  let unchecked: string | undefined;
  let decoder: Transform | undefined;
  let decoded: Promise<void> = Promise.resolve();
  /** Bytes in, as sent: the bound holds for them too, so a decoder's input queue stays bounded. */
  let received = 0;

  const stop = (reason: string) => {
    unchecked ??= reason;
    chunks.length = 0;
    decoder?.destroy();
  };
  const keep = (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) stop(`larger than ${limit} bytes`);
    else chunks.push(chunk);
  };

  if (coding !== '' && coding !== 'identity') {
    const make = DECODERS[coding];
    if (make === undefined) {
      unchecked = `Content-Encoding ${JSON.stringify(coding)} is not one it decodes`;
    } else {
      const stream = make();
      decoder = stream;
      decoded = new Promise<void>((resolve) => {
        stream.on('data', (chunk: Buffer) => {
          if (unchecked === undefined) keep(chunk);
        });
        stream.on('end', resolve);
        stream.on('close', resolve);
        stream.on('error', () => {
          stop(`not valid ${coding}`);
          resolve();
        });
      });
    }
  }
  return {
    add(chunk) {
      received += chunk.length;
      if (unchecked !== undefined) return;
      if (received > limit) stop(`larger than ${limit} bytes`);
      else if (decoder === undefined) keep(chunk);
      else decoder.write(chunk);
    },
    async end() {
      // No body (a HEAD's answer, a 204): nothing to decode, whatever its Content-Encoding says.
      if (received === 0 && unchecked === undefined) decoder?.destroy();
      if (received === 0) return { text: '' };
      if (unchecked === undefined) decoder?.end();
      await decoded;
      if (unchecked !== undefined) return { unchecked };
      return { text: Buffer.concat(chunks).toString('utf8') };
    },
    abandon() {
      stop('the exchange did not end');
    },
  };
}

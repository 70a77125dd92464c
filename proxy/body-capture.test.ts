import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { captureBody } from './body-capture.js';

const LIMIT = 1024;

/** Feeds `bytes` in chunks of `size`, as a socket would, and reads the copy. */
async function captured(encoding: string | undefined, bytes: Buffer, size = 100) {
  const capture = captureBody(encoding, LIMIT);
  for (let at = 0; at < bytes.length; at += size) capture.add(bytes.subarray(at, at + size));
  return capture.end();
}

describe('captureBody', () => {
  const text = JSON.stringify({ name: 'Rex', tags: 'x'.repeat(500) });
  it.each([
    ['identity', Buffer.from(text)],
    ['gzip', gzipSync(text)],
    ['X-Gzip', gzipSync(text)],
    ['deflate', deflateSync(text)],
    ['br', brotliCompressSync(text)],
  ])('decodes a %s body within the bound', async (encoding, bytes) => {
    expect(await captured(encoding, bytes)).toEqual({ text });
  });

  it('stops at the bound on the decoded size, however small the encoded body', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(LIMIT * 100);
    expect(await captured('gzip', bomb, 512)).toEqual({ unchecked: `larger than ${LIMIT} bytes` });
  });

  it('stops at the bound on the encoded size too', async () => {
    expect(await captured(undefined, Buffer.alloc(LIMIT + 1))).toEqual({
      unchecked: `larger than ${LIMIT} bytes`,
    });
  });

  it('says why it did not decode a body', async () => {
    expect(await captured('zstd', Buffer.from('abc'))).toEqual({
      unchecked: 'Content-Encoding "zstd" is not one it decodes',
    });
    expect(await captured('gzip', Buffer.from('not gzip at all'))).toEqual({ unchecked: 'not valid gzip' });
  });

  it('reads an empty body as empty, whatever its Content-Encoding', async () => {
    expect(await captured('gzip', Buffer.alloc(0))).toEqual({ text: '' });
  });
});

// One raw connection to the target (node:net, node:tls for https), for the few requests the suite
// sends past Node's fetch to see the bytes of the answers as they came (framing.ts reads them). Every
// read is bounded: bytes (a cap), time (the --timeout of each request), and the run's signal; a target
// that never ends its message, or streams for ever, costs one --timeout and no more memory than the cap.

import type { WireSocket } from './connect.js';
import { MAX_HEAD_BYTES, readResponse, type WireMemo, type WireNeed, type WireReading } from './framing.js';

/** What came for one request on the connection. */
export type WireAnswer =
  | (WireReading & { readonly kind: 'fault' | 'unjudged' })
  /** `raw`: the message's bytes as they came, interim responses before it included. */
  | (WireReading & { readonly kind: 'message'; readonly raw: Buffer })
  | { readonly kind: 'timeout'; readonly got: number }
  | { readonly kind: 'failed'; readonly message: string; readonly code?: string; readonly got: number };

export interface WireConnection {
  /** Writes a request (its bytes) and reads its answer, within `timeoutMs`. */
  exchange(request: string, method: string, timeoutMs: number): Promise<WireAnswer>;
  /** The bytes after the last message read, taken (read again, they are gone). */
  takeRest(): Buffer;
  /** Whether the target closed its side (or the connection failed). */
  ended(): boolean;
  /** Waits up to `timeoutMs` for the target to close: whether it did. */
  waitForClose(timeoutMs: number): Promise<boolean>;
  destroy(): void;
}

/**
 * A connection over `socket`, reading at most `cap` bytes (past it the socket is destroyed), given up
 * at once when `signal` aborts.
 */
export function openWire(socket: WireSocket, cap: number, signal: AbortSignal | undefined): WireConnection {
  let chunks: Buffer[] = [];
  let size = 0;
  let eof = false;
  let failure: (Error & { code?: unknown }) | undefined;
  let overflow = false;
  let wake: (() => void) | undefined;
  const poke = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  socket.on('data', (data: Uint8Array) => {
    const chunk = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    size += chunk.length;
    if (size > cap) {
      overflow = true;
      socket.destroy();
    } else chunks.push(chunk);
    poke();
  });
  socket.on('end', () => {
    eof = true;
    poke();
  });
  socket.on('close', () => {
    eof = true;
    poke();
  });
  socket.on('error', (cause: Error) => {
    failure ??= cause;
    eof = true;
    poke();
  });
  const onAbort = () => socket.destroy();
  signal?.addEventListener('abort', onAbort, { once: true });
  const bytes = () => {
    if (chunks.length > 1) chunks = [Buffer.concat(chunks)];
    return chunks[0] ?? Buffer.alloc(0);
  };
  /** Until something more happens, or `untilMs` (Date.now: a real socket's own time). */
  const next = (untilMs: number) =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(
        () => {
          wake = undefined;
          resolve(false);
        },
        Math.max(0, untilMs - Date.now()),
      );
      wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
  const keep = (rest: Buffer) => {
    chunks = rest.length === 0 ? [] : [Buffer.from(rest)];
    size = rest.length;
  };
  return {
    async exchange(request, method, timeoutMs) {
      const untilMs = Date.now() + timeoutMs;
      socket.write(request);
      const memo: WireMemo = {};
      /** What the last reading waited for, and how many bytes had come then. */
      let need: WireNeed | undefined;
      let seen = 0;
      for (;;) {
        if (signal?.aborted === true) return { kind: 'failed', message: 'stopped', got: size };
        if (overflow) return { kind: 'unjudged', reason: `its answer is over ${Math.round(cap / 1024)} KiB` };
        const got = bytes();
        if (failure !== undefined && got.length === 0)
          return {
            kind: 'failed',
            message: failure.message,
            ...(typeof failure.code === 'string' ? { code: failure.code } : {}),
            got: 0,
          };
        // Read again only when what the last reading waited for may have come: each byte is read a
        // bounded number of times, however the target trickles them.
        const ready =
          eof ||
          need === undefined ||
          got.length >= 2 * seen ||
          (typeof need === 'number'
            ? got.length >= need
            : need === 'line'
              ? got.includes(0x0a, seen)
              : need === 'blank' &&
                (got.includes('\n\r\n', Math.max(0, seen - 2)) ||
                  got.includes('\n\n', Math.max(0, seen - 1))));
        if (ready) {
          const reading = readResponse(got, method, eof, memo);
          if (reading.kind === 'message') {
            const raw = Buffer.from(got.subarray(0, reading.message.end));
            keep(got.subarray(reading.message.end));
            return { ...reading, raw };
          }
          if (reading.kind !== 'more') return reading;
          need = reading.need;
          seen = got.length;
          if (eof) return { kind: 'failed', message: 'the connection closed', got: got.length };
        }
        if (!(await next(untilMs))) return { kind: 'timeout', got: got.length };
      }
    },
    takeRest() {
      const rest = bytes();
      keep(Buffer.alloc(0));
      return rest;
    },
    ended: () => eof,
    async waitForClose(timeoutMs) {
      const untilMs = Date.now() + timeoutMs;
      while (!eof && !overflow && signal?.aborted !== true) if (!(await next(untilMs))) return false;
      return eof || overflow;
    },
    destroy() {
      signal?.removeEventListener('abort', onAbort);
      socket.destroy();
    },
  };
}

/** The cap of one connection's bytes: a whole body the suite would read, and a head. */
export const wireCap = (maxBody: number): number => maxBody + 2 * MAX_HEAD_BYTES;

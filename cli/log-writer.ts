// `petkit mock`'s log on stdout: one line per request, `<ISO time> <line>`, written into a batch that
// is written at once when the mock is not busy, and at most every LOG_FLUSH_MS when it is: each write
// of a batch costs the same whatever it holds (a system call, node's stream machinery), and written
// once per turn of the event loop, a handful of lines each under load, it was 3 % of an answer's CPU
// (docs/performance.md). A line's text is encoded into the batch (a property test holds the bytes equal
// to the text, any character).
import type { Logger } from '../mocks/options.js';
import { writeUtf8 } from '../mocks/utf8.js';
/** Bytes a batch holds; a line that would overflow it has the batch written first. */
export const LOG_BATCH_BYTES = 64 * 1024;
/**
 * A batch is written at the end of the turn of the event loop its first line came in, unless the last
 * was written less than this long ago: then this long after it. A line is on stdout at most this long
 * after its request was answered, at once when requests come slower than that.
 */
export const LOG_FLUSH_MS = 100;

export interface LogStream {
  write(chunk: Uint8Array | string): unknown;
}

/** What the room for a line counts besides its text's characters (3 bytes each at most): a space, a newline. */
const LINE_EXTRA_BYTES = 2;

/** When a batch is written: at the end of this turn of the event loop, or `ms` from now. */
export interface LogSchedule {
  soon(task: () => void): void;
  after(task: () => void, ms: number): void;
}

/** Node's: the end of the turn (setImmediate), or a timer that does not keep the process alive. */
const NODE_SCHEDULE: LogSchedule = {
  soon: (task) => void setImmediate(task),
  after: (task, ms) => void setTimeout(task, ms).unref(),
};

export interface BatchedLog extends Pick<Logger, 'info'> {
  /** Writes the lines waiting now (before the mock writes anything else to the stream, and before it exits). */
  flush(): void;
}

/**
 * The log's lines, in order, to `stream`. `now` is the real clock (a line says when
 * it was written, and the batches are timed by it).
 */
export function batchedLog(
  stream: LogStream,
  now: () => number = Date.now,
  schedule: LogSchedule = NODE_SCHEDULE,
): BatchedLog {
  const buffer = new Uint8Array(LOG_BATCH_BYTES);
  let used = 0;
  let scheduled = false;
  let flushedAt = Number.NEGATIVE_INFINITY;
  // The time is formatted once per millisecond, not once per line.
  let stampedAt = Number.NaN;
  let stamp = '';

  const flush = () => {
    if (used === 0) return;
    flushedAt = now();
    // A copy: a stream may hold what it was given to write later (a full pipe), and the next batch
    // is written over this one.
    const bytes = buffer.slice(0, used);
    used = 0;
    stream.write(bytes);
  };

  /** The scheduled write: one waits at a time, whatever wrote a batch in between (a full one, the stop). */
  const flushLater = () => {
    scheduled = false;
    flush();
  };

  /** Room for a line of `chars` characters of text; false: none even in an empty batch. */
  const room = (chars: number): boolean => {
    const stampNow = now();
    if (stampNow !== stampedAt) {
      stampedAt = stampNow;
      stamp = new Date(stampNow).toISOString();
    }
    const most = stamp.length + 3 * chars + LINE_EXTRA_BYTES;
    if (used + most > LOG_BATCH_BYTES) flush();
    if (most > LOG_BATCH_BYTES) return false;
    if (!scheduled) {
      scheduled = true;
      const wait = flushedAt + LOG_FLUSH_MS - stampNow;
      if (wait > 0) schedule.after(flushLater, wait);
      else schedule.soon(flushLater);
    }
    return true;
  };

  return {
    flush,
    info(line) {
      if (!room(line.length)) {
        stream.write(`${stamp} ${line}\n`);
        return;
      }
      used = writeUtf8(stamp, buffer, used);
      buffer[used] = SPACE;
      used = writeUtf8(line, buffer, used + 1);
      buffer[used] = NEWLINE;
      used += 1;
    },
  };
}

const SPACE = 0x20;
const NEWLINE = 0x0a;

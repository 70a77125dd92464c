// What is kept of each API call once answered: its journal entry, its log line, and the listeners
// told of it (a HAR writer, the page's live view). Never the key: the journal shows its label.
import { type MockCall, targetText } from './call.js';
import type { NetworkFault } from './control-types.js';
import type { Journal, JournalEntry } from './journal.js';
import type { ResolvedKey } from './keys.js';
import { type Logger, silentLogger } from './options.js';
import type { Reply } from './responses.js';

/** What answering one API call decided, as the journal keeps it. */
export interface Answer {
  readonly reply: Reply;
  readonly operationId: string | null;
  /** The wait before the answer: a rule's `delayMs`, `Prefer: delay=`; undefined: the mock's latency. */
  readonly delay: number | undefined;
  /** The valid key the call carried (the journal names it), if any. */
  readonly key?: ResolvedKey | undefined;
  /** The id of the rule that answered, if one did. */
  readonly rule?: string | undefined;
}

export interface Recorder {
  /**
   * Journals the call and logs its line. `now` is the mock's time when it arrived (the entry's
   * `time`), `started` the real time then (its duration is real time).
   */
  record(
    call: MockCall,
    answered: Answer,
    now: number,
    started: number,
    delayMs: number,
    requestBody: Uint8Array | undefined,
  ): void;
  /** Calls `listener` with each entry as it is recorded; answers how to stop. */
  observe(listener: (entry: JournalEntry) => void): () => void;
}

export function createRecorder(c: {
  journal: Journal;
  logger: Logger;
  real: () => number;
  /** Hides the keys of a keys file in the log line's path (keyMasker). */
  mask?: ((text: string) => string) | undefined;
}): Recorder {
  const { journal, logger, real, mask } = c;
  const logging = logger !== silentLogger;
  const observers = new Set<(entry: JournalEntry) => void>();
  return {
    record(call, answered, now, started, delayMs, requestBody) {
      const { reply } = answered;
      const kept = journal.record(
        {
          time: now,
          method: call.method,
          target: targetText(call.url),
          operationId: answered.operationId,
          key: answered.key,
          requestHeaders: call.rawHeaders(),
          requestBody,
          reply,
          delayMs,
          durationMs: real() - started,
          rule: answered.rule,
        },
        observers.size > 0,
      );
      if (observers.size > 0) {
        const entry = kept.entry();
        for (const listener of observers) listener(entry);
      }
      if (logging) logger.info(logLine(kept, reply.fault, answered.rule, mask));
    },
    observe(listener) {
      observers.add(listener);
      return () => observers.delete(listener);
    },
  };
}

/** `GET /v1/pets 429 rate_limited (rule r1) 3ms`, `GET /v1/pets 0 fault reset (rule r1) 3ms`. */
function logLine(
  kept: {
    method: string;
    path: string;
    status: number;
    code: string | null;
    forced: boolean;
    durationMs: number;
  },
  fault: NetworkFault | undefined,
  rule: string | undefined,
  mask: ((text: string) => string) | undefined,
): string {
  const { method, status, code, forced, durationMs } = kept;
  const path = mask === undefined ? kept.path : mask(kept.path);
  let why = code === null ? '' : ` ${code}`;
  if (fault !== undefined) why += ` fault ${fault}`;
  if (rule !== undefined) why += ` (rule ${rule})`;
  else if (forced) why += ' (forced)';
  return `${method} ${path} ${status}${why} ${durationMs}ms`;
}

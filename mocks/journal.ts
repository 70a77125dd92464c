// The request journal: the last JOURNAL_LIMIT API requests, oldest first, bounded so a long-running
// mock does not grow without end.
export const JOURNAL_LIMIT = 1000;

export interface JournalEntry {
  /** When the request arrived, by the mock's clock (ms). */
  readonly time: number;
  readonly method: string;
  /** Path and query, as sent. */
  readonly path: string;
  /** The operation of openapi.yaml it was routed to, or null. */
  readonly operationId: string | null;
  readonly status: number;
  /** By the mock's clock, including any latency. */
  readonly durationMs: number;
}

export interface Journal {
  record(entry: JournalEntry): void;
  entries(): JournalEntry[];
  clear(): void;
}

export function createJournal(limit = JOURNAL_LIMIT): Journal {
  const ring: JournalEntry[] = [];
  let start = 0;
  return {
    record(entry) {
      if (ring.length < limit) ring.push(entry);
      else {
        ring[start] = entry;
        start = (start + 1) % limit;
      }
    },
    entries: () => [...ring.slice(start), ...ring.slice(0, start)],
    clear() {
      ring.length = 0;
      start = 0;
    },
  };
}

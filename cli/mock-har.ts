// `petkit mock --har FILE`: every exchange the mock answers, kept as the journal records it (headers
// with Authorization redacted, bodies cut to the journal's bounds) and written as a HAR 1.2 file,
// which a browser's devtools open, when the mock stops. The HAR itself is the contract module's
// (openapi/har.ts); this file only checks at start that the file can be written, gathers entries and
// writes the file.
import { readFileSync } from 'node:fs';
import type { JournalEntry, Mock } from '../mocks/index.js';
import { buildHar, type HarExchange } from '../openapi/index.js';
import { writeWhole } from './write-whole.js';

/** Most exchanges a HAR file keeps (the latest); a long session drops its oldest beyond it. */
export const HAR_LIMIT = 10_000;

export interface HarRecorder {
  /** Exchanges kept, and how many older ones were dropped. */
  readonly count: number;
  readonly dropped: number;
  /** Writes the file (whole, by rename) and stops recording. */
  write(): Promise<void>;
}

/** petkit's version, from its package.json (0 when it cannot be read). */
export function petkitVersion(): string {
  try {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version?: unknown;
    };
    return typeof manifest.version === 'string' ? manifest.version : '0';
  } catch {
    return '0';
  }
}

export function exchangeOf(entry: JournalEntry, origin: string): HarExchange {
  return {
    startedMs: entry.time,
    method: entry.method,
    url: origin + entry.path,
    requestHeaders: entry.request.headers,
    requestBody: entry.request.body?.text,
    status: entry.status,
    responseHeaders: entry.response.headers,
    responseBody: entry.response.body?.text,
    responseBytes: entry.response.body?.bytes,
    timeMs: entry.durationMs,
    comment: commentOf(entry),
  };
}

/**
 * What the HAR's fields cannot say: the network fault a rule answered with (its status is 0, as
 * browsers record a failed request, except a truncated answer's), and the fields cut short.
 */
function commentOf(entry: JournalEntry): string | undefined {
  const notes: string[] = [];
  if (entry.fault !== null) notes.push(`Network fault ${entry.fault}, by rule ${entry.rule ?? '?'}.`);
  if (entry.truncated.length > 0)
    notes.push(`Cut to the mock journal's bounds: ${entry.truncated.join(', ')}.`);
  return notes.length === 0 ? undefined : notes.join(' ');
}

export function recordHar(mock: Mock, origin: string, file: string, limit = HAR_LIMIT): HarRecorder {
  let entries: JournalEntry[] = [];
  let dropped = 0;
  const stop = mock.observe((entry) => {
    entries.push(entry);
    if (entries.length > limit * 2) {
      dropped += entries.length - limit;
      entries = entries.slice(-limit);
    }
  });
  return {
    get count() {
      return Math.min(entries.length, limit);
    },
    get dropped() {
      return dropped + Math.max(0, entries.length - limit);
    },
    async write() {
      stop();
      const har = buildHar(
        entries.slice(-limit).map((entry) => exchangeOf(entry, origin)),
        { name: 'petkit mock', version: petkitVersion() },
      );
      writeWhole(file, `${JSON.stringify(har, null, 2)}\n`);
    },
  };
}

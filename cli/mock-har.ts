// `petkit mock --har FILE`: every exchange the mock answers, kept as the journal records it (headers
// with Authorization redacted, bodies cut to the journal's bounds) and written as a HAR 1.2 file,
// which a browser's devtools open, when the mock stops. The HAR itself is the contract module's
// (openapi/har.ts); this file only checks at start that the file can be written, gathers entries and
// writes the file.
import { closeSync, constants, openSync, readFileSync, rmSync, type Stats, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { JournalEntry, Mock } from '../mocks/index.js';
import { notAFile } from '../mocks/read-bounded-file.js';
import { buildHar, type HarExchange } from '../openapi/index.js';
import { partialOf, writeWhole } from './write-whole.js';

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

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error);

/** The stats of `path`, undefined when nothing is there, or the error. */
function statOf(path: string): Stats | undefined | { error: unknown } {
  try {
    return statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? undefined : { error };
  }
}

/**
 * Why the HAR could not be written to `file` when the mock stops, in words, or undefined when it can:
 * checked at start, for a run's exchanges are lost when the write fails at its end. The folder must
 * exist and take a new file (one is created there and removed: on a read-only place, or as root
 * where permissions do not stop a write, only trying tells), and `file`, if it exists, must be a
 * regular file (the rename would replace a folder's entry or a device node).
 */
export function harFileFault(file: string): string | undefined {
  const target = statOf(file);
  if (target !== undefined && 'error' in target) return `cannot be reached (${codeOf(target.error)})`;
  if (target !== undefined) {
    const kind = notAFile(target);
    if (kind !== undefined) return `is ${kind}; give the path of a file to write`;
  }
  const folder = dirname(file);
  const parent = statOf(folder);
  if (parent === undefined) return `the folder ${folder} does not exist`;
  if ('error' in parent) return `the folder ${folder} cannot be reached (${codeOf(parent.error)})`;
  if (!parent.isDirectory()) return `${folder} is not a folder`;
  const probe = partialOf(file);
  try {
    // A name of its own, created only if nothing is there (O_EXCL: a planted link is not followed).
    const { O_WRONLY, O_CREAT, O_EXCL } = constants;
    closeSync(openSync(probe, O_WRONLY | O_CREAT | O_EXCL));
    rmSync(probe, { force: true });
  } catch (error) {
    return `cannot create a file in ${folder} (${codeOf(error)})`;
  }
  return undefined;
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

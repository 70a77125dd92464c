// The request journal: the last API requests, oldest first, bounded in entries and in bytes so a
// long-running mock (or a client sending long paths and bodies) cannot make it grow without end.
// Long paths, header values and bodies are cut, and the entry says which fields were (`truncated`).
// Queried a page at a time (journal-query.ts), so one read of it is bounded too.
import { keyLabel } from './key-label.js';
import type { Reply } from './responses.js';

/** Most entries kept. */
export const JOURNAL_LIMIT = 1000;
/** Most bytes kept, by the entries' own estimate of their size; the oldest go first. */
export const JOURNAL_MAX_BYTES = 2 * 1024 * 1024;
/** Longest path and query kept (characters). */
export const PATH_LIMIT = 1024;
/** Longest body excerpt kept (bytes of the body, as text). */
export const BODY_EXCERPT_LIMIT = 1024;
/** Longest header value kept, and most headers kept per request. */
export const HEADER_VALUE_LIMIT = 256;
export const HEADERS_LIMIT = 32;

/** A body's first bytes, as text. */
export interface BodyExcerpt {
  readonly text: string;
  /** The whole body's size in bytes. */
  readonly bytes: number;
}

export interface JournalEntry {
  /** Its place in the journal, rising from 1: `?after=` pages from it. */
  readonly id: number;
  /** When the request arrived, by the mock's clock (ms). */
  readonly time: number;
  readonly method: string;
  /** Path and query, as sent (cut at PATH_LIMIT). */
  readonly path: string;
  /** The operation of openapi.yaml it was routed to, or null. */
  readonly operationId: string | null;
  readonly status: number;
  /** The Error body's code, or null for an answer that is not an Error. */
  readonly code: string | null;
  /** Answered as `Prefer: code=` asked. */
  readonly forced: boolean;
  /** The wait added before the answer (`Prefer: delay=` or the latency option), ms. */
  readonly delayMs: number;
  /** By the mock's clock, including any delay. */
  readonly durationMs: number;
  /** The valid key it carried, by name and plan (never the key itself), or null. */
  readonly key: { readonly name: string; readonly plan: string } | null;
  readonly request: {
    /** Lower-case names; Authorization redacted to its scheme. */
    readonly headers: Readonly<Record<string, string>>;
    readonly body: BodyExcerpt | null;
  };
  readonly response: {
    readonly headers: Readonly<Record<string, string>>;
    readonly body: BodyExcerpt | null;
  };
  /** JSON Pointers of the fields cut short (`/path`, `/request/body`, `/request/headers/x-big`, …). */
  readonly truncated: readonly string[];
}

/** An entry as recorded, before it is numbered. */
export type NewJournalEntry = Omit<JournalEntry, 'id'>;

export interface Journal {
  /** Keeps the entry, numbered; answers it. */
  record(entry: NewJournalEntry): JournalEntry;
  /** All entries kept, oldest first. */
  entries(): JournalEntry[];
  /** How many entries were pushed out by the bounds since the last clear. */
  readonly dropped: number;
  /** Empties it; answers how many entries it held. */
  clear(): number;
}

export function createJournal(limit = JOURNAL_LIMIT, maxBytes = JOURNAL_MAX_BYTES): Journal {
  let queue: { entry: JournalEntry; bytes: number }[] = [];
  let head = 0;
  let bytes = 0;
  let nextId = 1;
  let dropped = 0;
  return {
    record(entry) {
      const size = sizeOf(entry);
      const numbered = { id: nextId, ...entry };
      queue.push({ entry: numbered, bytes: size });
      nextId += 1;
      bytes += size;
      while (queue.length - head > limit || (bytes > maxBytes && queue.length - head > 1)) {
        bytes -= queue[head]?.bytes ?? 0;
        head += 1;
        dropped += 1;
      }
      // Compact once the dropped front outgrows what is kept.
      if (head > limit) {
        queue = queue.slice(head);
        head = 0;
      }
      return numbered;
    },
    entries: () => queue.slice(head).map((kept) => kept.entry),
    get dropped() {
      return dropped;
    },
    clear() {
      const held = queue.length - head;
      queue = [];
      head = 0;
      bytes = 0;
      dropped = 0;
      return held;
    },
  };
}

/** A fair estimate of an entry's size as JSON: its strings, plus room for the rest. */
function sizeOf(entry: NewJournalEntry): number {
  let size = 400 + entry.path.length;
  for (const part of [entry.request, entry.response]) {
    for (const [name, value] of Object.entries(part.headers)) size += name.length + value.length + 6;
    size += part.body?.text.length ?? 0;
  }
  return size;
}

/** Cuts `text` at `limit` characters, noting `pointer` in `truncated` when it does. */
export function cut(text: string, limit: number, pointer: string, truncated: string[]): string {
  if (text.length <= limit) return text;
  truncated.push(pointer);
  return `${text.slice(0, limit)}…`;
}

/** The first BODY_EXCERPT_LIMIT bytes of a body, as text (invalid UTF-8 replaced). */
export function excerptOf(
  body: string | Uint8Array | null | undefined,
  pointer: string,
  truncated: string[],
): BodyExcerpt | null {
  if (body === null || body === undefined) return null;
  if (typeof body === 'string') {
    const text = cut(body, BODY_EXCERPT_LIMIT, pointer, truncated);
    return { text, bytes: utf8Length(body) };
  }
  if (body.byteLength === 0) return null;
  const shown = body.byteLength > BODY_EXCERPT_LIMIT ? body.subarray(0, BODY_EXCERPT_LIMIT) : body;
  if (shown !== body) truncated.push(pointer);
  const text = new TextDecoder().decode(shown);
  return { text: shown === body ? text : `${text}…`, bytes: body.byteLength };
}

/** A string's length in UTF-8 bytes, without encoding it. */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code >= 0x80) bytes += code >= 0x800 && (code < 0xd800 || code > 0xdfff) ? 2 : 1;
  }
  return bytes;
}

/** Headers as kept: at most HEADERS_LIMIT, values cut, Authorization reduced to its scheme. */
export function headersOf(
  entries: Iterable<readonly [string, string]>,
  pointer: string,
  truncated: string[],
): Record<string, string> {
  const kept: Record<string, string> = {};
  let count = 0;
  for (const [rawName, value] of entries) {
    const name = rawName.toLowerCase();
    if (count === HEADERS_LIMIT) {
      truncated.push(pointer);
      break;
    }
    count += 1;
    kept[name] =
      name === 'authorization' || name === 'proxy-authorization' || name === 'cookie'
        ? redacted(value)
        : cut(
            value,
            HEADER_VALUE_LIMIT,
            `${pointer}/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`,
            truncated,
          );
  }
  return kept;
}

/** `Bearer demo-free` → `Bearer [redacted]`: the scheme is kept, what follows never. */
function redacted(value: string): string {
  const scheme = /^[A-Za-z][A-Za-z0-9._~+/-]{0,20}(?= )/.exec(value.trim());
  return scheme === null ? '[redacted]' : `${scheme[0]} [redacted]`;
}

/** One exchange as the core saw it, before it is cut down to an entry. */
export interface Exchange {
  readonly time: number;
  readonly method: string;
  /** Path and query. */
  readonly target: string;
  readonly operationId: string | null;
  readonly key: { readonly key: string; readonly plan: string } | undefined;
  readonly requestHeaders: Iterable<readonly [string, string]>;
  /** The body's bytes as far as the core read them; undefined when it read none. */
  readonly requestBody: Uint8Array | undefined;
  readonly reply: Reply;
  readonly delayMs: number;
  readonly durationMs: number;
}

const ERROR_CODE = /^\{"code":"([a-z_]{1,40})"/;

/** The entry an exchange is kept as: cut to the journal's bounds, the key named and never shown. */
export function entryOf(exchange: Exchange): NewJournalEntry {
  const truncated: string[] = [];
  const { reply } = exchange;
  const body = reply.body;
  const code = reply.status >= 400 && typeof body === 'string' ? (ERROR_CODE.exec(body)?.[1] ?? null) : null;
  return {
    time: exchange.time,
    method: cut(exchange.method, 32, '/method', truncated),
    path: cut(exchange.target, PATH_LIMIT, '/path', truncated),
    operationId: exchange.operationId,
    status: reply.status,
    code,
    forced: reply.headers['preference-applied']?.includes('code=') === true,
    delayMs: exchange.delayMs,
    durationMs: exchange.durationMs,
    key: exchange.key === undefined ? null : { name: keyLabel(exchange.key.key), plan: exchange.key.plan },
    request: {
      headers: headersOf(exchange.requestHeaders, '/request/headers', truncated),
      body: excerptOf(exchange.requestBody, '/request/body', truncated),
    },
    response: {
      headers: headersOf(Object.entries(reply.headers), '/response/headers', truncated),
      body: excerptOf(body, '/response/body', truncated),
    },
    truncated,
  };
}

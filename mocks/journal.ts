// The request journal: the last API requests, oldest first, bounded in entries and in bytes so a
// long-running mock (or a client sending long paths and bodies) cannot make it grow without end.
// Long paths, header values and bodies are cut, and the entry says which fields were (`truncated`).
// Queried a page at a time (journal-query.ts), so one read of it is bounded too.
//
// Recording is on every request's path, reading is rare: a request is kept as it came (its header
// list, its body's first bytes), cut to the bounds and with its credentials redacted, and the entry a
// reader sees is built only when read. Building entries on the way (a header record per request,
// body excerpts decoded) cost more than the rest of the mock's answer together.
import type { NetworkFault } from './control-types.js';
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
/** Longest method kept (characters). */
const METHOD_LIMIT = 32;

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
  /** The id of the rule that answered it (`r1`), or null. */
  readonly rule: string | null;
  /** The network fault a rule answered with, or null. Its status is 0, except `truncated`'s. */
  readonly fault: NetworkFault | null;
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

/** One exchange as the core saw it, before it is cut down to the journal's bounds. */
export interface Exchange {
  readonly time: number;
  readonly method: string;
  /** Path and query. */
  readonly target: string;
  readonly operationId: string | null;
  readonly key: { readonly key: string; readonly plan: string } | undefined;
  /** The request's headers as sent: names and values alternating (as Node's `rawHeaders`). */
  readonly requestHeaders: readonly string[];
  /** The body's bytes as far as the core read them; undefined when it read none. */
  readonly requestBody: Uint8Array | undefined;
  readonly reply: Reply;
  readonly delayMs: number;
  readonly durationMs: number;
  /** The rule that answered, if one did. */
  readonly rule?: string | undefined;
}

/**
 * An exchange as the journal keeps it: what a filter or a log line reads, as fields; the rest cut
 * and redacted but not yet shaped, until entry() builds the entry a reader sees.
 */
export class JournalRecord {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly code: string | null;
  readonly forced: boolean;
  readonly rule: string | null;
  readonly fault: NetworkFault | null;
  readonly time: number;
  readonly durationMs: number;
  /** The journal's estimate of the entry's size as JSON. */
  readonly size: number;
  readonly #operationId: string | null;
  readonly #delayMs: number;
  readonly #key: Exchange['key'];
  /** As sent, names and values alternating; credentials are redacted as the entry is built. */
  readonly #requestHeaders: readonly string[];
  readonly #requestBody: BodyExcerpt | null;
  readonly #responseHeaders: readonly string[] | Readonly<Record<string, string>>;
  readonly #responseBody: BodyExcerpt | null;
  readonly #truncated: readonly string[];

  constructor(
    readonly id: number,
    exchange: Exchange,
  ) {
    const truncated: string[] = [];
    const { reply } = exchange;
    this.method = cut(exchange.method, METHOD_LIMIT, '/method', truncated);
    this.path = cut(exchange.target, PATH_LIMIT, '/path', truncated);
    this.status = reply.status;
    const body = reply.body;
    this.code = reply.status >= 400 && typeof body === 'string' ? (ERROR_CODE.exec(body)?.[1] ?? null) : null;
    this.forced = reply.headers['preference-applied']?.includes('code=') === true;
    this.rule = exchange.rule ?? null;
    this.fault = reply.fault ?? null;
    this.time = exchange.time;
    this.durationMs = exchange.durationMs;
    this.#operationId = exchange.operationId;
    this.#delayMs = exchange.delayMs;
    this.#key = exchange.key;
    this.#requestHeaders = keptHeaders(exchange.requestHeaders, '/request/headers', truncated);
    this.#requestBody = excerptOf(exchange.requestBody, '/request/body', truncated);
    this.#responseHeaders = keptReplyHeaders(reply.headers, truncated);
    this.#responseBody = replyExcerpt(body, truncated);
    this.#truncated = truncated.length === 0 ? NONE : truncated;
    this.size =
      400 +
      this.path.length +
      listSize(this.#requestHeaders) +
      (isList(this.#responseHeaders) ? listSize(this.#responseHeaders) : recordSize(this.#responseHeaders)) +
      (this.#requestBody?.text.length ?? 0) +
      (this.#responseBody?.text.length ?? 0);
  }

  /** The entry a reader sees. */
  entry(): JournalEntry {
    const key = this.#key;
    return {
      id: this.id,
      time: this.time,
      method: this.method,
      path: this.path,
      operationId: this.#operationId,
      status: this.status,
      code: this.code,
      forced: this.forced,
      rule: this.rule,
      fault: this.fault,
      delayMs: this.#delayMs,
      durationMs: this.durationMs,
      key: key === undefined ? null : { name: keyLabel(key.key), plan: key.plan },
      request: { headers: recordOf(this.#requestHeaders), body: copyOf(this.#requestBody) },
      response: { headers: recordOf(this.#responseHeaders), body: copyOf(this.#responseBody) },
      truncated: [...this.#truncated],
    };
  }
}

export interface Journal {
  /** Keeps the exchange, numbered and cut to the bounds; answers it as kept. */
  record(exchange: Exchange): JournalRecord;
  /** All records kept, oldest first. */
  records(): JournalRecord[];
  /** All entries kept, oldest first. */
  entries(): JournalEntry[];
  /** How many entries were pushed out by the bounds since the last clear. */
  readonly dropped: number;
  /** Empties it; answers how many entries it held. */
  clear(): number;
}

export function createJournal(limit = JOURNAL_LIMIT, maxBytes = JOURNAL_MAX_BYTES): Journal {
  let queue: JournalRecord[] = [];
  let head = 0;
  let bytes = 0;
  let nextId = 1;
  let dropped = 0;
  const records = () => queue.slice(head);
  return {
    record(exchange) {
      const kept = new JournalRecord(nextId, exchange);
      queue.push(kept);
      nextId += 1;
      bytes += kept.size;
      while (queue.length - head > limit || (bytes > maxBytes && queue.length - head > 1)) {
        bytes -= queue[head]?.size ?? 0;
        head += 1;
        dropped += 1;
      }
      // Compact once the dropped front outgrows what is kept.
      if (head > Math.max(limit, 64)) {
        queue = queue.slice(head);
        head = 0;
      }
      return kept;
    },
    records,
    entries: () => records().map((kept) => kept.entry()),
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

const NONE: readonly string[] = Object.freeze([]);
const copyOf = (body: BodyExcerpt | null): BodyExcerpt | null => (body === null ? null : { ...body });
const ERROR_CODE = /^\{"code":"([a-z_]{1,40})"/;

/** Cuts `text` at `limit` characters, noting `pointer` in `truncated` when it does. */
function cut(text: string, limit: number, pointer: string, truncated: string[]): string {
  if (text.length <= limit) return text;
  truncated.push(pointer);
  // A copy, so the whole text it was cut from is not held along with it.
  return JSON.parse(JSON.stringify(`${text.slice(0, limit)}…`)) as string;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** Room to encode a text into, grown to the longest text seen up to SCRATCH_MAX bytes. */
let scratch = new Uint8Array(4 * BODY_EXCERPT_LIMIT);
const SCRATCH_MAX = 1024 * 1024;

/** A body's first BODY_EXCERPT_LIMIT bytes as text (invalid UTF-8 replaced, `…` after a cut). */
function excerptOf(
  body: string | Uint8Array | null | undefined,
  pointer: string,
  truncated: string[],
): BodyExcerpt | null {
  if (body === null || body === undefined) return null;
  if (typeof body !== 'string') {
    if (body.byteLength === 0) return null;
    return shownBytes(body, body.byteLength, pointer, truncated);
  }
  // A text's size in UTF-8 bytes, encoded natively (a loop over its characters cost as much as
  // the answer of a list of 100 pets); a text too long is kept as its first bytes.
  const room = 3 * body.length;
  if (scratch.length < room && room <= SCRATCH_MAX) scratch = new Uint8Array(room);
  const into = scratch.length < room ? new Uint8Array(room) : scratch;
  const { written } = encoder.encodeInto(body, into);
  if (written <= BODY_EXCERPT_LIMIT) return { text: body, bytes: written };
  return shownBytes(into, written, pointer, truncated);
}

/**
 * Excerpts of reply bodies given as bytes, by the bytes: the store answers a list with the same
 * cached bytes until it changes, so a list answered a thousand times is decoded once and its entries
 * share one excerpt (a KiB of text per entry, copied by every young-generation collection while the
 * entry lives, cost a list answer about a sixth of its CPU under load). Held weakly: an excerpt goes
 * with its bytes.
 */
const replyExcerpts = new WeakMap<Uint8Array, { excerpt: BodyExcerpt | null; cut: boolean }>();

function replyExcerpt(body: Reply['body'], truncated: string[]): BodyExcerpt | null {
  if (body === null || typeof body === 'string') return excerptOf(body, '/response/body', truncated);
  let known = replyExcerpts.get(body);
  if (known === undefined) {
    const cuts: string[] = [];
    known = { excerpt: excerptOf(body, '/response/body', cuts), cut: cuts.length > 0 };
    replyExcerpts.set(body, known);
  }
  if (known.cut) truncated.push('/response/body');
  return known.excerpt;
}

function shownBytes(bytes: Uint8Array, size: number, pointer: string, truncated: string[]): BodyExcerpt {
  if (size <= BODY_EXCERPT_LIMIT) return { text: decoder.decode(bytes.subarray(0, size)), bytes: size };
  truncated.push(pointer);
  return { text: `${decoder.decode(bytes.subarray(0, BODY_EXCERPT_LIMIT))}…`, bytes: size };
}

function flat(headers: Readonly<Record<string, string>>): string[] {
  const list: string[] = [];
  for (const name in headers) list.push(name, headers[name] ?? '');
  return list;
}

/**
 * Headers as kept, names and values alternating: at most HEADERS_LIMIT, values cut, and
 * Authorization, Proxy-Authorization and Cookie reduced to their scheme. The list given is answered
 * as it is when nothing in it needs changing.
 */
function keptHeaders(list: readonly string[], pointer: string, truncated: string[]): readonly string[] {
  let kept: string[] | undefined;
  const count = Math.min(list.length >> 1, HEADERS_LIMIT);
  for (let i = 0; i < count; i += 1) {
    const name = list[2 * i] ?? '';
    const value = list[2 * i + 1] ?? '';
    if (value.length <= HEADER_VALUE_LIMIT || isSecret(name)) continue;
    const shown = cut(
      value,
      HEADER_VALUE_LIMIT,
      `${pointer}/${escapePointer(name.toLowerCase())}`,
      truncated,
    );
    kept ??= list.slice(0, 2 * count);
    kept[2 * i + 1] = shown;
  }
  if (list.length >> 1 > HEADERS_LIMIT) {
    truncated.push(pointer);
    return kept ?? list.slice(0, 2 * HEADERS_LIMIT);
  }
  return kept ?? list;
}

/** Authorization, Proxy-Authorization or Cookie, in any case: told apart by length first. */
function isSecret(name: string): boolean {
  switch (name.length) {
    case 6:
      return name.toLowerCase() === 'cookie';
    case 13:
      return name.toLowerCase() === 'authorization';
    case 19:
      return name.toLowerCase() === 'proxy-authorization';
    default:
      return false;
  }
}

/** `Bearer demo-free` → `Bearer [redacted]`: the scheme is kept, what follows never. */
function redacted(value: string): string {
  const scheme = /^[A-Za-z][A-Za-z0-9._~+/-]{0,20}(?= )/.exec(value.trim());
  return scheme === null ? '[redacted]' : `${scheme[0]} [redacted]`;
}

const escapePointer = (name: string): string => name.replaceAll('~', '~0').replaceAll('/', '~1');

/** A reply's headers as kept: a copy, or a list cut as a request's is when one is too long or too many. */
function keptReplyHeaders(
  headers: Readonly<Record<string, string>>,
  truncated: string[],
): readonly string[] | Readonly<Record<string, string>> {
  let count = 0;
  for (const name in headers) {
    count += 1;
    if (count > HEADERS_LIMIT || (headers[name]?.length ?? 0) > HEADER_VALUE_LIMIT)
      return keptHeaders(flat(headers), '/response/headers', truncated);
  }
  return { ...headers };
}

const isList = (
  headers: readonly string[] | Readonly<Record<string, string>>,
): headers is readonly string[] => Array.isArray(headers);

function recordSize(record: Readonly<Record<string, string>>): number {
  let size = 0;
  for (const name in record) size += name.length + (record[name]?.length ?? 0) + 6;
  return size;
}

function listSize(list: readonly string[]): number {
  let size = 0;
  for (const text of list) size += text.length + 3;
  return size;
}

/** Lower-case names, the later of two alike winning (as the entry always showed them). */
function recordOf(headers: readonly string[] | Readonly<Record<string, string>>): Record<string, string> {
  const list = isList(headers) ? headers : flat(headers);
  const record: Record<string, string> = {};
  for (let i = 0; i + 1 < list.length; i += 2) {
    const name = list[i] ?? '';
    const value = list[i + 1] ?? '';
    record[name.toLowerCase()] = isSecret(name) ? redacted(value) : value;
  }
  return record;
}

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
 * Where a journal keeps what its records do not hold as fields: one ring of bytes, allocated once,
 * written in turn, so that nothing a request leaves in the journal is a heap object the young
 * generation's collections copy (headers, bodies and paths were: a thousand requests' worth of strings
 * and arrays copied and promoted, which doubled the scavenges' time under load). A record keeps where
 * its bytes are; a record whose bytes were written over (or cleared) is `gone`.
 */
class Ring {
  readonly bytes: Uint8Array;
  /** Where the next record's bytes go. */
  at = 0;
  constructor(size: number) {
    this.bytes = new Uint8Array(size);
  }
}

/**
 * An exchange as the journal keeps it: what a filter or a log line reads, as fields; the rest (path,
 * headers, bodies, cuts) as bytes in the journal's ring, read back only when entry() builds the entry
 * a reader sees (credentials redacted then).
 */
export class JournalRecord {
  readonly method: string;
  readonly status: number;
  readonly code: string | null;
  readonly forced: boolean;
  readonly rule: string | null;
  readonly fault: NetworkFault | null;
  readonly time: number;
  readonly durationMs: number;
  /** The journal's estimate of the entry's size as JSON. */
  readonly size: number;
  /** Where its bytes are in the ring, and how many. */
  readonly offset: number;
  readonly length: number;
  /** Its bytes were written over, or the journal cleared: only its fields are left. */
  gone = false;
  readonly #ring: Ring;
  readonly #operationId: string | null;
  readonly #delayMs: number;
  readonly #key: Exchange['key'];
  #path: string | undefined;

  constructor(
    readonly id: number,
    exchange: Exchange,
    ring: Ring,
    place: (length: number) => number,
  ) {
    const { reply } = exchange;
    this.method =
      exchange.method.length <= METHOD_LIMIT ? exchange.method : `${exchange.method.slice(0, METHOD_LIMIT)}…`;
    this.status = reply.status;
    const body = reply.body;
    this.code = reply.status >= 400 && typeof body === 'string' ? codeOf(body) : null;
    this.forced = reply.headers['preference-applied']?.includes('code=') === true;
    this.rule = exchange.rule ?? null;
    this.fault = reply.fault ?? null;
    this.time = exchange.time;
    this.durationMs = exchange.durationMs;
    this.#operationId = exchange.operationId;
    this.#delayMs = exchange.delayMs;
    this.#key = exchange.key;
    this.#ring = ring;
    const written = encodeExchange(exchange);
    this.size = written.size;
    this.length = written.length;
    this.offset = place(written.length);
    ring.bytes.set(scratch.subarray(0, written.length), this.offset);
  }

  /** Path and query, as sent (cut at PATH_LIMIT). */
  get path(): string {
    if (this.#path === undefined)
      this.#path = this.gone ? '' : new Reader(this.#ring.bytes, this.offset).text();
    return this.#path;
  }

  /** The entry a reader sees. */
  entry(): JournalEntry {
    const key = this.#key;
    const shown = this.gone ? undefined : readExchange(this.#ring.bytes, this.offset);
    return {
      id: this.id,
      time: this.time,
      method: this.method,
      path: shown?.path ?? this.path,
      operationId: this.#operationId,
      status: this.status,
      code: this.code,
      forced: this.forced,
      rule: this.rule,
      fault: this.fault,
      delayMs: this.#delayMs,
      durationMs: this.durationMs,
      key: key === undefined ? null : { name: keyLabel(key.key), plan: key.plan },
      request: { headers: recordOf(shown?.requestHeaders ?? []), body: shown?.requestBody ?? null },
      response: { headers: recordOf(shown?.responseHeaders ?? []), body: shown?.responseBody ?? null },
      truncated: shown?.truncated ?? [],
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

export function createJournal(
  limit = JOURNAL_LIMIT,
  maxBytes = JOURNAL_MAX_BYTES,
  /** The ring's size: by default what the estimate bounds and one record more; smaller in tests. */
  ringBytes = maxBytes + ENTRY_MAX_BYTES,
): Journal {
  let queue: JournalRecord[] = [];
  let head = 0;
  let bytes = 0;
  let nextId = 1;
  let dropped = 0;
  // No ring for a journal that keeps nothing; else room for its bytes, which the estimate bounds.
  const ring = new Ring(limit === 0 ? 0 : ringBytes);
  /** With a limit of 0, each record's bytes, until the next record's. */
  const transient = limit === 0 ? new Ring(ENTRY_MAX_BYTES) : ring;
  const records = () => queue.slice(head);
  const drop = () => {
    const oldest = queue[head];
    if (oldest === undefined) return;
    oldest.gone = true;
    bytes -= oldest.size;
    head += 1;
    dropped += 1;
  };
  /** Where `length` bytes go: after the last record's, or from the start when they do not fit; the records in their way go. */
  const place = (length: number): number => {
    let at = ring.at;
    if (at + length > ring.bytes.length) {
      // The tail from here to the end is given up; the records still there are the oldest: they go first.
      for (let oldest = queue[head]; oldest !== undefined && oldest.offset >= at; oldest = queue[head])
        drop();
      at = 0;
    }
    const end = at + length;
    for (let oldest = queue[head]; oldest !== undefined; oldest = queue[head]) {
      const overlaps = oldest.offset < end && at < oldest.offset + oldest.length;
      if (!overlaps) break;
      drop();
    }
    ring.at = end;
    return at;
  };
  return {
    record(exchange) {
      if (limit === 0) {
        // Kept nowhere: the record lives as long as its caller needs it (the log line, listeners).
        const alone = new JournalRecord(nextId, exchange, transient, () => 0);
        nextId += 1;
        dropped += 1;
        return alone;
      }
      const kept = new JournalRecord(nextId, exchange, ring, place);
      queue.push(kept);
      nextId += 1;
      bytes += kept.size;
      while (queue.length - head > limit || (bytes > maxBytes && queue.length - head > 1)) drop();
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
      for (let i = head; i < queue.length; i += 1) {
        const record = queue[i];
        if (record !== undefined) record.gone = true;
      }
      queue = [];
      head = 0;
      bytes = 0;
      dropped = 0;
      ring.at = 0;
      return held;
    },
  };
}

/**
 * The most bytes one record can take in the ring, whatever came: everything in it is cut before it is
 * written. In UTF-8 (3 bytes a character at most): a path of 1,025 characters (3 KB); twice
 * HEADERS_LIMIT headers, name and value of 257 characters each (2 × 50 KB); two excerpts (2 KiB);
 * the pointers of what was cut, each naming a kept header name at most twice as long escaped
 * (2 × 32 × 532 characters: 102 KB); lengths and counts. About 210 KB.
 */
const ENTRY_MAX_BYTES = 256 * 1024;
/** Longest header name kept (characters); longer ones are cut, as values are. */
const HEADER_NAME_LIMIT = 256;
const ERROR_CODE = /^\{"code":"([a-z_]{1,40})"/;
/** Error codes as read from bodies, each kept once (not a string per answer). */
const CODES = new Map<string, string>();

function codeOf(body: string): string | null {
  const found = ERROR_CODE.exec(body)?.[1];
  if (found === undefined) return null;
  let code = CODES.get(found);
  if (code === undefined) {
    code = found;
    if (CODES.size < 256) CODES.set(found, found);
  }
  return code;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A text body longer than this (in UTF-8 bytes at most) is encoded apart, not into the scratch. */
const SCRATCH_MAX = 1024 * 1024;
/** Where a record is written before it is copied into the ring: grown to the largest record seen. */
let scratch = new Uint8Array(8 * 1024);
let written = 0;
/** Fields of the JSON size estimate counted as a record is written. */
let estimate = 0;

function room(bytes: number): void {
  if (written + bytes <= scratch.length) return;
  const grown = new Uint8Array(Math.max(scratch.length * 2, written + bytes));
  grown.set(scratch.subarray(0, written));
  scratch = grown;
}

function putU32(value: number): void {
  room(4);
  const into = scratch;
  const at = written;
  into[at] = value & 0xff;
  into[at + 1] = (value >>> 8) & 0xff;
  into[at + 2] = (value >>> 16) & 0xff;
  into[at + 3] = (value >>> 24) & 0xff;
  written = at + 4;
}

/**
 * Texts every answer repeats (header names, the mock's constant header values: CORS, content types),
 * each written once into this table and then by its index: a lookup instead of a copy. Never a
 * request's header value (a credential, a cookie), nor the values that change with every answer
 * (VARYING); at most TABLE_LIMIT texts of at most TABLE_TEXT_LIMIT characters, the first ones seen.
 */
const table = new Map<string, number>();
const tableTexts: string[] = [];
const TABLE_LIMIT = 1024;
const TABLE_TEXT_LIMIT = 256;
/** The high bit of a text's length: the rest is an index into the table. */
const TABLED = 0x8000_0000;
/** Reply headers whose values change from answer to answer: copied, never tabled. */
const VARYING = new Set([
  'date',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
  'location',
  'content-length',
]);

/** A text by its index in the table, entered there if there is room; else copied. */
function putTabled(text: string): void {
  let index = table.get(text);
  if (index === undefined) {
    if (tableTexts.length >= TABLE_LIMIT || text.length > TABLE_TEXT_LIMIT) {
      putText(text);
      return;
    }
    index = tableTexts.length;
    tableTexts.push(text);
    table.set(text, index);
  }
  putU32((TABLED | index) >>> 0);
}

/** A text as its length in bytes, then its UTF-8 bytes: ASCII copied a character at a time, the rest encoded. */
function putText(text: string): void {
  room(4 + 3 * text.length);
  // Locals, not the module's variables, in the loop: a store to those costs a context write each.
  const into = scratch;
  const start = written;
  let at = start + 4;
  const length = text.length;
  let i = 0;
  for (; i < length; i += 1) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) break;
    into[at] = c;
    at += 1;
  }
  if (i < length) at += encoder.encodeInto(text.slice(i), into.subarray(at)).written;
  const bytes = at - start - 4;
  into[start] = bytes & 0xff;
  into[start + 1] = (bytes >>> 8) & 0xff;
  into[start + 2] = (bytes >>> 16) & 0xff;
  into[start + 3] = (bytes >>> 24) & 0xff;
  written = at;
}

/** Cuts `text` at `limit` characters, noting `pointer` in `truncated` when it does. */
function cut(text: string, limit: number, pointer: string, truncated: string[]): string {
  if (text.length <= limit) return text;
  truncated.push(pointer);
  return `${text.slice(0, limit)}…`;
}

/**
 * A body's first BODY_EXCERPT_LIMIT bytes: a flag (0: none, 1: whole, 2: cut), its whole size in
 * bytes, and the bytes kept. A text is encoded only as far as the excerpt needs.
 */
function putBody(body: string | Uint8Array | null | undefined, pointer: string, truncated: string[]): void {
  if (body === null || body === undefined || (typeof body !== 'string' && body.byteLength === 0)) {
    room(1);
    scratch[written] = 0;
    written += 1;
    return;
  }
  let bytes: Uint8Array;
  let size: number;
  if (typeof body === 'string' && 3 * body.length > SCRATCH_MAX) body = encoder.encode(body);
  if (typeof body === 'string') {
    // Its size in UTF-8 bytes, counted natively into the scratch's spare room (a loop over the
    // characters cost as much as a list of 100 pets); kept as far as the excerpt goes.
    room(9 + 3 * body.length);
    const spare = scratch.subarray(written + 9);
    size = encoder.encodeInto(body, spare).written;
    bytes = spare;
  } else {
    room(9 + Math.min(body.byteLength, BODY_EXCERPT_LIMIT));
    size = body.byteLength;
    bytes = body;
  }
  const kept = Math.min(size, BODY_EXCERPT_LIMIT);
  if (kept < size) truncated.push(pointer);
  scratch[written] = kept < size ? 2 : 1;
  written += 1;
  putU32(size);
  putU32(kept);
  if (typeof body === 'string') {
    // Encoded in place just past these nine bytes: already where it belongs.
    written += kept;
  } else {
    scratch.set(bytes.subarray(0, kept), written);
    written += kept;
  }
  estimate += kept;
}

/**
 * Headers, names and values alternating: at most HEADERS_LIMIT, names and values cut. Names go by the
 * table, and so do the values of a reply's constant headers (`reply`).
 */
function putHeaders(list: readonly string[], pointer: string, truncated: string[], reply: boolean): void {
  const count = Math.min(list.length >> 1, HEADERS_LIMIT);
  putU32(count);
  let namesCut = false;
  for (let i = 0; i < count; i += 1) {
    const name = list[2 * i] ?? '';
    const value = list[2 * i + 1] ?? '';
    // A name is cut like a value; the list's pointer says so once, and a value's names the name as kept.
    const shownName = name.length <= HEADER_NAME_LIMIT ? name : `${name.slice(0, HEADER_NAME_LIMIT)}…`;
    if (shownName !== name) namesCut = true;
    const shown =
      value.length <= HEADER_VALUE_LIMIT || isSecret(name)
        ? value
        : cut(value, HEADER_VALUE_LIMIT, `${pointer}/${escapePointer(shownName.toLowerCase())}`, truncated);
    putTabled(shownName);
    if (reply && !VARYING.has(shownName)) putTabled(shown);
    else putText(shown);
    estimate += shownName.length + shown.length + 3;
  }
  if (namesCut || list.length >> 1 > HEADERS_LIMIT) truncated.push(pointer);
}

const headerList: string[] = [];

/**
 * Writes what an exchange keeps beyond its record's fields into the scratch: path, request headers,
 * request body, reply headers, reply body, then the pointers of the fields cut. Answers its length
 * and its estimated size as JSON.
 */
function encodeExchange(exchange: Exchange): { length: number; size: number } {
  written = 0;
  estimate = 400;
  const truncated: string[] = [];
  if (exchange.method.length > METHOD_LIMIT) truncated.push('/method');
  const path = cut(exchange.target, PATH_LIMIT, '/path', truncated);
  putText(path);
  estimate += path.length;
  putHeaders(exchange.requestHeaders, '/request/headers', truncated, false);
  putBody(exchange.requestBody, '/request/body', truncated);
  headerList.length = 0;
  const replyHeaders = exchange.reply.headers;
  for (const name in replyHeaders) headerList.push(name, replyHeaders[name] ?? '');
  putHeaders(headerList, '/response/headers', truncated, true);
  putBody(exchange.reply.body, '/response/body', truncated);
  putU32(truncated.length);
  for (const pointer of truncated) putText(pointer);
  return { length: written, size: estimate };
}

/** Reads a record's bytes back, in the order encodeExchange wrote them. */
class Reader {
  #at: number;
  constructor(
    readonly bytes: Uint8Array,
    at: number,
  ) {
    this.#at = at;
  }
  u32(): number {
    const b = this.bytes;
    const at = this.#at;
    this.#at += 4;
    return (
      ((b[at] ?? 0) | ((b[at + 1] ?? 0) << 8) | ((b[at + 2] ?? 0) << 16) | ((b[at + 3] ?? 0) << 24)) >>> 0
    );
  }
  text(): string {
    const length = this.u32();
    if (length >= TABLED) return tableTexts[length - TABLED] ?? '';
    const at = this.#at;
    this.#at += length;
    return decoder.decode(this.bytes.subarray(at, at + length));
  }
  headers(): string[] {
    const list: string[] = [];
    for (let count = this.u32(); count > 0; count -= 1) list.push(this.text(), this.text());
    return list;
  }
  body(): BodyExcerpt | null {
    const flag = this.bytes[this.#at] ?? 0;
    this.#at += 1;
    if (flag === 0) return null;
    const size = this.u32();
    const kept = this.u32();
    const at = this.#at;
    this.#at += kept;
    const text = decoder.decode(this.bytes.subarray(at, at + kept));
    return { text: flag === 2 ? `${text}…` : text, bytes: size };
  }
}

function readExchange(bytes: Uint8Array, offset: number) {
  const reader = new Reader(bytes, offset);
  const path = reader.text();
  const requestHeaders = reader.headers();
  const requestBody = reader.body();
  const responseHeaders = reader.headers();
  const responseBody = reader.body();
  const truncated: string[] = [];
  for (let count = reader.u32(); count > 0; count -= 1) truncated.push(reader.text());
  return { path, requestHeaders, requestBody, responseHeaders, responseBody, truncated };
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

/** Lower-case names, the later of two alike winning (as the entry always showed them). */
function recordOf(list: readonly string[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (let i = 0; i + 1 < list.length; i += 2) {
    const name = list[i] ?? '';
    const value = list[i + 1] ?? '';
    record[name.toLowerCase()] = isSecret(name) ? redacted(value) : value;
  }
  return record;
}

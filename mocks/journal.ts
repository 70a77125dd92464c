// The request journal: the last API requests, oldest first, bounded in entries and in bytes so a
// long-running mock (or a client sending long paths and bodies) cannot make it grow without end.
// Long paths, header values and bodies are cut, and the entry says which fields were (`truncated`).
// Queried a page at a time (journal-query.ts), so one read of it is bounded too.
//
// Recording is on every request's path, reading is rare: a request is kept as it came (its header
// list, its body's first bytes), cut to the bounds and with its credentials redacted as it is kept,
// and the entry a reader sees is built only when read. Building entries on the way (a header record per request,
// body excerpts decoded) cost more than the rest of the mock's answer together.
import type { NetworkFault } from './control-types.js';
import { keyLabel } from './key-label.js';
import type { Reply } from './responses.js';
import { writeUtf8 } from './utf8.js';

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

/** The estimate of an entry's size as JSON before its texts: what its fields and names take. */
const ENTRY_BASE_ESTIMATE = 400;

/**
 * Where a journal keeps its records, all allocated when it is made and written in turn, so that
 * nothing a request leaves in the journal is an object the young generation's collections copy (a
 * record object per request, its headers, bodies and paths as strings and arrays: a thousand
 * requests' worth copied and promoted doubled the scavenges' time under load).
 *
 * - A record's fields side by side, in one slot of two arrays: its numbers in a Float64Array, its
 *   references (to texts and keys that live as long as the mock: methods, codes, operation ids,
 *   rules) in an array, so that writing one touches a line or two of memory, not one per field. The
 *   record of id n is in slot (n - 1) mod the slots' count: the records kept are always the latest
 *   ids in a row.
 * - The rest (path, headers, bodies, the pointers of what was cut) as bytes in one ring, written in
 *   order. Each record's bytes are encoded after the last record's, and moved only when place()
 *   puts them elsewhere (back at the ring's start); a record of a journal that keeps none is encoded
 *   in a scratch area past the ring's end.
 */
class Store {
  /** Per slot: time, durationMs, delayMs, status, forced (0 or 1), offset, length, size. */
  readonly numbers: Float64Array;
  /** Per slot: method, code, rule, fault, operationId, key. */
  readonly refs: unknown[];
  /** The ring, and past its end (from `ringBytes`) the scratch area a record is encoded in. */
  readonly bytes: Uint8Array;
  /** The texts its records repeat (see Recent). */
  readonly recent: Recent<string>;
  /** The header lists its records repeat, each kept once (see Template). */
  readonly lists: Recent<HeaderList>;
  /** The excerpts of the reply bodies its records repeat, each kept once as text (see Encoder.replyBody). */
  readonly excerpts: Recent<string>;
  /** Where the next record's bytes go in the ring. */
  at = 0;
  /**
   * The oldest record kept, and the next id to keep: the records kept are oldestId … nextId - 1.
   * Records handed out whose bytes wait for the next flush come after.
   */
  oldestId = 1;
  nextId = 1;
  /** Writes the bytes of the records waiting for them (createJournal sets it). */
  flush: () => void = () => undefined;
  /** Hides the keys of a keys file in an entry's texts (createJournal sets it), if any. */
  mask: ((text: string) => string) | undefined = undefined;

  constructor(
    readonly slots: number,
    readonly ringBytes: number,
    recentSize: number,
    listsSize: number,
    excerptsSize: number,
    /** Lists in a row whose differing values settled before their template is made again (Template.settled). */
    readonly settledLists: number,
  ) {
    this.numbers = new Float64Array(slots * NUMBERS);
    this.refs = new Array<unknown>(slots * REFS).fill(null);
    this.bytes = new Uint8Array(ringBytes + SCRATCH_BYTES);
    this.recent = new Recent(recentSize, '');
    this.lists = new Recent<HeaderList>(listsSize, NO_LIST);
    this.excerpts = new Recent(excerptsSize, '');
  }

  /** Where the numbers of the record of this id begin (its references: `refsOf`). */
  numbersOf(id: number): number {
    return ((id - 1) % this.slots) * NUMBERS;
  }

  refsOf(id: number): number {
    return ((id - 1) % this.slots) * REFS;
  }

  /** The oldest record kept: where its bytes are, and how many. */
  oldestOffset(): number {
    return this.numbers[this.numbersOf(this.oldestId) + OFFSET] ?? 0;
  }

  /** Whether the record of this id is still kept (its bytes not written over, nor cleared). */
  holds(id: number): boolean {
    return id >= this.oldestId && id < this.nextId;
  }
}

/** A slot's numbers: how many, and where each is. */
const NUMBERS = 8;
const TIME = 0;
const DURATION = 1;
const DELAY = 2;
const STATUS = 3;
const FORCED = 4;
const OFFSET = 5;
const LENGTH = 6;
const SIZE = 7;
/** A slot's references: how many, and where each is. */
const REFS = 6;
const METHOD = 0;
const CODE = 1;
const RULE = 2;
const FAULT = 3;
const OPERATION = 4;
const KEY = 5;

/**
 * A record as a reader holds it: its fields, copied out of the journal's slots when it was handed
 * out; the rest (path, headers, bodies, cuts) read from the journal's bytes only when entry() builds
 * the entry a reader sees, for as long as the journal keeps it.
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
  readonly #store: Store;
  readonly #operationId: string | null;
  readonly #delayMs: number;
  readonly #key: Exchange['key'];
  #path: string | undefined;

  constructor(
    readonly id: number,
    store: Store,
    /** Its path, when the caller has it as text already (the record just made). */
    path?: string,
  ) {
    this.#store = store;
    this.#path = path;
    const n = store.numbersOf(id);
    const numbers = store.numbers;
    this.time = numbers[n + TIME] ?? 0;
    this.durationMs = numbers[n + DURATION] ?? 0;
    this.#delayMs = numbers[n + DELAY] ?? 0;
    this.status = numbers[n + STATUS] ?? 0;
    this.forced = numbers[n + FORCED] === 1;
    const r = store.refsOf(id);
    const refs = store.refs;
    this.method = refs[r + METHOD] as string;
    this.code = refs[r + CODE] as string | null;
    this.rule = refs[r + RULE] as string | null;
    this.fault = refs[r + FAULT] as NetworkFault | null;
    this.#operationId = refs[r + OPERATION] as string | null;
    this.#key = refs[r + KEY] as Exchange['key'];
  }

  /** Its bytes were written over, or the journal cleared: only its fields are left. */
  get gone(): boolean {
    this.#store.flush();
    return !this.#store.holds(this.id);
  }

  /** Where its bytes are in the ring, while it is kept. */
  get #offset(): number {
    return this.#store.numbers[this.#store.numbersOf(this.id) + OFFSET] ?? 0;
  }

  /** Path and query, as sent (cut at PATH_LIMIT). */
  get path(): string {
    // Known already (the record just made, its bytes perhaps still waiting): no flush for the log line.
    if (this.#path !== undefined && this.id >= this.#store.oldestId) return this.#path;
    if (this.gone) return '';
    this.#path ??= new Reader(this.#store, this.#offset).text();
    return this.#path;
  }

  /** The entry a reader sees. */
  entry(): JournalEntry {
    const entry = this.#entry();
    const mask = this.#store.mask;
    return mask === undefined ? entry : maskedEntry(entry, mask);
  }

  #entry(): JournalEntry {
    const key = this.#key;
    const shown = this.gone ? undefined : readExchange(this.#store, this.#offset);
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
  /**
   * Keeps the exchange, numbered and cut to the bounds; answers it as kept. A journal that keeps
   * nothing (a limit of 0) writes the exchange's bytes only when `entry` says its entry will be read
   * (by a listener): otherwise only its fields are made, for the log line.
   */
  record(exchange: Exchange, entry?: boolean): JournalRecord;
  /** All records kept, oldest first. */
  records(): JournalRecord[];
  /** All entries kept, oldest first. */
  entries(): JournalEntry[];
  /** How many entries were pushed out by the bounds since the last clear. */
  readonly dropped: number;
  /** Empties it; answers how many entries it held. */
  clear(): number;
  /** The furthest its bytes have reached into its ring since it was made or cleared. */
  readonly reach: number;
}

/** Most records whose bytes wait for the next flush. */
const BATCH = 64;
/** A body longer than this (bytes, or characters) is written at once, not held until the flush. */
const HELD_BODY_LIMIT = 64 * 1024;

/** Whether an exchange may wait for the flush: its bodies are short (a long one is not held). */
function held(exchange: Exchange): boolean {
  const request = exchange.requestBody;
  const reply = exchange.reply.body;
  return (
    (request === undefined || request.byteLength <= HELD_BODY_LIMIT) &&
    (reply === null || (typeof reply === 'string' ? reply.length : reply.byteLength) <= HELD_BODY_LIMIT)
  );
}

/**
 * Runs a task once the work at hand is done: in Node after the event loop's I/O (every answer that
 * came in together is journaled in one batch), elsewhere (a browser) after the current task.
 */
const soon = (task: () => void): void => {
  // Looked up when called (once a batch), not when loaded: a test's fake timers stand in for it.
  const immediate = (globalThis as { setImmediate?: (task: () => void) => unknown }).setImmediate;
  if (immediate === undefined) queueMicrotask(task);
  else immediate(task);
};

/** The path as a record keeps it: cut at PATH_LIMIT. */
const pathOf = (target: string): string =>
  target.length <= PATH_LIMIT ? target : `${target.slice(0, PATH_LIMIT)}…`;

/** Methods as parsers give them, each kept once (a record holds no method string of its own). */
const METHODS = new Map<string, string>();

function methodOf(method: string): string {
  const shown = method.length <= METHOD_LIMIT ? method : `${method.slice(0, METHOD_LIMIT)}…`;
  const known = METHODS.get(shown);
  if (known !== undefined) return known;
  if (METHODS.size < 64) METHODS.set(shown, shown);
  return shown;
}

/** How a journal is bounded; every field has the mock's default. The table sizes are smaller in tests. */
export interface JournalOptions {
  /** How many entries it keeps (`--journal-limit`): 0 keeps none. */
  readonly limit?: number;
  /** The most bytes its entries take, as estimated. */
  readonly maxBytes?: number;
  /** The ring's size: by default what the estimate bounds and one record more. */
  readonly ringBytes?: number | undefined;
  /** How many repeated texts it keeps by reference (Recent). */
  readonly recentSize?: number;
  /** How many repeated header lists it keeps by reference (Template). */
  readonly listsSize?: number;
  /** How many repeated reply bodies' excerpts it keeps by reference. */
  readonly excerptsSize?: number;
  /** How many lists in a row, their differing values settled, before their template is made again. */
  readonly settledLists?: number;
  /** Hides the keys of a keys file in what an entry shows (keyMasker); applied when an entry is read. */
  readonly mask?: ((text: string) => string) | undefined;
}

export function createJournal({
  limit = JOURNAL_LIMIT,
  maxBytes = JOURNAL_MAX_BYTES,
  ringBytes = maxBytes + ENTRY_MAX_BYTES,
  recentSize = RECENT_SIZE,
  listsSize = LISTS_SIZE,
  excerptsSize = EXCERPTS_SIZE,
  settledLists = SETTLED,
  mask,
}: JournalOptions = {}): Journal {
  // Slots for as many records as the bounds let it keep: each is estimated at ENTRY_BASE_ESTIMATE
  // bytes at least, so the byte bound holds a number of them; the newest is kept even if alone past it.
  const slots = limit === 0 ? 1 : Math.min(limit, Math.floor(maxBytes / ENTRY_BASE_ESTIMATE) + 1);
  // No ring for a journal that keeps nothing: its one record's bytes stay in the scratch area. Room
  // past the slots kept for the records whose bytes wait for the flush (at most BATCH).
  const store = new Store(
    limit === 0 ? slots : slots + BATCH,
    limit === 0 ? 0 : ringBytes,
    recentSize,
    listsSize,
    excerptsSize,
    settledLists,
  );
  store.mask = mask;
  const encoder = new Encoder(store);
  let bytes = 0;
  let dropped = 0;
  let reach = 0;
  const { numbers, refs } = store;
  const drop = () => {
    bytes -= numbers[store.numbersOf(store.oldestId) + SIZE] ?? 0;
    store.oldestId += 1;
    dropped += 1;
  };
  /** Where `length` bytes go: after the last record's, or from the start when they do not fit; the records in their way go. */
  const place = (length: number): number => {
    let at = store.at;
    if (store.oldestId < store.nextId) {
      // Not yet round the ring (what it holds lies from the oldest's bytes to here): back to its start as
      // soon as the room there, freed as the oldest went, is a quarter of what it holds. Bytes are then
      // written over a stretch about as long as what is kept, not the whole ring (its 2.25 MB swept
      // through by 1,000 small records left every write on memory the cache had long dropped).
      const oldest = store.oldestOffset();
      const newest = numbers[store.numbersOf(store.nextId - 1) + OFFSET] ?? 0;
      if (newest >= oldest && oldest >= length && 4 * oldest >= at - oldest) {
        store.at = length;
        return 0;
      }
    }
    if (at + length > store.ringBytes) {
      // The tail from here to the end is given up; the records still there are the oldest: they go first.
      while (store.oldestId < store.nextId && store.oldestOffset() >= at) drop();
      at = 0;
    }
    const end = at + length;
    if (end > reach) reach = end;
    while (store.oldestId < store.nextId) {
      const n = store.numbersOf(store.oldestId);
      const offset = numbers[n + OFFSET] ?? 0;
      if (!(offset < end && at < offset + (numbers[n + LENGTH] ?? 0))) break;
      drop();
    }
    store.at = end;
    return at;
  };
  /** The next id to hand out: ids from store.nextId up to it wait for their bytes. */
  let assigned = store.nextId;
  /** The exchanges whose bytes are written at the next flush, in the order of their ids. */
  const waiting: Exchange[] = [];
  let scheduled = false;
  /** Writes the bytes of the record store.nextId (its fields are in its slot): encoded, placed, bounds kept. */
  const keep = (exchange: Exchange, whole: boolean): void => {
    const id = store.nextId;
    // Encoded where it will most likely stay: after the last record's bytes (over those of records
    // that place() then drops), or in the scratch area past the ring's end for a journal of none.
    const start = limit === 0 ? store.ringBytes : store.at;
    const length = encoder.encode(exchange, whole, start);
    const size = encoder.estimate;
    let offset = start;
    if (limit === 0) {
      // Kept nowhere: its bytes stay in the scratch area until the next record's, for the caller
      // that needs them now (the log line, listeners); it is the only record "kept" meanwhile.
      store.oldestId = id;
      dropped += 1;
    } else {
      if (store.nextId - store.oldestId >= slots) drop();
      offset = place(length);
      // Placed elsewhere (back at the ring's start, or past its end): moved there.
      if (offset !== start) store.bytes.copyWithin(offset, start, start + length);
    }
    const n = store.numbersOf(id);
    numbers[n + OFFSET] = offset;
    numbers[n + LENGTH] = length;
    numbers[n + SIZE] = size;
    store.nextId = id + 1;
    if (limit !== 0) {
      bytes += size;
      while (store.nextId - store.oldestId > limit || (bytes > maxBytes && store.nextId - store.oldestId > 1))
        drop();
    }
  };
  const flush = (): void => {
    if (waiting.length === 0) return;
    for (const exchange of waiting) keep(exchange, true);
    waiting.length = 0;
  };
  /**
   * The flush at the end of the work at hand: one waits at a time, whatever flushed the records in
   * between (a full batch, a read). A caller that never lets the event loop turn (in-process requests
   * awaited one after another) had one more task queued every BATCH records.
   */
  const flushSoon = (): void => {
    scheduled = false;
    flush();
  };
  store.flush = flush;
  const records = (): JournalRecord[] => {
    flush();
    const kept: JournalRecord[] = [];
    if (limit === 0) return kept;
    for (let id = store.oldestId; id < store.nextId; id += 1) kept.push(new JournalRecord(id, store));
    return kept;
  };
  return {
    record(exchange, entry = true) {
      const id = assigned;
      assigned = id + 1;
      const { reply } = exchange;
      const body = reply.body;
      const n = store.numbersOf(id);
      numbers[n + TIME] = exchange.time;
      numbers[n + DURATION] = exchange.durationMs;
      numbers[n + DELAY] = exchange.delayMs;
      numbers[n + STATUS] = reply.status;
      numbers[n + FORCED] = reply.headers['preference-applied']?.includes('code=') === true ? 1 : 0;
      const r = store.refsOf(id);
      refs[r + METHOD] = methodOf(exchange.method);
      refs[r + CODE] = reply.status >= 400 && body !== null ? codeOf(body) : null;
      refs[r + RULE] = exchange.rule ?? null;
      refs[r + FAULT] = reply.fault ?? null;
      refs[r + OPERATION] = exchange.operationId;
      refs[r + KEY] = exchange.key;
      if (limit !== 0 && !entry && held(exchange)) {
        // Nobody reads it now: its bytes are written with the others' once the work at hand is done
        // (a batch: the journal's code and tables warm once for many), or by the first read.
        waiting.push(exchange);
        if (waiting.length === BATCH) flush();
        else if (!scheduled) {
          scheduled = true;
          soon(flushSoon);
        }
        return new JournalRecord(id, store, pathOf(exchange.target));
      }
      flush();
      keep(exchange, limit !== 0 || entry);
      return new JournalRecord(id, store, encoder.path);
    },
    records,
    entries: () => records().map((kept) => kept.entry()),
    get dropped() {
      flush();
      return dropped;
    },
    get reach() {
      flush();
      return reach;
    },
    clear() {
      flush();
      const held = limit === 0 ? 0 : store.nextId - store.oldestId;
      store.oldestId = store.nextId;
      bytes = 0;
      dropped = 0;
      reach = 0;
      store.at = 0;
      return held;
    },
  };
}

/**
 * The most bytes one record can take in the ring, whatever came: everything in it is cut before it is
 * written. In UTF-8 (3 bytes a character at most): a path of 1,025 characters (3 KB); twice
 * HEADERS_LIMIT headers, name and value of 257 characters each (2 × 50 KB; a credential is kept as
 * its scheme only, and was once the exception: three of 300,000 characters threw); two excerpts (2 KiB);
 * the pointers of what was cut, each naming a kept header name at most twice as long escaped
 * (2 × 32 × 532 characters: 102 KB); lengths and counts. About 210 KB.
 */
const ENTRY_MAX_BYTES = 256 * 1024;
/** Longest header name kept (characters); longer ones are cut, as values are. */
const HEADER_NAME_LIMIT = 256;
const ERROR_CODE = /^\{"code":"([a-z_]{1,40})"/;
/** Error codes as read from bodies, each kept once (not a string per answer). */
const CODES = new Map<string, string>();

/** The last Error bodies read and their codes: the mock's answers of one kind repeat their body. */
const LAST_BODIES: (string | Uint8Array)[] = ['', '', '', ''];
const LAST_CODES: (string | null)[] = [null, null, null, null];
let lastBody = 0;
/** Bytes of a body enough to hold its code: `{"code":"` and 40 characters, and the closing quote. */
const CODE_BYTES = 64;

/** An Error body's code: a text's, or the first bytes' of a body of bytes (the mock's constant Error bodies). */
function codeOf(body: string | Uint8Array): string | null {
  for (let i = 0; i < LAST_BODIES.length; i += 1) if (LAST_BODIES[i] === body) return LAST_CODES[i] ?? null;
  const text = typeof body === 'string' ? body : decoder.decode(body.subarray(0, CODE_BYTES));
  const code = readCode(text);
  if ((typeof body === 'string' ? body.length : body.byteLength) <= 1024) {
    LAST_BODIES[lastBody] = body;
    LAST_CODES[lastBody] = code;
    lastBody = (lastBody + 1) % LAST_BODIES.length;
  }
  return code;
}

function readCode(body: string): string | null {
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

/**
 * Where a text body is encoded to count its bytes (its excerpt is copied from there): a view made
 * once, not one per answer. A longer body is encoded apart.
 */
const BODY_ROOM_BYTES = 128 * 1024;
/** The scratch area past the ring's end: room for the largest record, then the body room. */
const SCRATCH_BYTES = ENTRY_MAX_BYTES + BODY_ROOM_BYTES;

/** What the journal uses of Node's Buffer (the core runs in browsers too, without it). */
interface NodeBufferView {
  utf8Write(text: string, offset: number, length: number): number;
}
const nodeBuffer = (
  globalThis as unknown as {
    Buffer?: {
      from(buffer: ArrayBufferLike, offset: number, length: number): NodeBufferView;
      byteLength(text: string, encoding: 'utf8'): number;
    };
  }
).Buffer;

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
/** The next bit: the rest is an index into the journal's own texts it repeats (Recent). */
const RECENT = 0x4000_0000;
/** How many repeated texts a journal keeps by reference. */
const RECENT_SIZE = 256;
/** How many of them it looks at for one no record kept refers to, before it copies a text instead. */
const RECENT_TRIES = 8;
/** How many repeated header lists a journal keeps by reference (Template). */
const LISTS_SIZE = 32;
/** The high bit of a header list's count: the list is written by its template. */
const TEMPLATED = 0x8000_0000;
/** How many repeated reply bodies' excerpts a journal keeps by reference. */
const EXCERPTS_SIZE = 16;
/** How many reply bodies of bytes an encoder knows by identity, to tell one it has seen before. */
const BODIES_SEEN = 8;
/**
 * The largest reply body of bytes an encoder knows by identity (it holds the last BODIES_SEEN of
 * them: at most 128 KiB of bodies the mock let go, none of them a request's); larger ones are copied.
 */
const BODY_SEEN_LIMIT = 16 * 1024;
/**
 * The longest reply body of text an encoder knows by value (compared with the last BODIES_SEEN
 * bodies): short of BODY_EXCERPT_LIMIT bytes however it encodes, so its excerpt is all of it.
 */
const TEXT_SEEN_LIMIT = Math.floor(BODY_EXCERPT_LIMIT / 3);
/** A body's flag in a record: none, whole, cut, or its excerpt by reference (whole or cut: its sizes tell). */
const NO_BODY = 0;
const WHOLE_BODY = 1;
const CUT_BODY = 2;
const SAME_BODY = 3;

/** A header list kept once in a journal's lists, as its records show it: names as kept, values as kept (credentials redacted). */
interface HeaderList {
  readonly names: readonly string[];
  readonly values: readonly string[];
}
const NO_LIST: HeaderList = { names: [], values: [] };

/**
 * A header list an encoder has seen come again (the mock's replies of one kind; a client's requests):
 * kept once in the journal's lists, so that a record of a list like it writes its index and which
 * values differ (a mask of positions, then those values), not every name and value. An encoder keeps
 * one per length of list and kind; it stands only while its entry in the lists is still its own.
 */
interface Template {
  /** Its entry in the journal's lists, and that entry's generation when it was made. */
  readonly index: number;
  readonly generation: number;
  /**
   * Names and values as sent: what a list is compared with. A credential's value is not kept here
   * (undefined: always written as a differing value, which the encoder's last list and Recent keep
   * to one redacted text), so a template holds no credential however long it lives.
   */
  readonly names: readonly string[];
  readonly values: readonly (string | undefined)[];
  /** Per position, what its header adds to an entry's estimate; and all of them. */
  readonly sizes: readonly number[];
  readonly estimate: number;
  /**
   * How many lists in a row it wrote with a differing value that was the last list's again: at
   * SETTLED of them it is out of date and made again. Not at the first, nor soon: requests of two
   * kinds with the same names come in any order from many clients (two bodies' Content-Lengths), and
   * at 4 in a row a mixed load had its template made again 150 times a second (new lists, an entry
   * taken each time: a tenth of the journal's work).
   */
  settled: number;
}
/** Lists in a row whose differing values settled before their template is made again (see Template.settled). */
const SETTLED = 64;

/**
 * The texts a journal's records repeat that are not the mock's constants: a client's Host,
 * Content-Type or User-Agent, a credential's scheme once redacted, a window's limit and reset, the
 * Date of this second. A text is entered on its second sighting in a row at the same place in a
 * header list, so a value that never repeats (a request id, a window's remaining count) is copied
 * and never entered; a record refers to an entry by its index. Each journal has its own, bounded: an
 * entry is given to another text only once no record kept refers to it (the newest that did is
 * older than the oldest kept), so a record reads back what it was written with; when none is free
 * among the few it looks at (a client repeating many texts), the text is copied.
 */
class Recent<T> {
  /** The texts (or lists) entered, by index. */
  readonly texts: T[];
  /**
   * Per entry, side by side: the newest record that refers to it (0: none), and how many texts it
   * has held (so that a place that remembers an entry knows whether it still holds its text).
   */
  readonly numbers: Float64Array;
  #cursor = 0;

  constructor(
    readonly size: number,
    empty: T,
  ) {
    this.texts = new Array<T>(size).fill(empty);
    this.numbers = new Float64Array(2 * size);
  }

  /** Enters `text` for the record `id`; answers its index, or -1 when every entry looked at is still referred to. */
  enter(text: T, id: number, oldestId: number): number {
    const index = this.vacancy(oldestId);
    if (index >= 0) this.fill(index, text, id);
    return index;
  }

  /** An entry no record kept refers to, among the few it looks at; -1: none. */
  vacancy(oldestId: number): number {
    const numbers = this.numbers;
    for (let tries = 0; tries < RECENT_TRIES; tries += 1) {
      const index = this.#cursor;
      this.#cursor = index + 1 === this.size ? 0 : index + 1;
      if ((numbers[2 * index] ?? 0) < oldestId) return index;
    }
    return -1;
  }

  /** Gives the entry at `index` (a vacancy) to `text`, for the record `id`. */
  fill(index: number, text: T, id: number): void {
    const numbers = this.numbers;
    this.texts[index] = text;
    numbers[2 * index] = id;
    numbers[2 * index + 1] = (numbers[2 * index + 1] ?? 0) + 1;
  }
}
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

/** The u32 a text is written as by the table (TABLED | its index), entered there if there is room; -1: not tabled. */
function tableCode(text: string): number {
  let index = table.get(text);
  if (index === undefined) {
    if (tableTexts.length >= TABLE_LIMIT || text.length > TABLE_TEXT_LIMIT) return -1;
    index = tableTexts.length;
    tableTexts.push(text);
    table.set(text, index);
  }
  return (TABLED | index) >>> 0;
}

/** What the journal makes of a header name, worked out once per name. */
interface NameInfo {
  /** The name as kept: cut at HEADER_NAME_LIMIT. */
  readonly shown: string;
  /** Its table code, or -1: written as text. */
  readonly code: number;
  /** Cut: its list's pointer says so. */
  readonly cut: boolean;
  /** A credential: its value is kept redacted (its scheme only), never as sent. */
  readonly secret: boolean;
  /** Its values change from answer to answer: a reply's are copied, never tabled. */
  readonly varying: boolean;
}

/** Header names as seen, each worked out once: at most TABLE_LIMIT of them. */
const NAMES = new Map<string, NameInfo>();

function nameInfo(name: string): NameInfo {
  const known = NAMES.get(name);
  if (known !== undefined) return known;
  const cut = name.length > HEADER_NAME_LIMIT;
  const shown = cut ? `${name.slice(0, HEADER_NAME_LIMIT)}…` : name;
  const info = { shown, code: tableCode(shown), cut, secret: isSecret(name), varying: VARYING.has(shown) };
  if (NAMES.size < TABLE_LIMIT) NAMES.set(name, info);
  return info;
}

/** A value's code when it is copied: no table takes it. */
const COPIED = -1;
/** A value's code when it was seen once at its place: entered in the journal's Recent if seen again. */
const ONCE = -2;

/** What Seen keeps of a position, side by side in its numbers. */
const SEEN_FIELDS = 4;
/** The name's table code, or -1: written as text (Seen.shownNames). */
const NAME_CODE = 0;
/** What the name is: NAME_CUT, NAME_SECRET, NAME_VARYING. */
const NAME_FLAGS = 1;
/** The code the value was written with: a table's, COPIED or ONCE. */
const VALUE_CODE = 2;
/** When it is a Recent code: the generation of that entry then. */
const GENERATION = 3;
const NAME_CUT = 1;
const NAME_SECRET = 2;
const NAME_VARYING = 4;

/**
 * The last header list of a kind, position by position: each name and value as sent, and side by
 * side in one array of numbers what the name is and the code the value was written with; a list like
 * the last touches these two arrays and no object of its own.
 */
class Seen {
  /** Per position: the name as sent, then the value as sent. */
  readonly texts: (string | undefined)[] = new Array<string | undefined>(2 * HEADERS_LIMIT).fill(undefined);
  readonly numbers = new Float64Array(SEEN_FIELDS * HEADERS_LIMIT);
  /** Per position: the name as kept (cut). */
  readonly shownNames: string[] = new Array<string>(HEADERS_LIMIT).fill('');
  /** How many headers the last list had. */
  count = -1;
  /**
   * The templates lists of this kind are written by (see Template), by key: a request's by its length
   * of list, a reply's by its status and length (the mock's answers of two kinds alternate, and two
   * kinds of the same length, a 201 and a 401, seldom share a status).
   */
  readonly templates = new Map<number, Template>();
  /** While a list is written by its template: whether a value differing from it was the last list's again. */
  settled = false;
  /** A reply's list: its constant values go by the table (a request's never do: a credential, a cookie). */
  constructor(readonly tables: boolean) {}
}

/** The first `count` names of a list of names and values alternating (as Node's rawHeaders). */
function listNames(list: readonly string[], count: number): string[] {
  const names: string[] = [];
  for (let i = 0; i < count; i += 1) names.push(list[2 * i] ?? '');
  return names;
}

/** The first `count` values of a list of names and values alternating. */
function listValues(list: readonly string[], count: number): string[] {
  const values: string[] = [];
  for (let i = 0; i < count; i += 1) values.push(list[2 * i + 1] ?? '');
  return values;
}

/**
 * Writes what an exchange keeps beyond its record's fields into the scratch area: path, request
 * headers, request body, reply headers, reply body, then the pointers of the fields cut. Each number
 * is 4 bytes, little-endian; each text its length in bytes then its UTF-8 (or its index in the table,
 * the length's high bit set).
 */
class Encoder {
  /** Where the next byte goes. */
  #at = 0;
  /** The entry's estimated size as JSON, counted as it is written. */
  estimate = 0;
  /** The path as the last record kept it (cut). */
  path = '';
  /**
   * The pointers of the fields this record cut, the first `#cuts` of them (written over from the
   * start for each record: no array's length set per record, which is a call into the runtime).
   */
  readonly #truncated: string[] = [];
  #cuts = 0;
  readonly #bodyRoom: Uint8Array;
  /** The same bytes as a Node Buffer, where there is one. */
  readonly #nodeView: NodeBufferView | undefined;
  /** The same bytes, for its numbers (little-endian). */
  readonly #view: DataView;
  readonly #requestSeen = new Seen(false);
  readonly #replySeen = new Seen(true);
  readonly #store: Store;
  readonly bytes: Uint8Array;
  /** Where the body room begins: past the ring and the room for the largest record. */
  readonly #roomAt: number;

  constructor(store: Store) {
    this.#store = store;
    this.bytes = store.bytes;
    this.#roomAt = store.ringBytes + ENTRY_MAX_BYTES;
    this.#bodyRoom = store.bytes.subarray(this.#roomAt);
    this.#view = new DataView(store.bytes.buffer, store.bytes.byteOffset, store.bytes.byteLength);
    this.#nodeView = nodeBuffer?.from(store.bytes.buffer, store.bytes.byteOffset, store.bytes.byteLength);
  }

  /**
   * Encodes the exchange at `start` (in the ring, or the scratch area's start); answers its length in
   * bytes, at most ENTRY_MAX_BYTES (so it never reaches the body room). Not `whole`: its headers and
   * bodies are left out (a record whose bytes nobody will read; its entry shows its path and what was
   * cut of it).
   */
  encode(exchange: Exchange, whole: boolean, start: number): number {
    this.#at = start;
    this.estimate = ENTRY_BASE_ESTIMATE;
    this.#cuts = 0;
    if (exchange.method.length > METHOD_LIMIT) this.#note('/method');
    const path = pathOf(exchange.target);
    if (path !== exchange.target) this.#note('/path');
    this.path = path;
    this.text(path);
    this.estimate += path.length;
    if (whole) {
      this.requestHeaders(exchange.requestHeaders);
      this.body(exchange.requestBody, '/request/body');
      this.replyHeaders(exchange.reply.headers, exchange.reply.status);
      this.replyBody(exchange.reply.body);
    } else {
      this.requestHeaders([]);
      this.body(undefined, '');
      this.replyHeaders({}, 0);
      this.body(undefined, '');
    }
    const cuts = this.#cuts;
    this.u32(cuts);
    for (let i = 0; i < cuts; i += 1) this.text(this.#truncated[i] ?? '');
    const length = this.#at - start;
    // Past its room a record is written over the body room, and past the buffer's end a typed array
    // drops what is written: the bound above was wrong.
    if (length > ENTRY_MAX_BYTES) throw new RangeError(`a journal record of ${length} bytes`);
    return length;
  }

  /** Notes a field this record cut. */
  #note(pointer: string): void {
    this.#truncated[this.#cuts] = pointer;
    this.#cuts += 1;
  }

  /** Cuts `text` at `limit` characters, noting `pointer` when it does. */
  #cut(text: string, limit: number, pointer: string): string {
    if (text.length <= limit) return text;
    this.#note(pointer);
    return `${text.slice(0, limit)}…`;
  }

  u32(value: number): void {
    const at = this.#at;
    this.#view.setUint32(at, value, true);
    this.#at = at + 4;
  }

  /** A text as its length in bytes, then its UTF-8 bytes: ASCII copied a character at a time, the rest encoded. */
  text(text: string): void {
    const start = this.#at;
    const at = writeUtf8(text, this.bytes, start + 4);
    this.#view.setUint32(start, at - start - 4, true);
    this.#at = at;
  }

  /**
   * One header: its name (cut, and by the table), then its value (see #value). What a name is (kept
   * as, tabled as, secret, varying) is looked up once per name; `seen` remembers the last list's
   * header at this position and the code its value was written with, so a list like the last (the
   * mock's replies; a client's requests, the same names in the same order, mostly the same values)
   * costs a comparison per header, not a lookup or a copy. Answers whether the name was cut.
   */
  header(name: string, value: string, pointer: string, seen: Seen, position: number): boolean {
    if (seen.texts[2 * position] !== name) this.#name(name, seen, position);
    const n = position * SEEN_FIELDS;
    const nameCode = seen.numbers[n + NAME_CODE] ?? -1;
    if (nameCode < 0) this.text(seen.shownNames[position] ?? '');
    else this.u32(nameCode);
    this.#value(value, pointer, seen, position, seen.texts[2 * position + 1] === value);
    return ((seen.numbers[n + NAME_FLAGS] ?? 0) & NAME_CUT) !== 0;
  }

  /** Remembers the name now at this position and what it is; its value is not yet seen. */
  #name(name: string, seen: Seen, position: number): void {
    const info = nameInfo(name);
    const n = position * SEEN_FIELDS;
    seen.texts[2 * position] = name;
    seen.texts[2 * position + 1] = undefined;
    seen.shownNames[position] = info.shown;
    seen.numbers[n + NAME_CODE] = info.code;
    seen.numbers[n + NAME_FLAGS] =
      (info.cut ? NAME_CUT : 0) | (info.secret ? NAME_SECRET : 0) | (info.varying ? NAME_VARYING : 0);
  }

  /**
   * A header's value, its name already remembered at this position: cut (a credential's redacted,
   * and never cut: its scheme is short); a reply's constant values by the table, values that repeat
   * by the journal's Recent.
   */
  #value(value: string, pointer: string, seen: Seen, position: number, again: boolean): void {
    const texts = seen.texts;
    const numbers = seen.numbers;
    const n = position * SEEN_FIELDS;
    const flags = numbers[n + NAME_FLAGS] ?? 0;
    const shownName = seen.shownNames[position] ?? '';
    const secret = (flags & NAME_SECRET) !== 0;
    const length = value.length;
    let code: number;
    if (again) {
      code = numbers[n + VALUE_CODE] ?? ONCE;
      if (code >= RECENT && code < TABLED) code = this.#again(code, value, secret, seen, n);
      else if (code === ONCE) code = this.#enter(secret ? redacted(value) : value, seen, n);
    } else {
      texts[2 * position + 1] = value;
      // A constant of the mock's own (≤ TABLE_TEXT_LIMIT characters, so never cut): by the table.
      code =
        seen.tables && (flags & NAME_VARYING) === 0 && length <= TABLE_TEXT_LIMIT ? tableCode(value) : ONCE;
      numbers[n + VALUE_CODE] = code;
    }
    if (code >= 0) {
      this.u32(code);
      const shownLength = secret ? textOf(code, this.#store.recent.texts).length : length;
      this.estimate += shownName.length + shownLength + 3;
      return;
    }
    const shown = secret
      ? redacted(value)
      : length <= HEADER_VALUE_LIMIT
        ? value
        : this.#cut(value, HEADER_VALUE_LIMIT, `${pointer}/${escapePointer(shownName.toLowerCase())}`);
    this.text(shown);
    this.estimate += shownName.length + shown.length + 3;
  }

  /** The Recent entry a position's value was written with, if it still holds it (else entered again), for this record too. */
  #again(code: number, value: string, secret: boolean, seen: Seen, n: number): number {
    const numbers = this.#store.recent.numbers;
    const index = code - RECENT;
    if (numbers[2 * index + 1] !== seen.numbers[n + GENERATION])
      return this.#enter(secret ? redacted(value) : value, seen, n);
    numbers[2 * index] = this.#store.nextId;
    return code;
  }

  /** Enters a value seen again at its place (a credential's redacted) in Recent; COPIED if it is too long, ONCE if no entry is free. */
  #enter(text: string, seen: Seen, n: number): number {
    let code = COPIED;
    if (text.length <= TABLE_TEXT_LIMIT) {
      const store = this.#store;
      const index = store.recent.enter(text, store.nextId, store.oldestId);
      code = index < 0 ? ONCE : (RECENT | index) >>> 0;
      if (index >= 0) seen.numbers[n + GENERATION] = store.recent.numbers[2 * index + 1] ?? 0;
    }
    seen.numbers[n + VALUE_CODE] = code;
    return code;
  }

  /** The template for a list of `count` headers of this kind, if there is one and its entry is still its own. */
  #template(seen: Seen, key: number): Template | undefined {
    const template = seen.templates.get(key);
    if (template === undefined) return undefined;
    const lists = this.#store.lists;
    if (lists.numbers[2 * template.index + 1] === template.generation) return template;
    seen.templates.delete(key);
    return undefined;
  }

  /** Where a list written by its template began, to go back there when its names turn out not the template's. */
  #listAt = 0;
  #listEstimate = 0;
  #listCuts = 0;

  /**
   * Begins a list written by its template: the count (flagged), the template's index, room for the
   * mask. Answers where the mask goes.
   */
  #openTemplated(template: Template, count: number, seen: Seen): number {
    this.#listAt = this.#at;
    this.#listEstimate = this.estimate;
    this.#listCuts = this.#cuts;
    seen.settled = false;
    this.u32((TEMPLATED | count) >>> 0);
    this.u32(template.index);
    const maskAt = this.#at;
    this.#at = maskAt + 4;
    this.estimate += template.estimate;
    return maskAt;
  }

  /**
   * A header of a list written by its template, at this position: nothing when its value is the
   * template's, else the value (its name is the template's). Answers the position's bit for the
   * mask (0: the template's value), and notes in `seen.settled` a value that differs from the
   * template's but is the last list's again (the template is out of date).
   */
  #differing(
    template: Template,
    name: string,
    value: string,
    pointer: string,
    seen: Seen,
    position: number,
  ): number {
    const expected = template.values[position];
    if (value === expected) return 0;
    let again = false;
    if (seen.texts[2 * position] !== name) this.#name(name, seen, position);
    else {
      again = seen.texts[2 * position + 1] === value;
      if (again && expected !== undefined) seen.settled = true;
    }
    this.estimate -= template.sizes[position] ?? 0;
    this.#value(value, pointer, seen, position, again);
    return 1 << position;
  }

  /** After a list written by its template: whether the template is out of date (see Template.settled). */
  #outOfDate(seen: Seen, template: Template): boolean {
    if (!seen.settled) {
      template.settled = 0;
      return false;
    }
    template.settled += 1;
    return template.settled >= this.#store.settledLists;
  }

  /** Forgets a list begun by its template: back to where it began. */
  #rewind(): void {
    this.#at = this.#listAt;
    this.estimate = this.#listEstimate;
    this.#cuts = this.#listCuts;
  }

  /** Ends a list written by its template: the mask, and its entry kept for this record too. */
  #closeTemplated(template: Template, maskAt: number, mask: number): void {
    this.#view.setUint32(maskAt, mask >>> 0, true);
    const store = this.#store;
    store.lists.numbers[2 * template.index] = store.nextId;
  }

  /**
   * After a list written header by header: when it was the last list again name for name (and no
   * name or value was cut), or after one written by an out-of-date template, it becomes the
   * template for lists of its key, if the journal has room for it.
   */
  #retemplate(
    seen: Seen,
    key: number,
    count: number,
    names: readonly string[],
    values: readonly string[],
  ): void {
    const store = this.#store;
    const index = store.lists.vacancy(store.oldestId);
    if (index < 0) return;
    const shownNames: string[] = [];
    const shownValues: string[] = [];
    const compared: (string | undefined)[] = [];
    const sizes: number[] = [];
    let estimate = 0;
    for (let position = 0; position < count; position += 1) {
      // What each name is, from the name itself: `seen` is not the list's at the positions a
      // template wrote (only those that differed from it were remembered).
      const info = nameInfo(names[position] ?? '');
      const value = values[position] ?? '';
      if (info.cut) return;
      const shown = info.secret ? redacted(value) : value;
      if (shown.length > HEADER_VALUE_LIMIT) return;
      const shownName = info.shown;
      shownNames.push(shownName);
      shownValues.push(shown);
      compared.push(info.secret ? undefined : value);
      const size = shownName.length + shown.length + 3;
      sizes.push(size);
      estimate += size;
    }
    store.lists.fill(index, { names: shownNames, values: shownValues }, store.nextId);
    const generation = store.lists.numbers[2 * index + 1] ?? 0;
    // No more templates than the journal's lists hold (those past it have lost their entry): the
    // oldest made goes (a mock answering with many statuses, each of a few lengths).
    const templates = seen.templates;
    if (templates.size >= store.lists.size && !templates.has(key)) {
      const oldest = templates.keys().next();
      if (oldest.done !== true) templates.delete(oldest.value);
    }
    templates.set(key, { index, generation, names, values: compared, sizes, estimate, settled: 0 });
  }

  /** A request's headers, names and values alternating (as Node's rawHeaders): at most HEADERS_LIMIT. */
  requestHeaders(list: readonly string[]): void {
    const count = Math.min(list.length >> 1, HEADERS_LIMIT);
    const seen = this.#requestSeen;
    const over = list.length >> 1 > HEADERS_LIMIT;
    const template = over ? undefined : this.#template(seen, count);
    if (template !== undefined) {
      const maskAt = this.#openTemplated(template, count, seen);
      let mask = 0;
      let position = 0;
      for (; position < count; position += 1) {
        const name = list[2 * position] ?? '';
        if (name !== template.names[position]) break;
        mask |= this.#differing(
          template,
          name,
          list[2 * position + 1] ?? '',
          '/request/headers',
          seen,
          position,
        );
      }
      if (position === count) {
        this.#closeTemplated(template, maskAt, mask);
        seen.count = count;
        if (this.#outOfDate(seen, template))
          this.#retemplate(seen, count, count, listNames(list, count), listValues(list, count));
        return;
      }
      // A name not the template's: this list is written header by header after all.
      this.#rewind();
    }
    this.u32(count);
    let namesCut = false;
    let again = count === seen.count;
    let same = 0;
    for (let i = 0; i < count; i += 1) {
      const name = list[2 * i] ?? '';
      const value = list[2 * i + 1] ?? '';
      if (seen.texts[2 * i] !== name) again = false;
      else if (seen.texts[2 * i + 1] === value) same += 1;
      if (this.header(name, value, '/request/headers', seen, i)) namesCut = true;
    }
    seen.count = count;
    if (namesCut || over) this.#note('/request/headers');
    // A client's requests of one kind are alike: the first of a length with no template becomes its
    // template (a client whose requests of two kinds alternate, with and without a body, has one for
    // each), or one like the last.
    else if (count > 0 && (template === undefined || (again && 2 * same >= count)))
      this.#retemplate(seen, count, count, listNames(list, count), listValues(list, count));
  }

  /**
   * A reply's headers, the mock's constant values by the table: at most HEADERS_LIMIT. By the
   * template of its status and length when it has one with the same names (counting them first
   * costs less than walking a template of another kind of reply, as the mock's answers to different
   * operations alternate).
   */
  replyHeaders(headers: Readonly<Record<string, string>>, status: number): void {
    const seen = this.#replySeen;
    let all = 0;
    for (const _name in headers) all += 1;
    const last = seen.count;
    const key = (status & 0x3ff) * (HEADERS_LIMIT + 1) + all;
    const template = all > HEADERS_LIMIT ? undefined : this.#template(seen, key);
    if (template !== undefined) {
      const count = all;
      const maskAt = this.#openTemplated(template, count, seen);
      let mask = 0;
      let position = 0;
      for (const name in headers) {
        if (name !== template.names[position]) break;
        mask |= this.#differing(template, name, headers[name] ?? '', '/response/headers', seen, position);
        position += 1;
      }
      if (position === count) {
        this.#closeTemplated(template, maskAt, mask);
        seen.count = count;
        if (this.#outOfDate(seen, template))
          this.#retemplate(seen, key, count, Object.keys(headers), Object.values(headers));
        return;
      }
      // Not the template's names: this list is written header by header after all.
      this.#rewind();
    }
    const countAt = this.#at;
    this.#at += 4;
    let count = 0;
    let cut = false;
    let alike = true;
    let same = 0;
    for (const name in headers) {
      if (count === HEADERS_LIMIT) {
        cut = true;
        break;
      }
      const value = headers[name] ?? '';
      if (seen.texts[2 * count] !== name) alike = false;
      else if (seen.texts[2 * count + 1] === value) same += 1;
      if (this.header(name, value, '/response/headers', seen, count)) cut = true;
      count += 1;
    }
    this.#view.setUint32(countAt, count, true);
    seen.count = count;
    if (cut) this.#note('/response/headers');
    // The mock's replies of one kind are alike: the first of a status and length with no template
    // becomes its template (another kind of the same is then written header by header), or one like the last.
    else if (count > 0 && (template === undefined || (alike && count === last && 2 * same >= count)))
      this.#retemplate(seen, key, count, Object.keys(headers), Object.values(headers));
  }

  /**
   * A body's first BODY_EXCERPT_LIMIT bytes: a flag (0: none, 1: whole, 2: cut), its whole size in
   * bytes, and the bytes kept. A text is encoded in place, and only its excerpt is kept.
   */
  body(body: string | Uint8Array | null | undefined, pointer: string): void {
    const into = this.bytes;
    if (body === null || body === undefined || (typeof body !== 'string' && body.byteLength === 0)) {
      into[this.#at] = NO_BODY;
      this.#at += 1;
      return;
    }
    const head = this.#at;
    const data = head + 9;
    let size: number;
    if (typeof body === 'string') {
      size = this.#native(body, data);
      if (size < 0) size = this.#encoded(body, data);
    } else {
      size = body.byteLength;
      into.set(body.byteLength <= BODY_EXCERPT_LIMIT ? body : body.subarray(0, BODY_EXCERPT_LIMIT), data);
    }
    const kept = Math.min(size, BODY_EXCERPT_LIMIT);
    if (kept < size) this.#note(pointer);
    into[head] = kept < size ? CUT_BODY : WHOLE_BODY;
    this.#at = head + 1;
    this.u32(size);
    this.u32(kept);
    this.#at = data + kept;
    this.estimate += kept;
  }

  /**
   * Reply bodies seen lately: bytes by identity (the store's cached list pages come again and
   * again), short texts by value (a stored pet's JSON, an Error of the same fault made again).
   */
  readonly #bodies = new Array<Uint8Array | string | undefined>(BODIES_SEEN).fill(undefined);
  /**
   * Per body seen: the excerpt entry it was written with (ONCE: seen once, copied), that entry's
   * generation then, and its size in bytes (for a text: counted when entered).
   */
  readonly #bodyCodes = new Float64Array(3 * BODIES_SEEN).fill(ONCE);
  #bodyCursor = 0;
  /** The size in bytes of the body #excerptOf last found. */
  #seenSize = 0;

  /**
   * A reply's body: as body() writes it, but a body seen before (the same bytes, or a short text
   * again) by reference to its excerpt, kept once as text in the journal's excerpts, not copied per
   * record.
   */
  replyBody(body: string | Uint8Array | null): void {
    const index =
      body === null ||
      (typeof body === 'string'
        ? body.length === 0 || body.length > TEXT_SEEN_LIMIT
        : body.byteLength === 0 || body.byteLength > BODY_SEEN_LIMIT)
        ? -1
        : this.#excerptOf(body);
    if (index < 0) {
      this.body(body, '/response/body');
      return;
    }
    const size = this.#seenSize;
    const kept = Math.min(size, BODY_EXCERPT_LIMIT);
    if (kept < size) this.#note('/response/body');
    this.bytes[this.#at] = SAME_BODY;
    this.#at += 1;
    this.u32(size);
    this.u32(kept);
    this.u32(index);
    this.estimate += kept;
  }

  /**
   * The excerpts entry of a body seen before, entered on its second sighting (a body seen once is only
   * remembered); -1: copy it (seen once, or no entry free). Its size in bytes in #seenSize.
   */
  #excerptOf(body: Uint8Array | string): number {
    const seen = this.#bodies;
    const codes = this.#bodyCodes;
    let i = 0;
    while (i < BODIES_SEEN && seen[i] !== body) i += 1;
    if (i === BODIES_SEEN) {
      // Remembered in place of one seen only once (a created pet's body never comes again), if any
      // is, before one entered: those that repeat stay.
      i = this.#bodyCursor;
      for (let tries = 0; tries < BODIES_SEEN && codes[3 * i] !== ONCE; tries += 1)
        i = i + 1 === BODIES_SEEN ? 0 : i + 1;
      this.#bodyCursor = i + 1 === BODIES_SEEN ? 0 : i + 1;
      seen[i] = body;
      codes[3 * i] = ONCE;
      return -1;
    }
    const store = this.#store;
    const excerpts = store.excerpts;
    const known = codes[3 * i] ?? ONCE;
    if (known >= 0 && excerpts.numbers[2 * known + 1] === codes[3 * i + 1]) {
      excerpts.numbers[2 * known] = store.nextId;
      this.#seenSize = codes[3 * i + 2] ?? 0;
      return known;
    }
    // Its excerpt as the copy would show it: a text's UTF-8 decoded again (a lone surrogate shown as
    // U+FFFD, as written), bytes' first BODY_EXCERPT_LIMIT.
    const bytes = typeof body === 'string' ? encoder.encode(body) : body;
    const text = decoder.decode(
      bytes.byteLength <= BODY_EXCERPT_LIMIT ? bytes : bytes.subarray(0, BODY_EXCERPT_LIMIT),
    );
    const index = excerpts.enter(text, store.nextId, store.oldestId);
    codes[3 * i] = index < 0 ? ONCE : index;
    codes[3 * i + 1] = index < 0 ? 0 : (excerpts.numbers[2 * index + 1] ?? 0);
    codes[3 * i + 2] = bytes.byteLength;
    this.#seenSize = bytes.byteLength;
    return index;
  }

  /**
   * With Node's Buffer: the excerpt written natively at `at` and the size counted, neither encoding
   * the whole body. Its size, or -1 when the excerpt ends inside a character (Buffer writes whole
   * characters only; the journal keeps a cut character's first bytes).
   */
  #native(body: string, at: number): number {
    const view = this.#nodeView;
    if (view === undefined || nodeBuffer === undefined) return -1;
    const written = view.utf8Write(body, at, BODY_EXCERPT_LIMIT);
    // Short of the limit by more than a character's bytes: the whole body was written.
    if (written < BODY_EXCERPT_LIMIT - 3) return written;
    const size = nodeBuffer.byteLength(body, 'utf8');
    return written === BODY_EXCERPT_LIMIT || written === size ? size : -1;
  }

  /** Elsewhere: the body encoded in the body room (its size counted natively), the excerpt copied from there. */
  #encoded(body: string, at: number): number {
    const into = this.bytes;
    const encoded = encoder.encodeInto(body, this.#bodyRoom);
    if (encoded.read === body.length) {
      const roomAt = this.#roomAt;
      into.copyWithin(at, roomAt, roomAt + Math.min(encoded.written, BODY_EXCERPT_LIMIT));
      return encoded.written;
    }
    const bytes = encoder.encode(body);
    into.set(bytes.subarray(0, BODY_EXCERPT_LIMIT), at);
    return bytes.byteLength;
  }
}

/** The text a table's code stands for: the mock's table, or the journal's Recent. */
function textOf(code: number, recent: readonly string[]): string {
  return (code >= TABLED ? tableTexts[code - TABLED] : recent[code - RECENT]) ?? '';
}

/** Reads a record's bytes back, in the order the Encoder wrote them. */
class Reader {
  #at: number;
  readonly bytes: Uint8Array;
  readonly #recent: readonly string[];
  readonly #lists: readonly HeaderList[];
  readonly #excerpts: readonly string[];
  constructor(store: Store, at: number) {
    this.bytes = store.bytes;
    this.#recent = store.recent.texts;
    this.#lists = store.lists.texts;
    this.#excerpts = store.excerpts.texts;
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
    if (length >= RECENT) return textOf(length, this.#recent);
    const at = this.#at;
    this.#at += length;
    return decoder.decode(this.bytes.subarray(at, at + length));
  }
  headers(): string[] {
    const list: string[] = [];
    const count = this.u32();
    if (count >= TEMPLATED) {
      // By its template: the template's names, and its values but where the mask says otherwise.
      const template = this.#lists[this.u32()] ?? NO_LIST;
      const mask = this.u32();
      for (let position = 0; position < count - TEMPLATED; position += 1) {
        const differs = ((mask >>> position) & 1) === 1;
        list.push(template.names[position] ?? '', differs ? this.text() : (template.values[position] ?? ''));
      }
      return list;
    }
    for (let left = count; left > 0; left -= 1) list.push(this.text(), this.text());
    return list;
  }
  body(): BodyExcerpt | null {
    const flag = this.bytes[this.#at] ?? NO_BODY;
    this.#at += 1;
    if (flag === NO_BODY) return null;
    const size = this.u32();
    const kept = this.u32();
    if (flag === SAME_BODY) {
      const text = this.#excerpts[this.u32()] ?? '';
      return { text: kept < size ? `${text}…` : text, bytes: size };
    }
    const at = this.#at;
    this.#at += kept;
    const text = decoder.decode(this.bytes.subarray(at, at + kept));
    return { text: flag === CUT_BODY ? `${text}…` : text, bytes: size };
  }
}

function readExchange(store: Store, offset: number) {
  const reader = new Reader(store, offset);
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

/** `Bearer demo-free` → `Bearer [redacted]`: the scheme is kept, what follows never (nor is it kept in the journal's bytes). */
function redacted(value: string): string {
  const scheme = /^[A-Za-z][A-Za-z0-9._~+/-]{0,20}(?= )/.exec(value.trim());
  return scheme === null ? '[redacted]' : `${scheme[0]} [redacted]`;
}

const escapePointer = (name: string): string => name.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * Lower-case names; a field sent on two lines shows both values, joined with ", " as a Headers
 * object joins them (RFC 9110 §5.3): the later alone hid the first (`Content-Type: application/json`
 * then `text/plain` showed text/plain). A name such as `__proto__` is a key like any other.
 */
function recordOf(list: readonly string[]): Record<string, string> {
  const fields = new Map<string, string>();
  for (let i = 0; i + 1 < list.length; i += 2) {
    const name = (list[i] ?? '').toLowerCase();
    const value = list[i + 1] ?? '';
    const before = fields.get(name);
    fields.set(name, before === undefined ? value : `${before}, ${value}`);
  }
  // Own properties, whatever their names (an assignment of `__proto__` set the object's prototype).
  return Object.fromEntries(fields);
}

/** An entry with the keys `mask` hides hidden in its path, header values and bodies' excerpts. */
function maskedEntry(entry: JournalEntry, mask: (text: string) => string): JournalEntry {
  const headers = (record: Readonly<Record<string, string>>) =>
    Object.fromEntries(Object.entries(record).map(([name, value]) => [name, mask(value)]));
  const body = (excerpt: BodyExcerpt | null) =>
    excerpt === null ? null : { ...excerpt, text: mask(excerpt.text) };
  return {
    ...entry,
    path: mask(entry.path),
    request: { headers: headers(entry.request.headers), body: body(entry.request.body) },
    response: { headers: headers(entry.response.headers), body: body(entry.response.body) },
  };
}

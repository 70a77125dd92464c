// The journal as a user reads it: what an entry says of a request (never the key), its bounds in
// entries and bytes with the cuts shown, and GET /__petkit/requests filtered and paged, DELETE to clear.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { MockCall } from './call.js';
import {
  BODY_EXCERPT_LIMIT,
  createJournal,
  type Exchange,
  JOURNAL_MAX_BYTES,
  type Journal,
  type JournalEntry,
  PATH_LIMIT,
} from './journal.js';
import { createMock } from './mock.js';
import { reply } from './responses.js';
import { checkedRequest, withKey } from './test-helpers.js';

/**
 * The property tests below take 1 to 6 s each on an idle two-core machine and came past vitest's 20 s on
 * one running other tests: a bound for a hang, not a speed target.
 */
const PROPERTY_TIMEOUT_MS = 60_000;

const NOW = Date.UTC(2030, 0, 1, 12, 0, 30);
const fresh = (options: Parameters<typeof createMock>[0] = {}) =>
  createMock({ clock: () => NOW, ...options });

/**
 * A GET handed straight to the core (`mock.answer`), as an adapter of one's own may: the doors
 * (mock.request, MSW, the server) answer a head over 16 KiB 431 before the core (request-head.ts),
 * but the core itself bounds what it keeps of any call.
 */
const coreCall = (target: string, headers: Headers): MockCall => ({
  method: 'GET',
  url: new URL(target, 'http://petkit.local'),
  header: (name) => headers.get(name),
  rawHeaders: () => [...headers].flat(),
  body: { present: false, read: async () => new Uint8Array(0) },
  clientAddress: undefined,
});

interface Page {
  entries: JournalEntry[];
  total: number;
  next: string | null;
  dropped: number;
}
/** An exchange as the core hands the journal one: a list of pets with a key, answered 200, unless told otherwise. */
const exchangeOf = (overrides: Partial<Exchange> = {}): Exchange => ({
  time: NOW,
  method: 'GET',
  target: '/v1/pets?limit=2',
  operationId: 'listPets',
  key: undefined,
  requestHeaders: ['Authorization', 'Bearer demo-free'],
  requestBody: undefined,
  reply: reply(200, '[]'),
  delayMs: 0,
  durationMs: 0,
  ...overrides,
});
/** Steps of `arbitrary`, weighted, with a clear of the journal now and then. */
const orClear = <Step>(arbitrary: fc.Arbitrary<Step>, weight: number) =>
  fc.oneof({ arbitrary, weight }, { arbitrary: fc.constant('clear' as const), weight: 1 });
/** One exchange through a journal of its own, as a reader then sees it. */
const entryOf = (exchange: Exchange): JournalEntry => createJournal().record(exchange).entry();
/**
 * Records an exchange per step (or clears), and after each reads every record kept back: each must
 * be what a journal of its own showed of its exchange.
 */
function readsBackAsWritten<Step>(
  journal: Journal,
  steps: readonly (Step | 'clear')[],
  exchangeFor: (step: Step) => Exchange,
): void {
  const expected = new Map<number, JournalEntry>();
  for (const step of steps) {
    if (step === 'clear') {
      journal.clear();
      continue;
    }
    const exchange = exchangeFor(step);
    const kept = journal.record(exchange);
    expected.set(kept.id, { ...entryOf(exchange), id: kept.id });
    for (const record of journal.records()) expect(record.entry()).toEqual(expected.get(record.id));
  }
}
const page = async (mock: ReturnType<typeof createMock>, query = '') =>
  (await checkedRequest(mock, `/__petkit/requests${query}`)).json as Page;

describe('journal entries', () => {
  it('say method, target, status, code, forced, key name and plan, headers (Authorization redacted) and bodies', async () => {
    const lines: string[] = [];
    const mock = fresh({ logger: { info: (line) => lines.push(line), error: () => undefined } });
    await checkedRequest(mock, '/v1/pets', withKey('demo-pro', { json: { name: 'Rex', categoryId: 2 } }));
    await checkedRequest(mock, '/v1/pets?limit=1', withKey('demo-free', { headers: { prefer: 'code=500' } }));
    await checkedRequest(mock, '/v1/pets', { headers: { authorization: 'Bearer sk_live_secret' } });
    const [created, forced, wrongKey] = mock.journal;
    expect(created).toMatchObject({
      id: 1,
      time: NOW,
      method: 'POST',
      path: '/v1/pets',
      operationId: 'createPet',
      status: 201,
      code: null,
      forced: false,
      delayMs: 0,
      durationMs: 0,
      key: { name: 'demo-pro', plan: 'pro' },
      truncated: [],
    });
    expect(created?.request.headers).toMatchObject({
      authorization: 'Bearer [redacted]',
      'content-type': 'application/json',
    });
    expect(created?.request.body).toEqual({ text: '{"name":"Rex","categoryId":2}', bytes: 29 });
    expect(created?.response.headers.location).toBe('/v1/pets/51');
    expect(JSON.parse(created?.response.body?.text ?? '')).toMatchObject({ id: 51, name: 'Rex' });
    expect(forced).toMatchObject({
      status: 500,
      code: 'internal_error',
      forced: true,
      key: { name: 'demo-free' },
    });
    expect(wrongKey).toMatchObject({ status: 401, code: 'invalid_api_key', key: null });
    const text = JSON.stringify(mock.journal);
    expect(text).not.toContain('sk_live_secret');
    expect(text).not.toContain('Bearer demo');
    expect(lines).toEqual([
      'POST /v1/pets 201 0ms',
      'GET /v1/pets?limit=1 500 internal_error (forced) 0ms',
      'GET /v1/pets 401 invalid_api_key 0ms',
    ]);
  });

  it("keep a request's body as read even when it is refused, and none that was never read", async () => {
    const mock = fresh();
    const post = (body: BodyInit, key = true): RequestInit => {
      const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body };
      return key ? withKey('demo-pro', init) : init;
    };
    await checkedRequest(mock, '/v1/pets', post('{"name":'));
    await checkedRequest(mock, '/v1/pets', post(new Uint8Array([0x7b, 0xff, 0x7d])));
    await checkedRequest(mock, '/v1/pets', post('{"name":"Rex","categoryId":2}', false));
    const [notJson, notUtf8, noKey] = mock.journal;
    expect(notJson).toMatchObject({ status: 400, code: 'malformed_json' });
    expect(notJson?.request.body).toEqual({ text: '{"name":', bytes: 8 });
    expect(notUtf8).toMatchObject({ status: 400, code: 'malformed_json' });
    expect(notUtf8?.request.body?.bytes).toBe(3);
    // Refused for its key before its body was read: the journal has no body to show.
    expect(noKey).toMatchObject({ status: 401, code: 'missing_api_key' });
    expect(noKey?.request.body).toBeNull();
  });
  it('cut long paths, header values and bodies, and say which', () => {
    const entry = entryOf({
      time: NOW,
      method: 'GET',
      target: `/v1/pets?x=${'a'.repeat(16_000)}`,
      operationId: 'listPets',
      key: undefined,
      requestHeaders: ['X-Big', 'b'.repeat(10_000)],
      requestBody: new Uint8Array(5_000).fill(65),
      reply: reply(200, '[]'),
      delayMs: 0,
      durationMs: 0,
    });
    expect(entry.path).toHaveLength(PATH_LIMIT + 1);
    expect(entry.path.endsWith('…')).toBe(true);
    expect(entry.request.body?.bytes).toBe(5_000);
    expect(entry.request.body?.text).toHaveLength(1025);
    expect(entry.truncated).toEqual(['/path', '/request/headers/x-big', '/request/body']);
  });
  it('counts a body’s size in UTF-8 bytes', () => {
    const entry = entryOf({
      time: NOW,
      method: 'GET',
      target: '/v1/pets/1',
      operationId: 'getPet',
      key: undefined,
      requestHeaders: [],
      requestBody: undefined,
      reply: reply(200, '{"name":"é€😀"}'),
      delayMs: 0,
      durationMs: 0,
    });
    expect(entry.response.body).toEqual({
      text: '{"name":"é€😀"}',
      bytes: new TextEncoder().encode('{"name":"é€😀"}').byteLength,
    });
  });

  it('cuts a long text body at BODY_EXCERPT_LIMIT bytes and counts all its bytes, however long', () => {
    for (const [text, bytes] of [
      ['é'.repeat(2_000), 4_000],
      [`${'a'.repeat(400_000)}€`, 400_003],
    ] as const) {
      const entry = entryOf({
        time: NOW,
        method: 'GET',
        target: '/v1/pets',
        operationId: 'listPets',
        key: undefined,
        requestHeaders: [],
        requestBody: undefined,
        reply: reply(200, text),
        delayMs: 0,
        durationMs: 0,
      });
      expect(entry.response.body).toEqual({
        text: `${text.slice(0, text.startsWith('é') ? 512 : 1024)}…`,
        bytes,
      });
      expect(entry.truncated).toEqual(['/response/body']);
    }
  });

  it(
    'keeps of any text body its first BODY_EXCERPT_LIMIT bytes of UTF-8 and counts them all, with or without Node’s Buffer',
    async () => {
      // Short ASCII bodies are copied, longer ones written by Buffer, and an excerpt that would end
      // inside a character (which Buffer does not write) encoded whole: every way, the same entry.
      const utf8 = new TextEncoder();
      const expected = (text: string) => {
        const bytes = utf8.encode(text);
        const cut = bytes.byteLength > BODY_EXCERPT_LIMIT;
        return {
          text: `${new TextDecoder().decode(bytes.subarray(0, BODY_EXCERPT_LIMIT))}${cut ? '…' : ''}`,
          bytes: bytes.byteLength,
        };
      };
      const piece = fc.oneof(
        fc.string({ unit: 'grapheme', maxLength: 40 }),
        fc.string({ unit: 'binary', maxLength: 8 }),
        fc.constantFrom('a'.repeat(250), 'a'.repeat(1_021), 'é', '€', '😀', '\ud800'),
      );
      const body = fc.array(piece, { maxLength: 40 }).map((pieces) => pieces.join(''));
      const withoutBuffer = async () => {
        // The journal as a browser loads it: no Buffer when its module is read.
        const buffer = globalThis.Buffer;
        Reflect.deleteProperty(globalThis, 'Buffer');
        try {
          const url = './journal.js?no-buffer';
          return await import(/* @vite-ignore */ url);
        } finally {
          globalThis.Buffer = buffer;
        }
      };
      const browser = (await withoutBuffer()) as typeof import('./journal.js');
      for (const create of [createJournal, browser.createJournal]) {
        const journal = create({ limit: 3 });
        fc.assert(
          fc.property(body, (text) => {
            const entry = journal.record(exchangeOf({ reply: reply(200, text) })).entry();
            expect(entry.response.body).toEqual(expected(text));
          }),
          { numRuns: 400, seed: 31 },
        );
      }
    },
    PROPERTY_TIMEOUT_MS,
  );
});

describe('a list answered again and again', () => {
  it('is excerpted the same in every entry, each cut and saying so, and each read its own', async () => {
    const mock = fresh();
    for (let i = 0; i < 3; i += 1) await checkedRequest(mock, '/v1/pets?limit=50', withKey('demo-free'));
    const bodies = mock.journal.map((entry) => entry.response.body);
    const [first] = bodies;
    expect(first?.text.endsWith('…')).toBe(true);
    expect(first?.text).toHaveLength(1025);
    for (const body of bodies) expect(body).toEqual(first);
    for (const entry of mock.journal) expect(entry.truncated).toEqual(['/response/body']);
    // Each read gets its own copy: changing one changes no other.
    const [one, two] = mock.journal;
    (one?.response.body as { text: string }).text = 'changed';
    expect(two?.response.body?.text).toBe(first?.text);
    expect(mock.journal[0]?.response.body?.text).toBe(first?.text);
  });
});

describe('journal bounds', () => {
  it('holds at most JOURNAL_MAX_BYTES of long requests, dropping the oldest and counting them', () => {
    const journal = createJournal({ limit: 1000 });
    const long = `/v1/${'p'.repeat(PATH_LIMIT)}`;
    for (let i = 0; i < 1000; i += 1) {
      journal.record({
        time: i,
        method: 'POST',
        target: long,
        operationId: null,
        key: undefined,
        requestHeaders: Array.from({ length: 40 }, (_, n) => [`x-h${n}`, 'v'.repeat(300)]).flat(),
        requestBody: new Uint8Array(16 * 1024).fill(66),
        reply: reply(404, `{"code":"route_not_found","message":"${'m'.repeat(2000)}","status":404}`),
        delayMs: 0,
        durationMs: 0,
      });
    }
    const kept = journal.entries();
    expect(kept.length).toBeLessThan(1000);
    expect(journal.dropped).toBe(1000 - kept.length);
    expect(JSON.stringify(kept).length).toBeLessThanOrEqual(JOURNAL_MAX_BYTES * 1.1);
    expect(kept.at(-1)?.id).toBe(1000);
  });
});

describe('the journal limit', () => {
  it('keeps the last journalLimit requests, and with 0 none, while the log still shows each', async () => {
    const lines: string[] = [];
    const logger = { info: (line: string) => lines.push(line), error: () => undefined };
    const two = fresh({ journalLimit: 2 });
    const none = fresh({ journalLimit: 0, logger });
    for (const mock of [two, none])
      for (const id of [1, 2, 3]) await checkedRequest(mock, `/v1/pets/${id}`, withKey('demo-free'));
    expect(two.journal.map((entry) => entry.path)).toEqual(['/v1/pets/2', '/v1/pets/3']);
    expect(await page(none)).toEqual({ entries: [], total: 0, next: null, dropped: 3 });
    expect(lines).toEqual(['GET /v1/pets/1 200 0ms', 'GET /v1/pets/2 200 0ms', 'GET /v1/pets/3 200 0ms']);
  });
  it('with 0, still gives a listener (a HAR writer, the live page) every entry whole', async () => {
    const mock = fresh({ journalLimit: 0 });
    const seen: JournalEntry[] = [];
    const stop = mock.observe((entry) => seen.push(entry));
    await checkedRequest(mock, '/v1/pets', withKey('demo-free', { json: { name: 'Rex', categoryId: 2 } }));
    stop();
    await checkedRequest(mock, '/v1/pets/1', withKey('demo-free'));
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      path: '/v1/pets',
      status: 201,
      request: {
        headers: { authorization: 'Bearer [redacted]' },
        body: { text: '{"name":"Rex","categoryId":2}' },
      },
      response: { headers: { location: '/v1/pets/51' } },
    });
    expect(mock.journal).toEqual([]);
    // Kept by nobody and read by nobody, a record has its fields (for the log line) and its path only.
    const journal = createJournal({ limit: 0 });
    const record = journal.record(
      exchangeOf({ target: `/v1/pets?q=${'x'.repeat(2_000)}`, durationMs: 3 }),
      false,
    );
    expect(record).toMatchObject({ method: 'GET', status: 200, durationMs: 3 });
    expect(record.path).toHaveLength(PATH_LIMIT + 1);
    expect(record.entry()).toMatchObject({
      path: record.path,
      request: { headers: {}, body: null },
      truncated: ['/path'],
    });
    expect(journal.records()).toEqual([]);
  });

  it('refuses a limit that is not a whole number from 0 to MAX_JOURNAL_LIMIT', () => {
    expect(() => fresh({ journalLimit: -1 })).toThrow(
      'Option journalLimit must be an integer from 0 to 100000, got -1.',
    );
  });
});

describe('GET /__petkit/requests', () => {
  it('filters by method, status (or class), path and since', async () => {
    let now = NOW;
    const mock = createMock({ clock: () => now });
    await checkedRequest(mock, '/v1/pets?limit=1', withKey('demo-free'));
    now += 1000;
    await checkedRequest(mock, '/v1/pets/9999', withKey('demo-free'));
    await checkedRequest(mock, '/v1/pets', withKey('demo-free', { json: { name: 'A', categoryId: 1 } }));
    const paths = (p: Page) => p.entries.map((entry) => `${entry.method} ${entry.path} ${entry.status}`);
    expect(paths(await page(mock, '?method=post'))).toEqual(['POST /v1/pets 201']);
    expect(paths(await page(mock, '?status=404'))).toEqual(['GET /v1/pets/9999 404']);
    expect(paths(await page(mock, '?status=2xx'))).toEqual(['GET /v1/pets?limit=1 200', 'POST /v1/pets 201']);
    expect(paths(await page(mock, '?path=/pets/'))).toEqual(['GET /v1/pets/9999 404']);
    expect((await page(mock, `?since=${NOW + 1000}`)).total).toBe(2);
    expect((await page(mock, `?since=${new Date(NOW + 1000).toISOString()}`)).total).toBe(2);
  });
  it('pages with limit and the next cursor', async () => {
    const mock = fresh();
    for (let i = 0; i < 5; i += 1) await checkedRequest(mock, `/v1/pets/${i + 1}`, withKey('demo-free'));
    const first = await page(mock, '?limit=2&method=GET');
    expect(first.entries.map((entry) => entry.id)).toEqual([1, 2]);
    expect(first).toMatchObject({ total: 5, next: '?limit=2&method=GET&after=2', dropped: 0 });
    const second = await page(mock, first.next ?? '');
    expect(second.entries.map((entry) => entry.id)).toEqual([3, 4]);
    const last = await page(mock, second.next ?? '');
    expect(last.entries.map((entry) => entry.id)).toEqual([5]);
    expect(last.next).toBeNull();
  });
  it('answers 400 naming a filter it cannot read', async () => {
    const mock = fresh();
    for (const [query, message] of [
      [
        '?status=abc',
        'status must be a status such as 404, a class such as 4xx, or 0 (network faults), got "abc".',
      ],
      ['?limit=0', 'limit must be an integer from 1 to 1000, got "0".'],
      [
        '?since=yesterday',
        'since must be a time in ms since the epoch or an ISO 8601 date, got "yesterday".',
      ],
      ['?verb=GET', 'Unknown parameter "verb"; use method, status, path, since, after, limit.'],
      ['?status=200&status=401', 'status is given 2 times ("200", "401"); give it once.'],
      ['?limit=1&path=/v1&limit=2', 'limit is given 2 times ("1", "2"); give it once.'],
      [
        '?method=GET&method=POST&method=PUT&method=HEAD',
        'method is given 4 times ("GET", "POST", "PUT", …); give it once.',
      ],
    ] as const) {
      const res = await checkedRequest(mock, `/__petkit/requests${query}`);
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ code: 'validation_failed', message, status: 400 });
    }
  });
  it('is cleared by DELETE', async () => {
    const mock = fresh();
    await checkedRequest(mock, '/v1/pets', withKey('demo-free'));
    const cleared = await checkedRequest(mock, '/__petkit/requests', { method: 'DELETE' });
    expect(cleared.json).toEqual({ status: 'cleared', removed: 1 });
    expect((await page(mock)).entries).toEqual([]);
    // The pets are untouched: DELETE clears the journal only.
    expect((await checkedRequest(mock, '/__petkit/health')).json).toMatchObject({ pets: 50 });
  });
});

describe('the journal’s batches', () => {
  it('keeps one flush waiting at a time, however many records come before the event loop turns', () => {
    vi.useFakeTimers({ toFake: ['setImmediate'] });
    try {
      const journal = createJournal();
      for (let i = 0; i < 1_000; i += 1) {
        journal.record(
          {
            time: NOW,
            method: 'GET',
            target: `/v1/pets/${i}`,
            operationId: 'getPet',
            key: undefined,
            requestHeaders: ['Host', 'petkit.test'],
            requestBody: undefined,
            reply: reply(200, null),
            delayMs: 0,
            durationMs: 0,
            rule: undefined,
          },
          false,
        );
      }
      // Full batches were written as they filled; one task waits for the rest.
      expect(vi.getTimerCount()).toBe(1);
      vi.runAllTimers();
      expect(vi.getTimerCount()).toBe(0);
      expect(journal.entries().map((entry) => entry.path)).toEqual(
        Array.from({ length: 1_000 }, (_, i) => `/v1/pets/${i}`),
      );
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the journal’s ring of bytes', () => {
  it(
    'answers every record kept as it was recorded, however the records of every size wrap round the ring',
    () => {
      fc.assert(
        fc.property(
          fc.array(
            fc.record({
              path: fc.string({ unit: 'grapheme', maxLength: 1_500 }),
              header: fc.string({ maxLength: 400 }),
              body: fc.option(fc.string({ unit: 'grapheme', maxLength: 2_000 }), { nil: undefined }),
            }),
            { minLength: 1, maxLength: 120 },
          ),
          fc.integer({ min: 1, max: 40 }),
          fc.integer({ min: 3_000, max: 30_000 }),
          // A ring smaller than the estimate allows, so that wrapping round it is what drops records too.
          fc.option(fc.integer({ min: 8_192, max: 40_000 }), { nil: undefined }),
          (requests, limit, maxBytes, ringBytes) => {
            const journal = createJournal({ limit, maxBytes, ringBytes });
            const expected = new Map<number, JournalEntry>();
            for (const request of requests) {
              const exchange: Exchange = {
                time: NOW,
                method: 'POST',
                target: `/v1/pets?q=${request.path}`,
                operationId: 'createPet',
                key: undefined,
                requestHeaders: ['X-Note', request.header],
                requestBody: request.body === undefined ? undefined : new TextEncoder().encode(request.body),
                reply: reply(201, JSON.stringify({ echo: request.body ?? null })),
                delayMs: 0,
                durationMs: 0,
              };
              const kept = journal.record(exchange);
              // What a journal of its own, which nothing else was written to, answers for it.
              expected.set(kept.id, entryOf(exchange));
              const records = journal.records();
              expect(records.length).toBeLessThanOrEqual(limit);
              for (const record of records)
                expect(record.entry()).toEqual({ ...expected.get(record.id), id: record.id });
            }
            // The newest is always kept, and the ids kept are the last ones, in order.
            const ids = journal.records().map((record) => record.id);
            expect(ids.at(-1)).toBe(requests.length);
            expect(ids).toEqual(ids.map((_, i) => requests.length - ids.length + 1 + i));
          },
        ),
        { numRuns: 60, seed: 22 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'shows each record’s own headers when the names, their order and their values change from one record to the next',
    () => {
      // A journal remembers the last list's names and constant values position by position: a record
      // like the last costs comparisons. Whatever changes, every entry is what a journal of its own shows.
      const names = [
        'Host',
        'authorization',
        'AUTHORIZATION',
        'Cookie',
        'x-note',
        'X-Note',
        `x-${'n'.repeat(300)}`,
      ];
      const values = ['a', 'b', 'Bearer demo-free', '*', 'v'.repeat(300), 'application/json'];
      const header = fc.tuple(fc.constantFrom(...names), fc.constantFrom(...values));
      const replyHeader = fc.tuple(
        fc.constantFrom('content-type', 'date', 'x-ratelimit-remaining', 'sunset', 'x-custom'),
        fc.constantFrom(...values),
      );
      fc.assert(
        fc.property(
          fc.array(fc.tuple(fc.array(header, { maxLength: 6 }), fc.array(replyHeader, { maxLength: 6 })), {
            minLength: 1,
            maxLength: 30,
          }),
          (records) => {
            const journal = createJournal();
            for (const [request, replied] of records) {
              const exchange = exchangeOf({
                requestHeaders: request.flat(),
                reply: { status: 200, body: '[]', headers: Object.fromEntries(replied) },
              });
              const kept = journal.record(exchange).entry();
              expect(kept).toEqual({ ...entryOf(exchange), id: kept.id });
            }
          },
        ),
        { numRuns: 200, seed: 7 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'reads every record kept back as it was written while the texts records repeat come and go',
    () => {
      // A value seen again at its place in a header list is kept once and referred to; its room goes to
      // another text only once no record kept refers to it. With room for one to four such texts, small
      // limits and clears between records, every entry kept must be what a journal of its own shows.
      const values = ['a', 'b', '127.0.0.1:4010', 'Bearer one', 'Basic two', 'x'.repeat(300)];
      const request = fc.array(
        fc.tuple(fc.constantFrom('host', 'Authorization', 'x-note', 'cookie'), fc.constantFrom(...values)),
        { maxLength: 4 },
      );
      const replied = fc.array(
        fc.tuple(fc.constantFrom('date', 'x-ratelimit-reset', 'content-type'), fc.constantFrom(...values)),
        { maxLength: 3 },
      );
      const step = orClear(fc.tuple(request, replied), 9);
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 6 }),
          fc.integer({ min: 1, max: 4 }),
          fc.array(step, { minLength: 1, maxLength: 60 }),
          (limit, recentSize, steps) => {
            const journal = createJournal({ limit, recentSize, listsSize: recentSize, settledLists: 4 });
            readsBackAsWritten(journal, steps, ([request, replied]) =>
              exchangeOf({
                requestHeaders: request.flat(),
                reply: { status: 200, body: '[]', headers: Object.fromEntries(replied) },
              }),
            );
          },
        ),
        { numRuns: 300, seed: 23 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'reads every record kept back as it was written while the header lists records repeat come and go',
    () => {
      // A header list like the last (the same names, most values the same) becomes a template kept once,
      // and records of lists like it write which values differ from it. A few lists of each kind,
      // repeated with some values changed (to texts of the same length too), with room for one to four
      // templates and texts, small limits and clears: every entry kept is what a journal of its own shows.
      const values = ['a', 'b', 'c', 'Bearer one', 'Bearer two', 'x'.repeat(300)];
      const list = (names: readonly string[]) =>
        fc.array(fc.tuple(fc.constantFrom(...names), fc.constantFrom(...values)), { maxLength: 5 });
      const requests = fc.array(list(['host', 'Authorization', 'x-note', 'cookie', 'accept']), {
        minLength: 1,
        maxLength: 3,
      });
      const replies = fc.array(
        list(['date', 'x-ratelimit-remaining', 'content-type', 'location', 'x-custom']),
        {
          minLength: 1,
          maxLength: 3,
        },
      );
      const changes = fc.array(fc.tuple(fc.nat(4), fc.constantFrom(...values)), { maxLength: 2 });
      // A reply's template is kept by its status and length: lists of one status, and of two.
      const step = orClear(
        fc.tuple(fc.nat(2), changes, fc.nat(2), changes, fc.constantFrom(200, 200, 201, 401)),
        12,
      );
      const changed = (base: readonly [string, string][], edits: readonly [number, string][]) => {
        const copy = base.map(([name, value]): [string, string] => [name, value]);
        for (const [position, value] of edits) {
          const header = copy[position % Math.max(copy.length, 1)];
          if (header !== undefined) header[1] = value;
        }
        return copy;
      };
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 8 }),
          fc.integer({ min: 1, max: 4 }),
          // Templates made again soon (as the mock's are, much later): every path of theirs is walked.
          fc.integer({ min: 1, max: 6 }),
          requests,
          replies,
          fc.array(step, { minLength: 1, maxLength: 80 }),
          (limit, size, settledLists, requestLists, replyLists, steps) => {
            const journal = createJournal({ limit, recentSize: size, listsSize: size, settledLists });
            readsBackAsWritten(journal, steps, ([request, requestEdits, replied, replyEdits, status]) =>
              exchangeOf({
                requestHeaders: changed(
                  requestLists[request % requestLists.length] ?? [],
                  requestEdits,
                ).flat(),
                reply: {
                  status,
                  body: '[]',
                  headers: Object.fromEntries(
                    changed(replyLists[replied % replyLists.length] ?? [], replyEdits),
                  ),
                },
              }),
            );
          },
        ),
        { numRuns: 300, seed: 29 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'reads every record kept back as it was written while the reply bodies records repeat, bytes and texts, come and go',
    () => {
      // A reply body seen before (bytes: the same object, the store's cached list pages; a short text:
      // the same text, a stored pet's JSON) is written by reference to its excerpt, kept once as text;
      // its entry goes to another body only once no record kept refers to it. Bodies of every kind of
      // length (none, short, at the excerpt's limit, cut inside a character, past the length an
      // encoder knows by identity or by value), the same bytes or text as another object, a text with
      // a lone surrogate, texts never seen again between; room for one to three excerpts; small
      // limits, clears: every entry kept is what a journal of its own shows.
      const bytes = (text: string) => new TextEncoder().encode(text);
      const pool = [
        bytes('[]'),
        bytes('{"id":1,"name":"Rex"}'),
        bytes('x'.repeat(BODY_EXCERPT_LIMIT)),
        bytes(`${'y'.repeat(BODY_EXCERPT_LIMIT - 1)}é and more`),
        bytes(`[${'"z",'.repeat(1_000)}"z"]`),
        bytes('w'.repeat(20 * 1024)),
        new Uint8Array(0),
        '{"id":2,"name":"Bella"}',
        '€'.repeat(341),
        '€'.repeat(342),
        'lone \ud800 surrogate',
        '',
      ];
      let unique = 0;
      const body = fc.oneof(
        { arbitrary: fc.nat(pool.length - 1).map((i) => ({ shared: i })), weight: 8 },
        { arbitrary: fc.nat(pool.length - 1).map((i) => ({ copy: i })), weight: 1 },
        { arbitrary: fc.constantFrom('{"code":"not_found"}', null, 'unique'), weight: 1 },
      );
      const step = orClear(body, 12);
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 8 }),
          fc.integer({ min: 1, max: 3 }),
          fc.array(step, { minLength: 1, maxLength: 80 }),
          (limit, size, steps) => {
            const journal = createJournal({ limit, excerptsSize: size });
            readsBackAsWritten(journal, steps, (step) => {
              const copy = (body: Uint8Array | string | undefined) =>
                typeof body === 'string' ? ` ${body}`.slice(1) : (body?.slice() ?? null);
              if (step === 'unique') unique += 1;
              const sent =
                step === 'unique'
                  ? `{"id":${unique}}`
                  : step === null || typeof step === 'string'
                    ? step
                    : 'shared' in step
                      ? (pool[step.shared] ?? null)
                      : copy(pool[step.copy]);
              return exchangeOf({ reply: { status: 200, body: sent, headers: {} } });
            });
          },
        ),
        { numRuns: 300, seed: 37 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'reads back records whose bytes waited for a batch as if each had been written at once',
    () => {
      // With nobody reading an entry as it is made (no listener: the recorder passes entry = false),
      // a record's bytes wait for the next flush: a batch of BATCH, the end of this turn of the event
      // loop, or the first read. Runs of such records, records read at once, reads and clears, small
      // limits and ring: the same records kept as by a journal that writes each at once, each entry as
      // that journal showed it when made, and `dropped` counting the same.
      const values = ['a', 'b', 'Bearer one', 'x'.repeat(300)];
      const exchange = fc.record({
        path: fc.constantFrom('/v1/pets', '/v1/pets/1', `/${'p'.repeat(1_100)}`),
        request: fc.array(
          fc.tuple(fc.constantFrom('host', 'authorization', 'x-note'), fc.constantFrom(...values)),
          {
            maxLength: 3,
          },
        ),
        value: fc.constantFrom(...values),
        body: fc.option(fc.constantFrom('[]', 'é'.repeat(700)), { nil: null }),
      });
      const step = fc.oneof(
        {
          arbitrary: fc.tuple(fc.constant('later' as const), fc.integer({ min: 1, max: 150 }), exchange),
          weight: 6,
        },
        { arbitrary: fc.tuple(fc.constant('now' as const), fc.constant(1), exchange), weight: 2 },
        { arbitrary: fc.constantFrom('read' as const, 'clear' as const, 'dropped' as const), weight: 2 },
      );
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 200 }),
          fc.option(fc.integer({ min: 8_192, max: 40_000 }), { nil: undefined }),
          fc.array(step, { minLength: 1, maxLength: 12 }),
          (limit, ringBytes, steps) => {
            const journal = createJournal({ limit, ringBytes });
            const model = createJournal({ limit, ringBytes });
            const expected = new Map<number, JournalEntry>();
            let n = 0;
            for (const step of steps) {
              if (step === 'read') {
                expect(journal.records().map((record) => record.entry())).toEqual(
                  model.records().map((record) => expected.get(record.id)),
                );
                continue;
              }
              if (step === 'clear') {
                expect(journal.clear()).toBe(model.clear());
                continue;
              }
              if (step === 'dropped') {
                expect(journal.dropped).toBe(model.dropped);
                continue;
              }
              const [when, count, made] = step;
              for (let k = 0; k < count; k += 1) {
                n += 1;
                const recorded = exchangeOf({
                  target: `${made.path}?n=${n}`,
                  requestHeaders: made.request.flat(),
                  reply: reply(200, made.body, { 'x-ratelimit-remaining': String(n), 'x-note': made.value }),
                });
                const kept = journal.record(recorded, when === 'now');
                const shown = model.record(recorded).entry();
                expect(shown.id).toBe(kept.id);
                expect(kept.path).toBe(shown.path);
                expected.set(kept.id, shown);
              }
            }
            expect(journal.records().map((record) => record.entry())).toEqual(
              model.records().map((record) => expected.get(record.id)),
            );
            expect(journal.dropped).toBe(model.dropped);
          },
        ),
        { numRuns: 100, seed: 31 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it('writes a batch’s bytes by itself once the turn’s work is done, holding no exchange past it', async () => {
    const journal = createJournal();
    const exchange = exchangeOf({ reply: reply(200, '[]', { 'x-note': 'as answered' }) });
    const kept = journal.record(exchange, false);
    await new Promise((resolve) => setImmediate(resolve));
    // Changed after the turn: the journal wrote its bytes already, and no longer holds it.
    exchange.reply.headers['x-note'] = 'changed later';
    exchange.reply.headers['x-later'] = 'added later';
    expect(kept.entry().response.headers).toEqual({ ...reply(200, '[]').headers, 'x-note': 'as answered' });
  });

  it('keeps a header list that comes again and again once: 1,000 answers like the last take little room', () => {
    const journal = createJournal();
    const headers = [
      'Host',
      '127.0.0.1:4010',
      'Authorization',
      'Bearer demo-free',
      'Accept',
      'application/json',
    ];
    const replied = reply(200, '[]', { 'x-ratelimit-limit': '60', 'x-ratelimit-reset': '1893499260' });
    for (let n = 0; n < 1_000; n += 1) {
      journal.record(
        exchangeOf({
          requestHeaders: headers,
          reply: { ...replied, headers: { ...replied.headers, 'x-ratelimit-remaining': String(1_000 - n) } },
        }),
      );
    }
    const last = journal.records().at(-1)?.entry();
    expect(last?.request.headers).toEqual({
      host: '127.0.0.1:4010',
      authorization: 'Bearer [redacted]',
      accept: 'application/json',
    });
    expect(last?.response.headers['x-ratelimit-remaining']).toBe('1');
    expect(last?.response.headers['x-ratelimit-limit']).toBe('60');
    // Header by header (a name's code and a value's code or text each), a record takes 119 bytes; by
    // its lists' templates (an index and a mask each, and the one value that changes), 67.
    expect(journal.reach).toBeLessThan(1_000 * 80);
  });

  it('keeps a value that comes again and again once: 1,000 requests with a long User-Agent take little room', () => {
    const journal = createJournal();
    const agent = `petkit-test/${'1.0 '.repeat(60)}`;
    for (let n = 0; n < 1_000; n += 1)
      journal.record(exchangeOf({ target: `/v1/pets/${n}`, requestHeaders: ['User-Agent', agent] }));
    expect(journal.records()).toHaveLength(1_000);
    expect(journal.records().at(-1)?.entry().request.headers).toEqual({ 'user-agent': agent });
    // Copied into each record, the value alone would take 1,000 × 252 bytes.
    expect(journal.reach).toBeLessThan(100_000);
  });

  it('keeps a credential of any length as its scheme only, so that no bound is passed (over the core too)', async () => {
    // Three credentials of 300,000 characters, which no HTTP parser lets through (nor, in process,
    // mock.request) but an adapter may hand the core: the record is as small as any, and the answer
    // the mock's own.
    const long = `Bearer ${'k'.repeat(300_000)}`;
    const mock = fresh();
    const answer = await mock.answer(
      coreCall(
        '/v1/pets?limit=1',
        new Headers({ authorization: long, 'proxy-authorization': long, cookie: `a=${'k'.repeat(300_000)}` }),
      ),
    );
    expect(answer.status).toBe(401);
    expect(mock.journal.at(-1)?.request.headers).toEqual({
      authorization: 'Bearer [redacted]',
      'proxy-authorization': 'Bearer [redacted]',
      cookie: '[redacted]',
    });
    expect(JSON.stringify(mock.journal)).not.toContain('kkkk');
  });

  it('writes over a stretch of its ring about as long as what it keeps, not the whole ring', () => {
    // 1,000 small records kept of 5,000: what they hold is a few hundred KB of a 2.25 MB ring. Sweeping
    // the whole ring left every write on memory the cache had long dropped.
    const journal = createJournal();
    const exchange = (n: number): Exchange =>
      exchangeOf({
        target: `/v1/pets/${n}`,
        operationId: 'getPet',
        requestHeaders: ['Host', '127.0.0.1:4010', 'Authorization', 'Bearer demo-free'],
        reply: reply(200, JSON.stringify({ id: n, name: 'Rex', categoryId: 2, status: 'available' })),
      });
    for (let n = 1; n <= 5_000; n += 1) journal.record(exchange(n));
    const kept = journal.records();
    expect(kept.map((record) => record.id)).toEqual(kept.map((_, i) => 4_001 + i));
    for (const record of kept) expect(record.entry().path).toBe(`/v1/pets/${record.id}`);
    const held = 1_000 * 400;
    expect(journal.reach).toBeLessThan(1.5 * held);
  });

  it('drops the records left in the tail it gives up when it wraps, before any newer one is written over', () => {
    // A ring of 10,000 bytes: records of about 9,000, 800, 3,100, 5,100 and 3,100 bytes leave the
    // second in the tail while the third and fourth follow from the start; the fifth does not fit
    // after the fourth, so it goes at the start, over the third, and the second must go first.
    const journal = createJournal({ limit: 1_000, maxBytes: 1e9, ringBytes: 10_000 });
    const sized = (n: number, size: number): Exchange => {
      const headers: string[] = [];
      for (let left = size - 1_100, h = 0; left > 0 && h < 32; h += 1, left -= 270)
        // Each record's values its own: a value like the last record's is written as a reference.
        headers.push(`X-${h}`, `${'v'.repeat(Math.min(250, left) - 1)}${n}`);
      return {
        time: NOW,
        method: 'GET',
        target: `/${n}/${'a'.repeat(Math.min(1_000, size))}`,
        operationId: null,
        key: undefined,
        requestHeaders: headers,
        requestBody: undefined,
        reply: reply(200, ''),
        delayMs: 0,
        durationMs: 0,
      };
    };
    [9_000, 500, 3_000, 5_000, 3_000, 4_000, 2_000].forEach((size, n) => {
      journal.record(sized(n, size));
      for (const record of journal.records())
        expect(record.entry().path).toMatch(new RegExp(`^/${record.id - 1}/`));
    });
    expect(journal.records().map((record) => record.id)).toEqual([5, 6, 7]);
  });

  it('keeps a record whose every field is at its worst, cut, and never throws (over the core too)', async () => {
    // Header names of '/' (escaped twice as long in a pointer) and values of 2-byte characters, past
    // every bound, on both sides; a path of 3-byte characters; bodies past the excerpt.
    const worst: string[] = [];
    for (let i = 0; i < 40; i += 1) worst.push(`${i}${'/'.repeat(300)}`, 'é'.repeat(400));
    const replied = reply(200, '€'.repeat(100_000));
    for (let i = 0; i < 40; i += 1) replied.headers[`${i}${'~'.repeat(300)}`] = 'é'.repeat(400);
    const journal = createJournal({ limit: 5 });
    for (let n = 0; n < 12; n += 1) {
      const entry = journal
        .record({
          time: NOW,
          method: 'M'.repeat(100),
          target: `/${'€'.repeat(5_000)}`,
          operationId: null,
          key: undefined,
          requestHeaders: worst,
          requestBody: new Uint8Array(20_000),
          reply: replied,
          delayMs: 0,
          durationMs: 0,
        })
        .entry();
      expect(entry.truncated).toEqual(
        expect.arrayContaining(['/method', '/path', '/request/headers', '/response/headers']),
      );
      expect(Object.keys(entry.request.headers)).toHaveLength(32);
      expect(JSON.stringify(entry).length).toBeLessThan(200_000);
    }
    // Straight to the core, where no HTTP parser bounds the headers: 40 names of 10,000 characters.
    const headers = new Headers({ authorization: 'Bearer demo-free' });
    for (let i = 0; i < 40; i += 1) headers.set(`x-${'a'.repeat(10_000)}-${i}`, 'v'.repeat(2_000));
    const mock = fresh();
    expect((await mock.answer(coreCall(`/v1/pets?q=${'x'.repeat(5_000)}`, headers))).status).toBe(200);
    expect(mock.journal.at(-1)?.truncated).toContain('/request/headers');
  });

  it('forgets the bytes of what it cleared: a record a reader kept past it shows only the fields held apart', () => {
    const journal = createJournal();
    const exchange = exchangeOf();
    const kept = journal.record(exchange);
    expect(journal.clear()).toBe(1);
    journal.record({ ...exchange, target: '/v1/pets/1' });
    expect(kept.entry()).toMatchObject({ path: '', method: 'GET', status: 200, request: { headers: {} } });
    expect(journal.records().map((record) => record.path)).toEqual(['/v1/pets/1']);
  });
});

describe('a key of the keys file sent elsewhere than Authorization', () => {
  it('is hidden in the journal, its HAR and events (entries), and the log line, as the journal shows keys', async () => {
    const secret = 'sk_live_4f9a8b7c6d5e4f3a2b1c';
    const lines: string[] = [];
    const mock = createMock({
      keys: { keys: [{ key: secret, plan: 'pro' }] },
      logger: { info: (line) => lines.push(line), error: () => undefined },
    });
    const seen: string[] = [];
    mock.observe((entry) => seen.push(JSON.stringify(entry)));
    await mock.request(
      `/v1/pets?limit=0&token=${secret}`,
      withKey(secret, { headers: { 'x-api-key': secret } }),
    );
    await mock.request(`/v1/pets/${secret}`);
    await mock.request('/v1/pets', withKey(secret, { json: { name: secret, categoryId: 'x' } }));
    const shown = JSON.stringify(mock.journal) + seen.join('') + lines.join('\n');
    // It was in the path, the x-api-key header, the request's body and the answers' messages.
    expect(shown).not.toContain('4f9a8b7c6d5e');
    expect(mock.journal[0]?.path).toBe('/v1/pets?limit=0&token=sk_live…');
    expect(mock.journal[0]?.request.headers['x-api-key']).toBe('sk_live…');
    expect(lines[1]).toMatch(/^GET \/v1\/pets\/sk_live… 401 /);
  });

  it('is no answer to GET /__petkit/requests?path=: the filter reads the path as shown, so it cannot be guessed a character at a time', async () => {
    const secret = 'sk_live_4f9a8b7c6d5e4f3a2b1c';
    const mock = createMock({ keys: { keys: [{ key: secret, plan: 'pro' }] } });
    await mock.request(`/v1/pets?token=${secret}`);
    const total = async (path: string) =>
      ((await (await mock.request(`/__petkit/requests?path=${encodeURIComponent(path)}`)).json()) as Page)
        .total;
    // Were the filter to read the path as sent, each right guess of the next character would match.
    expect(await total('token=sk_live_4')).toBe(0);
    expect(await total(secret)).toBe(0);
    expect(await total('token=sk_live…')).toBe(1);
    expect(await total('/v1/pets')).toBe(1);
  });

  it('is hidden written with escapes: percent-encoded in the path, JSON-escaped in a body', async () => {
    const secret = 'sk_live_4f9a8b7c6d5e4f3a2b1c';
    const lines: string[] = [];
    const mock = createMock({
      keys: { keys: [{ key: secret, plan: 'pro' }] },
      logger: { info: (line) => lines.push(line), error: () => undefined },
    });
    await mock.request('/v1/pets?status=sk%5Flive%5f4f9a8b7c6d5e4f3a2b1c', withKey(secret));
    await mock.request('/v1/pets', {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: '{"name":"sk_live_4f9a8b7c6d5e4f3a2b1\u0063","categoryId":"x"}',
    });
    const shown = JSON.stringify(mock.journal) + lines.join('\n');
    expect(shown).not.toMatch(/4f9a8b7c6d5e/);
    expect(mock.journal[0]?.path).toBe('/v1/pets?status=sk_live…');
    expect(lines[0]).toMatch(/^GET \/v1\/pets\?status=sk_live… 400 /);
    expect(mock.journal[1]?.request.body?.text).toBe('{"name":"sk_live…","categoryId":"x"}');
  });
});

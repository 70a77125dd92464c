// The event stream over a journal of its own, read as an EventSource reads it: an event per entry,
// the replay after Last-Event-ID, the heartbeat, the bound on streams and the one on a slow reader.
import { describe, expect, it } from 'vitest';
import { targetOf } from './call.js';
import {
  answerEvents,
  createEventStreams,
  EVENT_BUFFER,
  type EventSource_,
  MAX_EVENT_STREAMS,
} from './control-events.js';
import { createJournal, type JournalEntry } from './journal.js';
import { createMock } from './mock.js';
import { reply } from './responses.js';

function source(heartbeatMs?: number) {
  const journal = createJournal();
  const listeners = new Set<(entry: JournalEntry) => void>();
  const events: EventSource_ = {
    observe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    records: () => journal.records(),
    streams: createEventStreams(heartbeatMs),
  };
  const record = (path: string) => {
    const kept = journal.record({
      time: 0,
      method: 'GET',
      target: path,
      operationId: 'listPets',
      key: undefined,
      requestHeaders: [],
      requestBody: undefined,
      reply: reply(200, '[]'),
      delayMs: 0,
      durationMs: 1,
    });
    const entry = kept.entry();
    for (const listener of listeners) listener(entry);
  };
  return { events, record, listeners };
}

function call(path = '/__petkit/events', headers: Record<string, string> = {}) {
  return {
    method: 'GET',
    url: targetOf(path),
    header: (name: string) => headers[name] ?? null,
    rawHeaders: () => [],
    body: { present: false, read: async () => new Uint8Array(0) },
    clientAddress: '127.0.0.1',
  };
}

interface Event {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
  retry?: string;
}

/** Reads events from the stream until `count` have come, as an EventSource parses them. */
async function readEvents(stream: ReadableStream<Uint8Array>, count: number): Promise<Event[]> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  const events: Event[] = [];
  let text = '';
  while (events.length < count) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    let end = text.indexOf('\n\n');
    while (end >= 0 && events.length < count) {
      const event: Event = {};
      for (const line of text.slice(0, end).split('\n')) {
        if (line.startsWith(':')) event.comment = line.slice(1).trim();
        else {
          const colon = line.indexOf(':');
          (event as Record<string, string>)[line.slice(0, colon)] = line.slice(colon + 1).trimStart();
        }
      }
      events.push(event);
      text = text.slice(end + 2);
      end = text.indexOf('\n\n');
    }
  }
  reader.releaseLock();
  return events;
}

describe('GET /__petkit/events', () => {
  it('answers text/event-stream: the retry, then one request event per entry, id = journal id, data = the entry', async () => {
    const { events, record } = source();
    const answer = answerEvents(call(), events);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.body).toBeNull();
    const stream = answer.stream as ReadableStream<Uint8Array>;
    record('/v1/pets?limit=1');
    record('/v1/pets?limit=2');
    const read = await readEvents(stream, 3);
    expect(read[0]).toEqual({ retry: '1000' });
    expect(read.slice(1).map((event) => [event.id, event.event])).toEqual([
      ['1', 'request'],
      ['2', 'request'],
    ]);
    expect(JSON.parse(read[2]?.data ?? '')).toMatchObject({ id: 2, path: '/v1/pets?limit=2', status: 200 });
    await stream.cancel();
    expect(events.streams.open).toBe(0);
  });

  it('replays the entries after Last-Event-ID (or ?after= on a first connection), then goes on live', async () => {
    const { events, record } = source();
    for (const path of ['/a', '/b', '/c']) record(path);
    const resumed = answerEvents(call('/__petkit/events', { 'last-event-id': '1' }), events).stream;
    const first = answerEvents(call('/__petkit/events?after=2'), events).stream;
    const live = answerEvents(call(), events).stream;
    record('/d');
    const paths = async (stream: ReadableStream<Uint8Array> | undefined, count: number) =>
      (await readEvents(stream as ReadableStream<Uint8Array>, count + 1))
        .slice(1)
        .map((event) => (JSON.parse(event.data ?? '') as JournalEntry).path);
    expect(await paths(resumed, 3)).toEqual(['/b', '/c', '/d']);
    expect(await paths(first, 2)).toEqual(['/c', '/d']);
    expect(await paths(live, 1)).toEqual(['/d']);
  });

  it('replays the whole journal to a Last-Event-ID past its newest entry: an id of another run (the mock restarted)', async () => {
    // Within a run ids only grow, so an id past the newest kept is one the mock did not give: an
    // EventSource reconnecting to a mock started again (ids from 1) would otherwise miss its entries.
    const { events, record } = source();
    for (const path of ['/a', '/b']) record(path);
    const stream = answerEvents(call('/__petkit/events', { 'last-event-id': '57' }), events).stream;
    const read = await readEvents(stream as ReadableStream<Uint8Array>, 3);
    expect(read.slice(1).map((event) => event.id)).toEqual(['1', '2']);
    await stream?.cancel();
  });

  it('answers HEAD with the head alone, opening no stream', () => {
    const { events, listeners } = source();
    const answer = answerEvents({ ...call(), method: 'HEAD' }, events);
    expect(answer.status).toBe(200);
    expect(answer.stream).toBeUndefined();
    expect(events.streams.open).toBe(0);
    expect(listeners.size).toBe(0);
  });

  it('refuses an id that is not a whole number with 400 validation_failed', async () => {
    const { events } = source();
    const answer = answerEvents(call('/__petkit/events', { 'last-event-id': 'x<y' }), events);
    expect(answer.status).toBe(400);
    expect(JSON.parse(String(answer.body))).toMatchObject({ code: 'validation_failed' });
    expect(events.streams.open).toBe(0);
  });

  it('sends a heartbeat comment while quiet, and stops it (and observing) when cancelled', async () => {
    const { events, listeners } = source(20);
    const stream = answerEvents(call(), events).stream as ReadableStream<Uint8Array>;
    expect(await readEvents(stream, 2)).toEqual([{ retry: '1000' }, { comment: 'ping' }]);
    expect(listeners.size).toBe(1);
    await stream.cancel();
    expect(listeners.size).toBe(0);
  });

  it(`answers 429 past ${MAX_EVENT_STREAMS} open streams, and again 200 once one is closed`, async () => {
    const { events } = source();
    const open = Array.from({ length: MAX_EVENT_STREAMS }, () => answerEvents(call(), events));
    expect(open.every((answer) => answer.status === 200)).toBe(true);
    const refused = answerEvents(call(), events);
    expect(refused.status).toBe(429);
    expect(JSON.parse(String(refused.body))).toMatchObject({ code: 'rate_limited' });
    expect(refused.headers['retry-after']).toBe('1');
    await open[0]?.stream?.cancel();
    expect(answerEvents(call(), events).status).toBe(200);
  });

  it(`ends a stream whose reader is ${EVENT_BUFFER} events behind with an overflow event (its reconnect replays)`, async () => {
    const { events, record, listeners } = source();
    const stream = answerEvents(call(), events).stream as ReadableStream<Uint8Array>;
    // Nobody reads: the queue fills (EVENT_BUFFER), then as many wait, then one more ends it.
    for (let i = 0; i < 2 * EVENT_BUFFER + 1; i += 1) record(`/v1/pets/${i}`);
    expect(listeners.size).toBe(0);
    // What it holds still waits for its reader, and counts against the bound until read (or cancelled).
    expect(events.streams.open).toBe(1);
    const all = await readEvents(stream, 10 * EVENT_BUFFER);
    expect(all.at(-1)).toEqual({ event: 'overflow', data: '{}' });
    expect(all.filter((event) => event.event === 'request').length).toBeLessThanOrEqual(2 * EVENT_BUFFER);
    expect(events.streams.open).toBe(0);
  });

  it(`counts a stream that overflowed until its reader has read it or gone: ${MAX_EVENT_STREAMS} readers that never read hold no more`, async () => {
    // Were an overflowed stream let go at once, a client that never reads could open stream after
    // stream, each holding its ${EVENT_BUFFER} events unread, with no bound on the memory they take.
    const { events, record } = source();
    const held = Array.from({ length: MAX_EVENT_STREAMS }, () => answerEvents(call(), events));
    for (let i = 0; i < 2 * EVENT_BUFFER + 1; i += 1) record(`/v1/pets/${i}`);
    expect(answerEvents(call(), events).status).toBe(429);
    await held[0]?.stream?.cancel();
    const again = answerEvents(call(), events);
    expect(again.status).toBe(200);
    await again.stream?.cancel();
    for (const answer of held.slice(1)) await answer.stream?.cancel();
    expect(events.streams.open).toBe(0);
  });

  it('ends the stream of an aborted mock.request: its read rejects, and it no longer counts', async () => {
    const mock = createMock();
    const leaving: AbortController[] = [];
    const readers: ReadableStreamDefaultReader<Uint8Array>[] = [];
    for (let i = 0; i < MAX_EVENT_STREAMS; i += 1) {
      const controller = new AbortController();
      const res = await mock.request('/__petkit/events', { signal: controller.signal });
      expect(res.status).toBe(200);
      leaving.push(controller);
      readers.push((res.body as ReadableStream<Uint8Array>).getReader());
    }
    expect((await mock.request('/__petkit/events')).status).toBe(429);
    for (const reader of readers) await reader.read(); // the retry line
    // Each read was left pending for ever, and the 8 streams open until the process ended.
    const reads = readers.map((reader) => reader.read());
    for (const controller of leaving) controller.abort();
    for (const read of reads) await expect(read).rejects.toMatchObject({ name: 'AbortError' });
    const again = await mock.request('/__petkit/events');
    expect(again.status).toBe(200);
    await again.body?.cancel();
  });
});

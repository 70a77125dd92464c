// `GET /__petkit/events`: the journal live, as Server-Sent Events (text/event-stream), which the page
// (control-page.ts) reads with an EventSource. One `request` event per answered request, its `id` the
// journal id and its data the journal entry as JSON; after a reconnect (`Last-Event-ID`, or `?after=N`
// for a first connection), the entries still in the journal after that id are sent first, so a
// client that dropped out misses nothing the journal kept. Bounded: at most MAX_EVENT_STREAMS open at
// once (then 429), and at most EVENT_BUFFER events waiting for a slow reader, after which the stream
// says `overflow` and ends; the client reconnects and replays from its last id.
import type { MockCall } from './call.js';
import type { JournalEntry } from './journal.js';
import { errorReply, type Reply, reply } from './responses.js';

/** Event streams open at once, all clients together; one more is answered 429. */
export const MAX_EVENT_STREAMS = 8;
/** Events waiting for a reader that does not keep up, before its stream ends with `overflow`. */
export const EVENT_BUFFER = 256;
/** A comment line this often keeps proxies and idle timers from closing a quiet stream. */
export const HEARTBEAT_MS = 15_000;
/** What the client waits before it reconnects (the `retry:` field). */
export const RECONNECT_MS = 1_000;

/** A record of the journal as kept: its id, and its entry built when read. */
export interface EventRecord {
  readonly id: number;
  entry(): JournalEntry;
}

/** What the event stream reads of a mock. */
export interface EventSource_ {
  /** Calls `listener` with each journal entry as it is recorded; answers how to stop. */
  observe(listener: (entry: JournalEntry) => void): () => void;
  /** The records the journal keeps, oldest first. */
  records(): readonly EventRecord[];
  /** The streams open now, counted against MAX_EVENT_STREAMS; one per mock (createEventStreams). */
  readonly streams: EventStreams;
}

/** The streams a mock has open: counted here, so two mocks in one process count apart. */
export interface EventStreams {
  open: number;
  /** The heartbeat's period; tests shorten it. Default HEARTBEAT_MS. */
  readonly heartbeatMs: number;
}

export function createEventStreams(heartbeatMs = HEARTBEAT_MS): EventStreams {
  return { open: 0, heartbeatMs };
}

const encoder = new TextEncoder();

/** The id after which to replay: `Last-Event-ID` (a reconnect) wins over `?after=` (a first connection). */
function replayFrom(call: MockCall): number | undefined | { refused: string } {
  const given = call.header('last-event-id') ?? call.url.searchParams.get('after');
  if (given === null) return undefined;
  const text = given.trim();
  if (!/^\d{1,15}$/.test(text))
    return {
      refused: `Last-Event-ID and ?after= must be a journal id (a whole number), got ${JSON.stringify(text.slice(0, 40))}.`,
    };
  return Number(text);
}

/** `GET /__petkit/events`: 200 with the event stream, 400 for an unreadable id, 429 past the bound. */
export function answerEvents(call: MockCall, source: EventSource_): Reply {
  const from = replayFrom(call);
  if (typeof from === 'object') return errorReply('validation_failed', from.refused);
  const { streams } = source;
  if (streams.open >= MAX_EVENT_STREAMS) {
    return errorReply(
      'rate_limited',
      `At most ${MAX_EVENT_STREAMS} event streams are open at once; close a page of the mock and retry.`,
      undefined,
      { 'retry-after': String(RECONNECT_MS / 1000) },
    );
  }
  const answer = reply(200, null, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    // A proxy in front (nginx) would otherwise hold the events back.
    'x-accel-buffering': 'no',
  });
  // HEAD: the head alone; no stream is opened (nobody would read it, or end it).
  if (call.method !== 'HEAD') answer.stream = eventStream(source, from, call);
  return answer;
}

/** The event text of one entry: one line of JSON (JSON.stringify writes no newline). */
function requestEvent(entry: JournalEntry): string {
  return `id: ${entry.id}\nevent: request\ndata: ${JSON.stringify(entry)}\n\n`;
}

function eventStream(
  source: EventSource_,
  from: number | undefined,
  call: MockCall,
): ReadableStream<Uint8Array> {
  const { streams } = source;
  streams.open += 1;
  // The records to replay are taken now (references, not entries): each entry is built as it is sent.
  const kept = from === undefined ? [] : source.records();
  // Within a run ids only grow: an id past the newest kept is another run's (the mock started again,
  // its ids from 1), and its reader is sent the whole journal, not what comes after an id never given.
  const newest = kept.at(-1)?.id ?? Number.POSITIVE_INFINITY;
  const after = from === undefined || from > newest ? 0 : from;
  const replay = kept.filter((record) => record.id > after);
  let replayed = 0;
  /** Entries recorded while the reader is behind, in order. */
  const waiting: JournalEntry[] = [];
  let stop: (() => void) | undefined;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  /** Stops listening for the client's going. */
  let leave: (() => void) | undefined;
  let ended = false;
  /** It fell EVENT_BUFFER behind: nothing more is sent, and it ends once its reader has read what it holds. */
  let overflowed = false;
  /** Stops observing and the heartbeat: nothing more comes to this stream. */
  const quiet = () => {
    stop?.();
    stop = undefined;
    if (heartbeat !== undefined) clearInterval(heartbeat);
  };
  const end = () => {
    if (ended) return;
    ended = true;
    quiet();
    leave?.();
    leave = undefined;
    streams.open -= 1;
  };
  let queue: ReadableStreamDefaultController<Uint8Array> | undefined;
  const send = (text: string) => queue?.enqueue(encoder.encode(text));
  const room = () => (queue?.desiredSize ?? 0) > 0;
  /** Sends what waits (the replay first, then live entries) while the reader has room. */
  const flush = () => {
    while (!ended && !overflowed && room()) {
      const record = replay[replayed];
      if (record !== undefined) {
        replayed += 1;
        send(requestEvent(record.entry()));
        continue;
      }
      const entry = waiting.shift();
      if (entry === undefined) return;
      send(requestEvent(entry));
    }
  };
  /**
   * Once overflowed, the stream ends when its reader has read all it holds. Until then it counts
   * against MAX_EVENT_STREAMS: let go at once, a client that never reads could open stream after
   * stream, each holding EVENT_BUFFER events unread, its memory unbounded.
   */
  const closeIfRead = () => {
    if (!overflowed || ended || queue === undefined || queue.desiredSize !== EVENT_BUFFER) return;
    end();
    queue.close();
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        queue = controller;
        send(`retry: ${RECONNECT_MS}\n\n`);
        stop = source.observe((entry) => {
          if (ended || overflowed) return;
          waiting.push(entry);
          if (waiting.length > EVENT_BUFFER) {
            // The reader is this far behind: rather than hold more, end; its reconnect replays.
            overflowed = true;
            waiting.length = 0;
            replay.length = 0;
            quiet();
            send('event: overflow\ndata: {}\n\n');
            return;
          }
          flush();
        });
        heartbeat = setInterval(() => {
          if (room()) send(': ping\n\n');
        }, streams.heartbeatMs);
        // Holds no process open on its own: a server's close() ends the stream anyway.
        (heartbeat as { unref?: () => void }).unref?.();
        // In process (mock.request, MSW), the request's abort ends it, as fetch's body ends when its
        // request is aborted: it was left open, the reader's read() pending for ever and the stream
        // counted against MAX_EVENT_STREAMS until the process ended (over a socket, its close does).
        leave = call.gone?.(() => {
          if (ended) return;
          end();
          controller.error(new DOMException('The request was aborted.', 'AbortError'));
        });
      },
      pull: () => (overflowed ? closeIfRead() : flush()),
      cancel: end,
    },
    new CountQueuingStrategy({ highWaterMark: EVENT_BUFFER }),
  );
}

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NetworkFault } from '../mocks/control-types.js';
import type { LoggedRequest } from '../mocks/options.js';
import { requestLogLine } from '../mocks/recorder.js';
import { batchedLog, LOG_BATCH_BYTES, LOG_FLUSH_MS } from './log-writer.js';

const FAULTS: readonly NetworkFault[] = ['reset', 'close', 'malformed', 'truncated', 'hang'];
const T0 = Date.UTC(2026, 10, 28, 12, 0, 0, 5);

/** A log whose writes are kept (each chunk as it was given: a stream that holds them) and whose batches run when told. */
function recorded(now: () => number = () => T0) {
  const chunks: (Uint8Array | string)[] = [];
  const tasks: (() => void)[] = [];
  const timers: { task: () => void; ms: number }[] = [];
  const log = batchedLog({ write: (chunk) => chunks.push(chunk) }, now, {
    soon: (task) => tasks.push(task),
    after: (task, ms) => timers.push({ task, ms }),
  });
  /** Ends the turn: the batches due then are written, and (the time passing) those on a timer. */
  const runBatches = () => {
    for (let task = tasks.shift(); task !== undefined; task = tasks.shift()) task();
    for (let timer = timers.shift(); timer !== undefined; timer = timers.shift()) timer.task();
  };
  const written = () => Buffer.concat(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c)));
  return { log, chunks, tasks, timers, runBatches, written };
}

/** Texts of every kind of character a line may hold: ASCII, Latin-1, the rest of the BMP, lone surrogates included. */
const anyText = (maxLength: number) =>
  fc.string({
    unit: fc
      .oneof(
        fc.integer({ min: 0x20, max: 0x7e }),
        fc.integer({ min: 0x80, max: 0xff }),
        fc.integer({ min: 0x100, max: 0xffff }),
      )
      .map((c) => String.fromCharCode(c)),
    maxLength,
  });

const loggedRequest = fc.record({
  method: fc.oneof(fc.constantFrom('GET', 'POST', 'HEAD'), anyText(40)),
  path: fc.oneof(fc.constantFrom('/v1/pets?limit=20', '/v1/pets/1'), anyText(300)),
  status: fc.oneof(fc.constantFrom(0, 200, 401, 503), fc.integer(), fc.double()),
  code: fc.option(anyText(40), { nil: null }),
  forced: fc.boolean(),
  durationMs: fc.oneof(fc.nat(100), fc.maxSafeNat(), fc.double(), fc.constant(-0)),
});
const line = fc.oneof(
  fc.record({
    kind: fc.constant('request' as const),
    request: loggedRequest,
    fault: fc.option(fc.constantFrom(...FAULTS), { nil: undefined }),
    rule: fc.option(anyText(60), { nil: undefined }),
  }),
  fc.record({ kind: fc.constant('info' as const), text: anyText(200) }),
);

describe('the mock log on stdout', () => {
  it("writes each request's line as the bytes of its text, in order, whatever it holds", () => {
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 30 }),
        fc.array(fc.boolean(), { maxLength: 30 }),
        (lines, turns) => {
          const { log, runBatches, written } = recorded();
          const stamp = new Date(T0).toISOString();
          let expected = '';
          lines.forEach((l, i) => {
            if (l.kind === 'info') {
              log.info(l.text);
              expected += `${stamp} ${l.text}\n`;
            } else {
              log.request(l.request as LoggedRequest, l.fault, l.rule);
              expected += `${stamp} ${requestLogLine(l.request as LoggedRequest, l.fault, l.rule)}\n`;
            }
            if (turns[i] === true) runBatches();
          });
          runBatches();
          expect(written().equals(Buffer.from(expected))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('writes nothing until the turn is over, then the whole batch at once', () => {
    const { log, chunks, runBatches } = recorded();
    const request = {
      method: 'GET',
      path: '/v1/pets',
      status: 200,
      code: null,
      forced: false,
      durationMs: 3,
    };
    log.request(request, undefined, undefined);
    log.request({ ...request, status: 429, code: 'rate_limited' }, undefined, 'r1');
    expect(chunks).toHaveLength(0);
    runBatches();
    expect(chunks.map((c) => Buffer.from(c).toString())).toEqual([
      '2026-11-28T12:00:00.005Z GET /v1/pets 200 3ms\n2026-11-28T12:00:00.005Z GET /v1/pets 429 rate_limited (rule r1) 3ms\n',
    ]);
  });

  it('starts another batch when one is full, never cutting a line, and writes a line longer than a batch whole', () => {
    const { log, chunks, runBatches, written } = recorded();
    const path = `/v1/pets?q=${'x'.repeat(2000)}`;
    const request = { method: 'GET', path, status: 200, code: null, forced: false, durationMs: 1 };
    let expected = '';
    for (let i = 0; i < 100; i += 1) {
      log.request(request, undefined, undefined);
      expected += `${new Date(T0).toISOString()} GET ${path} 200 1ms\n`;
    }
    const long = 'é'.repeat(LOG_BATCH_BYTES);
    log.info(long);
    expected += `${new Date(T0).toISOString()} ${long}\n`;
    runBatches();
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) expect(Buffer.from(chunk).toString().endsWith('\n')).toBe(true);
    expect(written().toString()).toBe(expected);
  });

  it('gives the stream bytes of its own: a chunk it holds is not written over by the next batch', () => {
    const { log, chunks, runBatches } = recorded();
    log.info('first');
    runBatches();
    log.info('second');
    runBatches();
    expect(chunks.map((c) => Buffer.from(c).toString())).toEqual([
      '2026-11-28T12:00:00.005Z first\n',
      '2026-11-28T12:00:00.005Z second\n',
    ]);
  });

  it('stamps each line with the real time of its writing', () => {
    let now = T0;
    const { log, runBatches, written } = recorded(() => now);
    log.info('a');
    now += 1500;
    log.info('b');
    runBatches();
    expect(written().toString()).toBe('2026-11-28T12:00:00.005Z a\n2026-11-28T12:00:01.505Z b\n');
  });

  it('writes a batch at the end of its turn when the last was written long enough ago, else on a timer, or when told', () => {
    let now = T0;
    const { log, chunks, tasks, timers } = recorded(() => now);
    log.info('a');
    expect(tasks).toHaveLength(1);
    tasks.shift()?.();
    expect(chunks).toHaveLength(1);
    // Busy: the next batch waits until LOG_FLUSH_MS after the last write.
    now += 30;
    log.info('b');
    log.info('c');
    expect(tasks).toHaveLength(0);
    expect(timers).toEqual([{ task: expect.any(Function), ms: LOG_FLUSH_MS - 30 }]);
    expect(chunks).toHaveLength(1);
    // Stopping writes what waits at once.
    log.flush();
    expect(chunks.map((c) => Buffer.from(c).toString())).toEqual([
      '2026-11-28T12:00:00.005Z a\n',
      '2026-11-28T12:00:00.035Z b\n2026-11-28T12:00:00.035Z c\n',
    ]);
    timers.shift()?.task();
    expect(chunks).toHaveLength(2);
    // Quiet again: at the end of the turn.
    now += LOG_FLUSH_MS;
    log.info('d');
    expect(tasks).toHaveLength(1);
  });

  it('keeps one write waiting at a time, however many batches filled before it', () => {
    const { log, chunks, tasks, timers, runBatches, written } = recorded();
    const line = 'x'.repeat(1_000);
    for (let i = 0; i < 300; i += 1) log.info(line);
    expect(chunks.length).toBeGreaterThan(2);
    expect(tasks.length + timers.length).toBe(1);
    runBatches();
    expect(written().toString()).toBe(`${new Date(T0).toISOString()} ${line}\n`.repeat(300));
  });
});

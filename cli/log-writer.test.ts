import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { batchedLog, LOG_BATCH_BYTES, LOG_FLUSH_MS } from './log-writer.js';

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

describe('the mock log on stdout', () => {
  it('writes each line as the UTF-8 bytes of its text, in order, whatever it holds', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(anyText(200), anyText(3_000)), { maxLength: 40 }),
        fc.array(fc.boolean(), { maxLength: 40 }),
        (lines, turns) => {
          const { log, runBatches, written } = recorded();
          const stamp = new Date(T0).toISOString();
          let expected = '';
          lines.forEach((text, i) => {
            log.info(text);
            expected += `${stamp} ${text}\n`;
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
    log.info('GET /v1/pets 200 3ms');
    log.info('GET /v1/pets 429 rate_limited (rule r1) 3ms');
    expect(chunks).toHaveLength(0);
    runBatches();
    expect(chunks.map((c) => Buffer.from(c).toString())).toEqual([
      '2026-11-28T12:00:00.005Z GET /v1/pets 200 3ms\n2026-11-28T12:00:00.005Z GET /v1/pets 429 rate_limited (rule r1) 3ms\n',
    ]);
  });

  it('starts another batch when one is full, never cutting a line, and writes a line longer than a batch whole', () => {
    const { log, chunks, runBatches, written } = recorded();
    const line = `GET /v1/pets?q=${'x'.repeat(2000)} 200 1ms`;
    let expected = '';
    for (let i = 0; i < 100; i += 1) {
      log.info(line);
      expected += `${new Date(T0).toISOString()} ${line}\n`;
    }
    // Three bytes a character: a batch holds fewer of these lines than their length says.
    const wide = '€'.repeat(3_000);
    for (let i = 0; i < 30; i += 1) {
      log.info(wide);
      expected += `${new Date(T0).toISOString()} ${wide}\n`;
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

// The docs test's reading of a page: which blocks run and how a sh block splits into commands, and
// what an output may differ by between two runs (nothing else).
import { describe, expect, it } from 'vitest';
import { commandsOf, kindOf, parseBlocks } from './blocks.js';
import { masked } from './outputs.js';

const page = [
  '# t',
  '```sh',
  '# a comment line',
  "curl -s -H 'A: b' \\",
  '    http://127.0.0.1:4010/v1/pets   # trailing comment',
  'npx petkit mock &',
  '```',
  '```ts file=a.test.ts',
  'x',
  '```',
  '```text output',
  'out',
  '```',
  '```sh no-run',
  'npm ci',
  '```',
  '```text',
  'pasted',
  '```',
].join('\n');

describe('parseBlocks and kindOf', () => {
  it('tells commands, files, outputs and illustrations apart, and leaves an unmarked text block unknown', () => {
    const blocks = parseBlocks('t.md', page);
    expect(blocks.map((block) => [block.line, kindOf(block)])).toEqual([
      [2, 'sh'],
      [8, 'file'],
      [11, 'output'],
      [14, 'no-run'],
      [17, undefined],
    ]);
    expect(page.slice(blocks[2]?.start, blocks[2]?.end)).toBe('out\n');
  });

  it('joins continued lines and drops comment lines', () => {
    const [sh] = parseBlocks('t.md', page);
    expect(sh === undefined ? [] : commandsOf(sh)).toEqual([
      "curl -s -H 'A: b' http://127.0.0.1:4010/v1/pets   # trailing comment",
      'npx petkit mock &',
    ]);
  });
});

describe('masked', () => {
  it('masks the clock, the window counts, timings and a drawn seed', () => {
    const one =
      'Date: Mon, 23 Nov 2026 15:02:23 GMT\nx-ratelimit-reset: 1795446180\n232 requests in 0.7 s, seed 1234';
    const two =
      'Date: Tue, 24 Nov 2026 09:00:00 GMT\nx-ratelimit-reset: 1795500000\n232 requests in 1.3 s, seed 99';
    expect(masked(one)).toBe(masked(two));
  });

  it('drops the contract run’s progress lines, which a slow machine prints one more of', () => {
    const verdict = 'petkit contract  http://127.0.0.1:4010/v1  seed 1234  examples 20\n';
    const slow = `petkit contract: negative (more cases), 178 requests, 10 s elapsed, pacing 100000/min\n${verdict}`;
    expect(masked(slow)).toBe(masked(verdict));
  });

  it('keeps everything else: a changed body or status still differs', () => {
    expect(masked('HTTP/1.1 200 OK\n[{"id":1}]')).not.toBe(masked('HTTP/1.1 200 OK\n[{"id":2}]'));
    expect(masked('232 requests in 0.7 s')).not.toBe(masked('233 requests in 0.7 s'));
  });

  it('reads a head printed with CRLF (curl -i) as the page holds it, with LF', () => {
    expect(masked('HTTP/1.1 200 OK\r\ncontent-length: 9\r\n\r\n[{"id":1}]')).toBe(
      masked('HTTP/1.1 200 OK\ncontent-length: 9\n\n[{"id":1}]'),
    );
  });
});

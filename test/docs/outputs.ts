// What a printed output may differ by between two runs, and putting regenerated outputs in a page.
import type { Block } from './blocks.js';

/**
 * The parts of an output that change from run to run by nature (clock, timings, the window's count
 * at the moment the command ran): masked on both sides before the committed text is compared with
 * a fresh run. The committed text keeps the real values of the run that `npm run docs` made.
 */
const VOLATILE: readonly (readonly [RegExp, string])[] = [
  // petkit contract's progress line off a terminal comes every 10 s: on a slow machine, one more.
  [/^petkit contract: .*, \d+ requests, \d+ s elapsed, .*\n/gm, ''],
  [/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, '<time>'],
  [/^(date: ).*$/gim, '$1<date>'],
  [/(x-ratelimit-(?:reset|remaining): )\d+/gi, '$1<n>'],
  [/(retry-after: )\d+/gi, '$1<n>'],
  [/(Retry after |try again in )\d+( s| seconds?)/gi, '$1<n>$2'],
  [/(requests in )[\d.]+ s/g, '$1<n> s'],
  // A run without --seed draws one.
  [/(seed |--seed )\d+/g, '$1<n>'],
  [/( \d{3} )\d+ms$/gm, '$1<n>ms'],
  // The journal's JSON: when an entry was made, how long it took, the headers of that moment.
  [/("(?:time|durationMs|delayMs)":)\d+/g, '$1<n>'],
  [/("user-agent":")[^"]*/gi, '$1<agent>'],
  [/("(?:x-ratelimit-reset|x-ratelimit-remaining|retry-after)":")\d+/gi, '$1<n>'],
  [/("date":")[^"]*/gi, '$1<date>'],
  // The clock's reading: real time moves on between two runs.
  [/("offsetSeconds":)-?\d+/g, '$1<n>'],
];

export function masked(text: string): string {
  // curl -i prints a response's head as it came, with CRLF line ends; a page holds LF.
  let out = text.replace(/\r\n/g, '\n');
  for (const [pattern, replacement] of VOLATILE) out = out.replace(pattern, replacement);
  return out;
}

/** An output block's text as the page holds it: the output, ending in exactly one newline. */
export function asBlockText(output: string): string {
  return `${output.replace(/\r\n/g, '\n').replace(/\s+$/, '')}\n`;
}

/** The page with each output block's text replaced (offsets from parseBlocks of this very text). */
export function withOutputs(markdown: string, outputs: ReadonlyMap<Block, string>): string {
  let out = markdown;
  const blocks = [...outputs.keys()].sort((a, b) => b.start - a.start);
  for (const block of blocks)
    out = out.slice(0, block.start) + (outputs.get(block) ?? '') + out.slice(block.end);
  return out;
}

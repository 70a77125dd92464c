// The fenced code blocks of a Markdown page, with what their info string says about them:
//
//   ```sh                    commands a user runs: run by the docs test, one line at a time, in the app
//   ```sh repo               the same, in a clone of this repository
//   ```ts file=NAME          a file a user writes: type-checked in an ESM and a CommonJS app, then
//                            run (NAME.test.ts by vitest, other .ts compiled by tsc and run by node)
//   ```ts file=NAME browser  the same, type-checked there, run in Chromium by a browser test
//   ```json file=NAME        a file a user writes, used by a later block
//   ```text output           what the sh block just before printed (written by `npm run docs`)
//   ```text output=NAME      the output of a named run (written by `npm run docs`)
//   ```LANG no-run           an illustration, not run (kept few, each said why in the text)
import { readFileSync } from 'node:fs';

/** The pages whose blocks the docs test runs: the README and the reference beside it. */
export const DOC_PAGES = [
  'README.md',
  'docs/mock.md',
  'docs/msw.md',
  'docs/contract.md',
  'docs/performance.md',
];

export interface Block {
  /** The page, relative to the repository. */
  readonly page: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly lang: string;
  readonly attrs: ReadonlyMap<string, string>;
  readonly text: string;
  /** Offsets of the text (between the fences) in the page. */
  readonly start: number;
  readonly end: number;
}

export type BlockKind = 'sh' | 'file' | 'output' | 'no-run';

const FENCE = /^(\s*)```([^\n`]*)\n([\s\S]*?)^\1```[ \t]*$/gm;

export function parseBlocks(page: string, markdown: string): Block[] {
  const blocks: Block[] = [];
  for (const match of markdown.matchAll(FENCE)) {
    const [whole, indent = '', info = '', body = ''] = match;
    const words = info.trim().split(/\s+/).filter(Boolean);
    const attrs = new Map<string, string>();
    for (const word of words.slice(1)) {
      const eq = word.indexOf('=');
      attrs.set(eq < 0 ? word : word.slice(0, eq), eq < 0 ? '' : word.slice(eq + 1));
    }
    const start = match.index + whole.indexOf('\n') + 1;
    blocks.push({
      page,
      line: markdown.slice(0, match.index).split('\n').length,
      lang: words[0] ?? '',
      attrs,
      text: indent === '' ? body : body.replace(new RegExp(`^${indent}`, 'gm'), ''),
      start,
      end: start + body.length,
    });
  }
  return blocks;
}

export function readBlocks(root: string, page: string): Block[] {
  return parseBlocks(page, readFileSync(`${root}/${page}`, 'utf8'));
}

/** What the docs test does with a block; undefined when its info string says nothing it knows. */
export function kindOf(block: Block): BlockKind | undefined {
  if (block.attrs.has('no-run')) return 'no-run';
  if (block.attrs.has('output')) return 'output';
  if (block.attrs.has('file')) return 'file';
  if (block.lang === 'sh' && [...block.attrs.keys()].every((key) => key === 'repo')) return 'sh';
  return undefined;
}

export const where = (block: Block) => `${block.page}:${block.line}`;

/**
 * A sh block's commands: comment lines dropped, `\` continuations joined. A trailing `# …` comment
 * stays in the command, where the shell drops it.
 */
export function commandsOf(block: Block): string[] {
  const commands: string[] = [];
  let pending = '';
  for (const raw of block.text.split('\n')) {
    const line = raw.trimEnd();
    if (pending === '' && (line.trim() === '' || line.trimStart().startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1).trimEnd()} `;
      continue;
    }
    commands.push(`${pending}${pending === '' ? line : line.trimStart()}`);
    pending = '';
  }
  return commands;
}

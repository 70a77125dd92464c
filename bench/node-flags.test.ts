import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PETKIT_BIN, petkitNodeFlags, shebangNodeFlags } from './node-flags.js';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('the node flags of the petkit command', () => {
  it('reads the flags of a shebang, and none from a plain one', () => {
    expect(shebangNodeFlags('#!/usr/bin/env -S node --max-semi-space-size=8 --foo')).toEqual([
      '--max-semi-space-size=8',
      '--foo',
    ]);
    expect(shebangNodeFlags('#!/usr/bin/env node')).toEqual([]);
    expect(shebangNodeFlags('#!/usr/local/bin/node --bar')).toEqual(['--bar']);
    expect(() => shebangNodeFlags('// no shebang')).toThrow(/Not a node shebang/);
  });

  it('are the same in the built bin (what the bench starts) and in `npm start`', () => {
    const flags = petkitNodeFlags(root);
    expect(flags).toEqual(['--max-semi-space-size=8']);
    const { scripts } = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(scripts.start).toBe(['node', ...flags, PETKIT_BIN, 'mock'].join(' '));
  });
});

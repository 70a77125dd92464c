import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type CpuProfile, placeOf, summarizeProfile } from './profile-summary.js';

const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0 });

describe('summarizeProfile', () => {
  it('gives each sample’s time to the function it landed in, and sums by package or file', () => {
    const profile: CpuProfile = {
      startTime: 0,
      endTime: 4000,
      nodes: [
        { id: 1, callFrame: frame('(root)', ''), children: [2, 4, 5] },
        { id: 2, callFrame: frame('validate', 'file:///r/node_modules/ajv/dist/core.js'), children: [3] },
        { id: 3, callFrame: frame('handle', 'file:///r/dist/mocks/mock.js') },
        { id: 4, callFrame: frame('compile', 'file:///r/node_modules/ajv/dist/compile.js'), children: [6] },
        { id: 5, callFrame: frame('(garbage collector)', '') },
        { id: 6, callFrame: frame('writev', '') },
      ],
      samples: [2, 2, 3, 4, 6, 5, 1],
      timeDeltas: [0, 1000, 1000, 1000, 1000, 1000, 1000],
    };
    const summary = summarizeProfile(profile);
    expect(summary.totalMs).toBe(6);
    expect(summary.byPlace).toEqual([
      { name: 'ajv', ms: 3, share: 0.5 },
      { name: '(garbage collector)', ms: 1, share: 1 / 6 },
      { name: '(native / V8)', ms: 1, share: 1 / 6 },
      { name: 'mocks/mock.js', ms: 1, share: 1 / 6 },
    ]);
    expect(summary.byFunction.map((f) => f.name)).toEqual([
      'validate ajv:1',
      '(garbage collector)',
      'compile ajv:1',
      'handle mocks/mock.js:1',
      'writev (native / V8) ← compile ajv:1',
    ]);
    expect(summary.inclusive).toEqual([
      { name: 'validate ajv:1', ms: 3, share: 0.5 },
      { name: 'compile ajv:1', ms: 2, share: 1 / 3 },
      { name: 'handle mocks/mock.js:1', ms: 1, share: 1 / 6 },
    ]);
  });
});

describe('inclusive time', () => {
  it('counts a recursive function’s time once', () => {
    const profile: CpuProfile = {
      startTime: 0,
      endTime: 3000,
      nodes: [
        { id: 1, callFrame: frame('walk', 'file:///r/dist/a.js'), children: [2] },
        { id: 2, callFrame: frame('walk', 'file:///r/dist/a.js'), children: [3] },
        { id: 3, callFrame: frame('leaf', 'file:///r/dist/a.js') },
      ],
      samples: [1, 2, 3, 3],
      timeDeltas: [0, 1000, 1000, 1000],
    };
    expect(summarizeProfile(profile).inclusive).toEqual([
      { name: 'walk a.js:1', ms: 3, share: 1 },
      { name: 'leaf a.js:1', ms: 1, share: 1 / 3 },
    ]);
  });
});

describe('placeOf', () => {
  it('names a package, a scoped package, a built file and V8 itself', () => {
    expect(placeOf('file:///r/node_modules/@hono/node-server/dist/listener.mjs')).toBe('@hono/node-server');
    expect(placeOf('file:///r/node_modules/a/node_modules/ajv/x.js')).toBe('ajv');
    expect(placeOf('file:///r/dist/mocks/router.js')).toBe('mocks/router.js');
    expect(placeOf('node:internal/http/server')).toBe('node:internal/http');
    expect(placeOf('')).toBe('(native / V8)');
  });
});

describe('profile-summary-main (the command)', () => {
  const main = fileURLToPath(new URL('../dist/bench/profile-summary-main.js', import.meta.url));
  const run = (...args: string[]) => spawnSync(process.execPath, [main, ...args], { encoding: 'utf8' });
  const profile: CpuProfile = {
    startTime: 0,
    endTime: 2000,
    nodes: [
      { id: 1, callFrame: frame('(root)', ''), children: [2] },
      { id: 2, callFrame: frame('answer', 'file:///r/dist/mocks/mock.js') },
    ],
    samples: [2, 2],
    timeDeltas: [1000, 1000],
  };

  it('sums up a profile, or every profile of a directory, and says in one line what it cannot read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'petkit-prof-'));
    writeFileSync(join(dir, 'a.cpuprofile'), JSON.stringify(profile));
    writeFileSync(join(dir, 'b.cpuprofile'), JSON.stringify(profile));
    writeFileSync(join(dir, 'bad.json'), '{}');
    const one = run(join(dir, 'a.cpuprofile'), '--top', '3');
    expect(one.status).toBe(0);
    expect(one.stdout).toContain('mocks/mock.js');
    const both = run(dir);
    expect(both.status).toBe(0);
    expect(both.stdout.match(/^sampled \d+ ms$/gm)).toHaveLength(2);
    for (const [args, said] of [
      [[join(dir, 'bad.json')], /bad\.json is not a CPU profile/],
      [[join(dir, 'missing')], /no such file or directory/],
      [[], /usage:/],
      [[dir, '--top', 'x'], /usage:/],
    ] as const) {
      const failed = run(...args);
      expect(failed.status).toBe(2);
      expect(failed.stderr).toMatch(said);
      expect(failed.stderr).not.toMatch(/\n\s+at /);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { BenchArgsError, parseBenchArgs } from './args.js';

describe('parseBenchArgs', () => {
  it('defaults to 50 connections, 10 s per scenario, every server and scenario, and the contract run', () => {
    const options = parseBenchArgs([]);
    expect(options).toMatchObject({
      connections: 50,
      duration: 10,
      warmup: 2,
      slices: 10,
      journalDuration: 30,
      journalPairs: 3,
      ceilingDuration: 30,
      ceilingPairs: 3,
      contract: true,
      proxy: true,
    });
    expect(options.servers).toEqual([
      'petkit',
      'petkit-no-journal',
      'prism',
      'prism-silent',
      'ceiling-work',
      'ceiling',
    ]);
    expect(options.scenarios).toHaveLength(8);
  });

  it('makes --quick a 1 s run that an explicit --duration still overrides', () => {
    expect(parseBenchArgs(['--quick'])).toMatchObject({ duration: 1, warmup: 0.5, slices: 1 });
    expect(parseBenchArgs(['--quick', '--duration', '3'])).toMatchObject({ duration: 3, slices: 3 });
    expect(parseBenchArgs(['--duration', '5', '--slices', '5'])).toMatchObject({ duration: 5, slices: 5 });
  });

  it('drives the journal’s pair three times a scenario’s duration, unless --journal-duration says', () => {
    expect(parseBenchArgs(['--quick'])).toMatchObject({ journalDuration: 3 });
    expect(parseBenchArgs(['--duration', '4'])).toMatchObject({ journalDuration: 12 });
    expect(parseBenchArgs(['--journal-duration', '20'])).toMatchObject({ duration: 10, journalDuration: 20 });
  });

  it('reads the journal’s pair over three pairs of processes, unless --journal-pairs says', () => {
    expect(parseBenchArgs(['--quick'])).toMatchObject({ journalPairs: 3 });
    expect(parseBenchArgs(['--journal-pairs', '1'])).toMatchObject({ journalPairs: 1 });
    expect(parseBenchArgs(['--journal-pairs', '5', '--journal-duration', '50'])).toMatchObject({
      journalPairs: 5,
      journalDuration: 50,
    });
  });

  it('reads the work-matched ceiling’s pair as the journal’s, its own flags apart', () => {
    expect(parseBenchArgs(['--quick'])).toMatchObject({ ceilingDuration: 3, ceilingPairs: 3 });
    expect(parseBenchArgs(['--duration', '4'])).toMatchObject({ ceilingDuration: 12, journalDuration: 12 });
    expect(parseBenchArgs(['--ceiling-pairs', '5', '--ceiling-duration', '50'])).toMatchObject({
      ceilingPairs: 5,
      ceilingDuration: 50,
      journalPairs: 3,
      journalDuration: 30,
    });
    expect(parseBenchArgs(['--journal-pairs', '1'])).toMatchObject({ journalPairs: 1, ceilingPairs: 3 });
    expect(() => parseBenchArgs(['--ceiling-pairs', '31'])).toThrow(
      /--ceiling-pairs 31 is more than the 30 windows of 30 s side by side \(--ceiling-duration\)/,
    );
    expect(() => parseBenchArgs(['--ceiling-duration', '2', '--ceiling-pairs', '3'])).toThrow(
      /the 2 windows of 2 s/,
    );
  });

  it('refuses more pairs than the side-by-side windows, one each, rather than start them all', () => {
    // The defaults: 30 s side by side in windows of a second.
    expect(parseBenchArgs(['--journal-pairs', '30'])).toMatchObject({ journalPairs: 30 });
    expect(() => parseBenchArgs(['--journal-pairs', '31'])).toThrow(
      /--journal-pairs 31 is more than the 30 windows/,
    );
    expect(() => parseBenchArgs(['--journal-pairs', '1e9'])).toThrow(BenchArgsError);
    expect(() => parseBenchArgs(['--quick', '--journal-pairs', '4'])).toThrow(/the 3 windows of 3 s/);
  });

  it('refuses slices shorter than a tenth of a second, and connections past 10,000, rather than run them', () => {
    expect(parseBenchArgs(['--duration', '1', '--slices', '10'])).toMatchObject({ slices: 10 });
    expect(parseBenchArgs(['--duration', '0.3', '--slices', '3'])).toMatchObject({ slices: 3 });
    expect(() => parseBenchArgs(['--duration', '1', '--slices', '11'])).toThrow(
      /--slices 11 cuts --duration 1 into slices shorter than 0.1 s: at most 10/,
    );
    // A count that would never end: a hundred million slices of a ten-millionth of a second.
    expect(() => parseBenchArgs(['--slices', '100000000'])).toThrow(/at most 100$/);
    expect(() => parseBenchArgs(['--duration', '0.05'])).toThrow(/--duration 0.05 is shorter than a slice/);
    expect(parseBenchArgs(['--connections', '10000'])).toMatchObject({ connections: 10_000 });
    expect(() => parseBenchArgs(['--connections', '10001'])).toThrow(
      /--connections 10001 is more than 10000/,
    );
    expect(() => parseBenchArgs(['--connections', '1e9'])).toThrow(BenchArgsError);
  });

  it('keeps the servers and scenarios asked for, in the bench’s order', () => {
    const options = parseBenchArgs([
      '--servers',
      'ceiling,petkit',
      '--scenarios',
      'mixed,get',
      '--no-contract',
      '--no-proxy',
    ]);
    expect(options.servers).toEqual(['petkit', 'ceiling']);
    expect(options.scenarios).toEqual(['get', 'mixed']);
    expect(options.contract).toBe(false);
    expect(options.proxy).toBe(false);
  });

  it('adds a baseline build of petkit beside this one only with --baseline DIR', () => {
    expect(parseBenchArgs([]).baseline).toBeUndefined();
    const options = parseBenchArgs(['--baseline', '../petkit-before']);
    expect(options.baseline).toBe('../petkit-before');
    expect(options.servers).toEqual([
      'petkit',
      'petkit-baseline',
      'petkit-no-journal',
      'prism',
      'prism-silent',
      'ceiling-work',
      'ceiling',
    ]);
  });

  it('adds the shared mode (1 and 2 replicas on one PostgreSQL) only when asked, with --shared or --state', () => {
    const all = [
      'petkit',
      'petkit-no-journal',
      'petkit-shared',
      'petkit-shared-2',
      'prism',
      'prism-silent',
      'ceiling-work',
      'ceiling',
    ];
    expect(parseBenchArgs(['--shared']).servers).toEqual(all);
    expect(parseBenchArgs(['--shared']).state).toBeUndefined();
    const external = parseBenchArgs(['--state', 'postgres://bench@db.internal/petkit']);
    expect(external.servers).toEqual(all);
    expect(external.state).toBe('postgres://bench@db.internal/petkit');
    expect(parseBenchArgs(['--servers', 'petkit-shared-2,ceiling']).servers).toEqual([
      'petkit-shared-2',
      'ceiling',
    ]);
  });

  it.each([
    [['--servers', 'fastify']],
    [['--duration', '0']],
    [['--connections', '2.5']],
    [['--slices', '1.5']],
    [['--slices', '0']],
    [['--journal-duration', '-1']],
    [['--journal-duration', 'long']],
    [['--journal-pairs', '0']],
    [['--journal-pairs', '-2']],
    [['--journal-pairs', '2.5']],
    [['--journal-pairs', 'three']],
    [['--ceiling-duration', '0']],
    [['--ceiling-duration', 'NaN']],
    [['--ceiling-pairs', '0']],
    [['--ceiling-pairs', '1.5']],
    [['--ceiling-pairs', 'Infinity']],
    [['--frobnicate']],
  ])('rejects %j with a BenchArgsError', (argv) => {
    expect(() => parseBenchArgs(argv)).toThrow(BenchArgsError);
  });
});

// The servers the bench compares, each started as its own process on a port given to it.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { shebangFlags } from './node-flags.js';
import { BENCH_PETS } from './scenarios.js';

export type ServerId =
  | 'petkit'
  | 'petkit-baseline'
  | 'petkit-no-journal'
  | 'petkit-shared'
  | 'petkit-shared-2'
  | 'prism'
  | 'prism-silent'
  | 'ceiling-work'
  | 'ceiling';

export interface ServerContext {
  /** The repository root: commands run there, paths below are relative to it. */
  readonly root: string;
  /** The keys file that gives the bench key limits the run never reaches. */
  readonly keysFile: string;
  /** Another petkit's checkout, built (`--baseline DIR`): its `petkit mock` is measured beside this one's. */
  readonly baseline?: string;
  /** The shared mode's database (`--shared`): its URL, and its server's pid for CPU per answer. */
  readonly state?: { readonly url: string; readonly pid: number | undefined };
}

export interface ServerSpec {
  readonly id: ServerId;
  readonly label: string;
  /** The base path the server serves the API at: Prism drops the server URL's `/v1`. */
  readonly prefix: string;
  /** Runs only with `--baseline DIR`: another build of petkit. */
  readonly baseline?: boolean;
  /** Runs only with `--shared`: its state is in PostgreSQL, and its CPU counts the database's. */
  readonly shared?: boolean;
  /** A control endpoint that resets the server's state, POSTed before and during each scenario. */
  readonly resetPath?: string;
  /**
   * The command line, run in the repository root: a script that `node` runs, or (`bin`) an
   * executable that runs itself, as a user's shell runs it.
   */
  command(port: number, context: ServerContext): { readonly bin?: string; readonly args: string[] };
}

/** The built `petkit` command: run as an executable, its shebang gives node the flags it runs with. */
export const PETKIT_BIN = 'dist/bin/petkit.js';
/** Where builds before the bundled command (2026-11-28) have it. */
const UNBUNDLED_BIN = 'dist/cli/main.js';

/** The `petkit` command of a checkout, built: the bundle, or in an older build its modules' entry. */
export function petkitBinIn(dir: string): string | undefined {
  for (const bin of [PETKIT_BIN, UNBUNDLED_BIN]) if (existsSync(resolve(dir, bin))) return resolve(dir, bin);
  return undefined;
}
/** The node flags petkit's command runs with: the ceilings run with them too (bench/node-flags.ts). */
const petkitFlags = (context: ServerContext): string[] => shebangFlags(resolve(context.root, PETKIT_BIN));
const PRISM = 'node_modules/@stoplight/prism-cli/dist/index.js';

/** `petkit mock`'s arguments for the bench, its state shared when `state` is given. */
const mockArgs = (port: number, { keysFile, state }: ServerContext, shared: boolean): string[] => [
  'mock',
  '--port',
  String(port),
  '--keys',
  keysFile,
  '--pets',
  String(BENCH_PETS),
  ...(shared && state !== undefined ? ['--state', state.url] : []),
];

export const SERVERS: readonly ServerSpec[] = [
  {
    id: 'petkit',
    label: 'petkit mock',
    prefix: '/v1',
    resetPath: '/__petkit/reset',
    command: (port, context) => ({ bin: PETKIT_BIN, args: mockArgs(port, context, false) }),
  },
  {
    // What a change costs: the same mock from another build (--baseline DIR), with the same flags.
    id: 'petkit-baseline',
    label: 'petkit mock, baseline build',
    prefix: '/v1',
    baseline: true,
    resetPath: '/__petkit/reset',
    command: (port, context) => ({
      bin: petkitBinIn(context.baseline ?? '.') ?? resolve(context.baseline ?? '.', PETKIT_BIN),
      args: mockArgs(port, context, false),
    }),
  },
  {
    // What the journal costs: the same mock keeping no requests (the log line is still written).
    id: 'petkit-no-journal',
    label: 'petkit mock --journal-limit 0',
    prefix: '/v1',
    resetPath: '/__petkit/reset',
    command: (port, context) => ({
      bin: PETKIT_BIN,
      args: [...mockArgs(port, context, false), '--journal-limit', '0'],
    }),
  },
  {
    id: 'petkit-shared',
    label: 'petkit mock --state, 1 replica',
    prefix: '/v1',
    shared: true,
    resetPath: '/__petkit/reset',
    command: (port, context) => ({ bin: PETKIT_BIN, args: mockArgs(port, context, true) }),
  },
  {
    id: 'petkit-shared-2',
    label: 'petkit mock --state, 2 replicas',
    prefix: '/v1',
    shared: true,
    resetPath: '/__petkit/reset',
    command: (port, context) => ({
      args: ['dist/bench/replicas-main.js', '2', ...mockArgs(port, context, true).slice(1)],
    }),
  },
  {
    id: 'prism',
    label: 'Prism 5 static',
    prefix: '',
    command: (port) => ({ args: [PRISM, 'mock', 'openapi.yaml', '-p', String(port), '-h', '127.0.0.1'] }),
  },
  {
    id: 'prism-silent',
    label: 'Prism 5 static -v silent',
    prefix: '',
    command: (port) => ({
      args: [PRISM, 'mock', 'openapi.yaml', '-p', String(port), '-h', '127.0.0.1', '-v', 'silent'],
    }),
  },
  {
    id: 'ceiling-work',
    label: 'node:http ceiling, work-matched',
    prefix: '/v1',
    command: (port, context) => ({
      args: [...petkitFlags(context), 'dist/bench/ceiling-main.js', '--port', String(port), '--work'],
    }),
  },
  {
    id: 'ceiling',
    label: 'node:http ceiling, precomputed',
    prefix: '/v1',
    command: (port, context) => ({
      args: [...petkitFlags(context), 'dist/bench/ceiling-main.js', '--port', String(port)],
    }),
  },
];

// The servers the bench compares, each started as its own process on a port given to it.
import { BENCH_PETS } from './scenarios.js';

export type ServerId = 'petkit' | 'prism' | 'prism-silent' | 'ceiling';

export interface ServerContext {
  /** The repository root: commands run there, paths below are relative to it. */
  readonly root: string;
  /** The keys file that gives the bench key limits the run never reaches. */
  readonly keysFile: string;
}

export interface ServerSpec {
  readonly id: ServerId;
  readonly label: string;
  /** The base path the server serves the API at: Prism drops the server URL's `/v1`. */
  readonly prefix: string;
  /** A control endpoint that resets the server's state, POSTed before and during each scenario. */
  readonly resetPath?: string;
  /**
   * The command line, run in the repository root: a script that `node` runs, or (`bin`) an
   * executable that runs itself, as a user's shell runs it.
   */
  command(port: number, context: ServerContext): { readonly bin?: string; readonly args: string[] };
}

/** The built `petkit` command: run as an executable, its shebang gives node the flags it runs with. */
export const PETKIT_BIN = 'dist/cli/main.js';
const PRISM = 'node_modules/@stoplight/prism-cli/dist/index.js';

export const SERVERS: readonly ServerSpec[] = [
  {
    id: 'petkit',
    label: 'petkit mock',
    prefix: '/v1',
    resetPath: '/__petkit/reset',
    command: (port, { keysFile }) => ({
      bin: PETKIT_BIN,
      args: ['mock', '--port', String(port), '--keys', keysFile, '--pets', String(BENCH_PETS)],
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
    id: 'ceiling',
    label: 'node:http ceiling',
    prefix: '/v1',
    command: (port) => ({ args: ['dist/bench/ceiling-main.js', '--port', String(port)] }),
  },
];

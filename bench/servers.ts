// The servers the bench compares, each started as its own `node` process on a port given to it.
import { PETKIT_BIN, petkitNodeFlags } from './node-flags.js';
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
  /** Arguments to `node`, run in the repository root. */
  args(port: number, context: ServerContext): string[];
}

const PRISM = 'node_modules/@stoplight/prism-cli/dist/index.js';

export const SERVERS: readonly ServerSpec[] = [
  {
    id: 'petkit',
    label: 'petkit mock',
    prefix: '/v1',
    resetPath: '/__petkit/reset',
    // Started as the `petkit` command runs: with the node flags of its shebang.
    args: (port, { root, keysFile }) => [
      ...petkitNodeFlags(root),
      PETKIT_BIN,
      'mock',
      '--port',
      String(port),
      '--keys',
      keysFile,
      '--pets',
      String(BENCH_PETS),
    ],
  },
  {
    id: 'prism',
    label: 'Prism 5 static',
    prefix: '',
    args: (port) => [PRISM, 'mock', 'openapi.yaml', '-p', String(port), '-h', '127.0.0.1'],
  },
  {
    id: 'prism-silent',
    label: 'Prism 5 static -v silent',
    prefix: '',
    args: (port) => [PRISM, 'mock', 'openapi.yaml', '-p', String(port), '-h', '127.0.0.1', '-v', 'silent'],
  },
  {
    id: 'ceiling',
    label: 'node:http ceiling',
    prefix: '/v1',
    args: (port) => ['dist/bench/ceiling-main.js', '--port', String(port)],
  },
];

import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer } from './server-process.js';
import type { ServerSpec } from './servers.js';

const LISTEN = `
const port = Number(process.argv[1]);
require('node:http').createServer((q, s) => s.end('[]')).listen(port, '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
`;

const spec: ServerSpec = {
  id: 'ceiling',
  label: 'counted',
  prefix: '/v1',
  args: (port) => ['-e', LISTEN, String(port)],
};

describe('the count-requests preload', () => {
  it('counts every request the server process receives, into its file, and leaves no temporary behind', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'petkit-count-')), 'requests.count');
    const server = await startServer(
      spec,
      { root: process.cwd(), keysFile: 'unused.json' },
      { nodeArgs: ['--import', './dist/bench/count-requests.js'], env: { PETKIT_BENCH_COUNT_FILE: file } },
    );
    try {
      for (let i = 0; i < 5; i += 1) await (await fetch(`${server.origin}/v1/pets`)).text();
    } finally {
      await server.stop();
    }
    // The start-up probe's one answered request (refused connections before listen are not requests),
    // and the five.
    expect(Number(readFileSync(file, 'utf8'))).toBe(6);
    expect(existsSync(`${file}.tmp`)).toBe(false);
  });
});

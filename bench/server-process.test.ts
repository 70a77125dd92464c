import { describe, expect, it } from 'vitest';
import { answers, ServerStartError, startServer } from './server-process.js';
import type { ServerSpec } from './servers.js';

/** A server as a `node -e` script: answers 200 on every path after `delay` ms, or exits at once. */
function inline(script: string): ServerSpec {
  return {
    id: 'ceiling',
    label: 'inline server',
    prefix: '/v1',
    args: (port) => ['-e', script, String(port)],
  };
}

const LISTEN = `
const port = Number(process.argv[1]);
require('node:http').createServer((q, s) => s.end('[]')).listen(port, '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
`;

const context = { root: process.cwd(), keysFile: 'unused.json' };

describe('startServer', () => {
  it('starts a server in its own process on a free port, times its first answer, and stops it', async () => {
    const server = await startServer(inline(LISTEN), context);
    try {
      expect(server.pid).not.toBe(process.pid);
      expect(server.startToFirstAnswerMs).toBeGreaterThan(0);
      expect(await answers(`${server.origin}/v1/pets?limit=1`)).toBe(true);
    } finally {
      await server.stop();
    }
    expect(await answers(`${server.origin}/v1/pets?limit=1`)).toBe(false);
  });

  it('fails with what the process said when it exits before answering', async () => {
    const spec = inline('process.stderr.write("no keys file\\n"); process.exit(2)');
    const error = await startServer(spec, context).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerStartError);
    expect((error as ServerStartError).message).toBe('inline server exited with code 2');
    expect((error as ServerStartError).stderr).toBe('no keys file\n');
  });
});

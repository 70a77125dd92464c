import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { answers, ServerStartError, startServer } from './server-process.js';
import type { ServerSpec } from './servers.js';

/** A server as a `node -e` script: answers 200 on every path after `delay` ms, or exits at once. */
function inline(script: string): ServerSpec {
  return {
    id: 'ceiling',
    label: 'inline server',
    prefix: '/v1',
    command: (port) => ({ args: ['-e', script, String(port)] }),
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

describe('the count-requests preload', () => {
  it('counts every request the server process receives, into its file, and leaves no temporary behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petkit-count-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'requests.count');
    const server = await startServer(inline(LISTEN), context, {
      nodeOptions: ['--import ./dist/bench/count-requests.js'],
      env: { PETKIT_BENCH_COUNT_FILE: file },
    });
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

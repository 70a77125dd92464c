// --host as a user gives it to `petkit mock` and `petkit proxy`: an empty one, one of no address here.
import { spawnSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse as parseMock } from './mock.js';
import { parse as parseProxy } from './proxy.js';

const MAIN = fileURLToPath(new URL('../dist/bin/petkit.js', import.meta.url));
const UPSTREAM = ['--upstream', 'http://127.0.0.1:9/v1'];

describe('--host', () => {
  it('refuses an empty host (an unset variable), which would bind every interface', () => {
    for (const host of ['', ' ']) {
      const message = `--host must name an address to bind, got "${host}"; e.g. 127.0.0.1, or 0.0.0.0 for every interface.`;
      expect(() => parseMock(['--host', host])).toThrow(message);
      expect(() => parseProxy([...UPSTREAM, '--host', host])).toThrow(message);
    }
    expect(parseMock(['--host', '::1']).host).toBe('::1');
    expect(parseProxy(UPSTREAM).host).toBe('127.0.0.1');
  });

  it('exits 2 from either command, the flag named, for a host of no address of this machine', () => {
    for (const [command, args] of [
      ['mock', []],
      ['proxy', UPSTREAM],
    ] as const) {
      const run = spawnSync(
        process.execPath,
        [MAIN, command, ...args, '--port', '0', '--host', '192.0.2.1'],
        {
          encoding: 'utf8',
        },
      );
      expect(run.status).toBe(2);
      expect(run.stderr).toBe(
        `petkit ${command}: --host 192.0.2.1: not an address of this machine (EADDRNOTAVAIL); e.g. 127.0.0.1, or 0.0.0.0 for every interface.\n`,
      );
    }
  });

  it('says a port is taken, and what to do, exit 1', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      for (const [command, args] of [
        ['mock', []],
        ['proxy', UPSTREAM],
      ] as const) {
        const run = spawnSync(process.execPath, [MAIN, command, ...args, '--port', String(port)], {
          encoding: 'utf8',
        });
        expect(run.status).toBe(1);
        expect(run.stderr).toBe(
          `petkit ${command}: cannot listen on 127.0.0.1:${port}: the port is taken by another process (EADDRINUSE); --port N for another, --port 0 for any free one.\n`,
        );
      }
    } finally {
      taken.close();
    }
  });
});

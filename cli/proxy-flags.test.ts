// petkit proxy's numeric flags as a user may mistype them: refused, named, exit 2, never read as a
// number they are not.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { parse } from './proxy.js';

const MAIN = fileURLToPath(new URL('../dist/bin/petkit.js', import.meta.url));
const UPSTREAM = ['--upstream', 'http://127.0.0.1:9/v1'];

it('refuses --port and --upstream-timeout with white space around their digits, where they were trimmed', () => {
  expect(() => parse([...UPSTREAM, '--port', ' 80'])).toThrow(
    '--port must be an integer from 0 to 65535, got " 80".',
  );
  expect(() => parse([...UPSTREAM, '--upstream-timeout', '500 '])).toThrow(
    '--upstream-timeout must be an integer from 1 to 2147483647, got "500 ".',
  );
  expect(parse([...UPSTREAM, '--port', '0']).port).toBe(0);
});

it('exits 2, the flag named, for a port with a space (it listened on the port the digits say)', () => {
  const run = spawnSync(process.execPath, [MAIN, 'proxy', ...UPSTREAM, '--port', ' 0'], {
    encoding: 'utf8',
    timeout: 10_000,
  });
  expect(run.status).toBe(2);
  expect(run.stderr).toBe(
    'petkit proxy: --port must be an integer from 0 to 65535, got " 0".\nRun \'petkit proxy --help\' for the options.\n',
  );
});

it('refuses an upstream that is the proxy itself, where one request came back to it thousands of times', () => {
  for (const [upstream, host] of [
    ['http://127.0.0.1:4011/v1', '127.0.0.1'],
    ['http://localhost:4011/v1', '127.0.0.1'],
    ['http://[::1]:4011', '::1'],
    ['http://127.0.0.1:4011/v1', '0.0.0.0'],
  ] as const) {
    expect(() => parse(['--upstream', upstream, '--port', '4011', '--host', host])).toThrow(
      `--upstream ${upstream.replace(/\/v1$/, '/v1')} is this proxy's own address (it listens on ${host}:4011): every request would come back to it without end; give the backend's URL.`,
    );
  }
  // Another port, an https upstream (the proxy speaks http), --port 0: a backend it may be.
  expect(parse(['--upstream', 'http://127.0.0.1:4010/v1', '--port', '4011']).upstream).toBe(
    'http://127.0.0.1:4010/v1',
  );
  expect(parse(['--upstream', 'https://127.0.0.1:4011/v1', '--port', '4011']).port).toBe(4011);
  expect(parse(['--upstream', 'http://127.0.0.1:4011/v1', '--port', '0']).port).toBe(0);
});

// `petkit proxy … | head -1`: the reader of its stdout gone after the first line.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { expect, it, onTestFinished } from 'vitest';

const MAIN = fileURLToPath(new URL('../dist/bin/petkit.js', import.meta.url));

it('forwards on when the reader of its stdout goes, saying so once on stderr', async () => {
  const upstream = createServer((_request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end('[]');
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => upstream.close(() => resolve())));
  const { port } = upstream.address() as AddressInfo;
  const child = spawn(
    process.execPath,
    [MAIN, 'proxy', '--port', '0', '--upstream', `http://127.0.0.1:${port}/v1`],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  onTestFinished(() => {
    child.kill('SIGKILL');
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
  let out = '';
  let err = '';
  child.stderr.on('data', (data: Buffer) => {
    err += data.toString();
  });
  const url = await new Promise<string>((resolve) => {
    child.stdout.on('data', (data: Buffer) => {
      out += data.toString();
      const found = /forwarding (\S+) to/.exec(out);
      if (found !== null) resolve(found[1] as string);
    });
  });
  // head -1 has its line and exits: the next line the proxy prints meets a closed pipe.
  child.stdout.destroy();
  for (let i = 0; i < 3; i += 1) expect((await fetch(`${url}/pets`)).status).toBe(200);
  while (!err.includes('stdout was closed')) await new Promise((resolve) => setTimeout(resolve, 10));
  child.kill('SIGTERM');
  expect(await exit).toBe(0);
  expect(err).toBe(
    'petkit proxy: stdout was closed (EPIPE): departures and exchanges are no longer printed (GET /__petkit/departures has them); still forwarding.\n',
  );
});

// `npm run bench:proxy`: what petkit proxy adds to a request. Starts `petkit mock` and a `petkit
// proxy` in front of it, each in its own process, drives the same scenario at each in turn with
// autocannon, and prints the latency and throughput of both, the ratio, and the overhead per request.

import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_KEYS_FILE } from './keys-file.js';
import { runLoad } from './load.js';
import { SCENARIOS } from './scenarios.js';
import { startServer } from './server-process.js';
import { PETKIT_BIN, SERVERS, type ServerSpec } from './servers.js';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const duration = Number(process.env.PETKIT_BENCH_SECONDS ?? 5);
const connections = Number(process.env.PETKIT_BENCH_CONNECTIONS ?? 10);

const keysFile = join(tmpdir(), `petkit-bench-keys-${process.pid}.json`);
await writeFile(keysFile, JSON.stringify(BENCH_KEYS_FILE));
const context = { root: ROOT, keysFile };
const mockSpec = SERVERS.find((s) => s.id === 'petkit') as ServerSpec;
const scenario = SCENARIOS.find((s) => s.id === 'list-20');
if (scenario === undefined) throw new Error('no list-20 scenario');

const mock = await startServer(mockSpec, context);
const proxySpec: ServerSpec = {
  ...mockSpec,
  label: 'petkit proxy → petkit mock',
  command: (port) => ({
    bin: PETKIT_BIN,
    args: ['proxy', '--upstream', `${mock.origin}/v1`, '--port', String(port)],
  }),
};
const proxy = await startServer(proxySpec, context);
try {
  const warm = { connections, duration: 1 };
  await runLoad(mock.origin, '/v1', scenario, warm);
  await runLoad(proxy.origin, '/v1', scenario, warm);
  const direct = await runLoad(mock.origin, '/v1', scenario, { connections, duration, pid: mock.pid });
  const proxied = await runLoad(proxy.origin, '/v1', scenario, { connections, duration, pid: proxy.pid });
  const row = (label: string, f: typeof direct) =>
    `${label.padEnd(28)} ${String(Math.round(f.rps)).padStart(7)} req/s  p50 ${f.p50} ms  p99 ${f.p99} ms  unexpected ${f.unexpected + f.errors}`;
  process.stdout.write(
    `proxy overhead, scenario ${scenario.id}, ${connections} connections, ${duration} s each\n` +
      `${row('direct (petkit mock)', direct)}\n` +
      `${row('through petkit proxy', proxied)}\n` +
      `throughput ratio proxied/direct: ${(proxied.rps / direct.rps).toFixed(2)}\n` +
      `overhead per request: ${(1000 / proxied.rps - 1000 / direct.rps).toFixed(3)} ms of wall time at this load` +
      (proxied.cpuUsPerRequest === undefined
        ? '\n'
        : `, ${Math.round(proxied.cpuUsPerRequest)} µs of the proxy's CPU\n`),
  );
} finally {
  await proxy.stop();
  await mock.stop();
}

// What petkit proxy adds to a request, measured by `npm run bench` after the servers' table (skip it
// with --no-proxy): `petkit mock` and a `petkit proxy` in front of it, each in its own process, the
// list-20 scenario driven at each in turn with autocannon; the latency and throughput of both, the
// ratio, and the overhead per request.
import { runLoad } from './load.js';
import { SCENARIOS } from './scenarios.js';
import { startServer } from './server-process.js';
import { PETKIT_BIN, SERVERS, type ServerContext, type ServerSpec } from './servers.js';

export interface ProxyFigures {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly unexpected: number;
  readonly cpuUsPerRequest?: number | undefined;
}

export interface ProxyOverhead {
  readonly scenario: string;
  readonly connections: number;
  readonly duration: number;
  readonly direct: ProxyFigures;
  readonly proxied: ProxyFigures;
}

export async function measureProxyOverhead(
  context: ServerContext,
  options: { connections: number; duration: number; warmup: number },
): Promise<ProxyOverhead> {
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
  try {
    const proxy = await startServer(proxySpec, context);
    try {
      const { connections, duration } = options;
      const warm = { connections, duration: Math.max(1, options.warmup) };
      await runLoad(mock.origin, '/v1', scenario, warm);
      await runLoad(proxy.origin, '/v1', scenario, warm);
      const direct = await runLoad(mock.origin, '/v1', scenario, { connections, duration, pid: mock.pid });
      const proxied = await runLoad(proxy.origin, '/v1', scenario, { connections, duration, pid: proxy.pid });
      const figures = (f: typeof direct): ProxyFigures => ({
        rps: f.rps,
        p50: f.p50,
        p99: f.p99,
        unexpected: f.unexpected + f.errors,
        cpuUsPerRequest: f.cpuUsPerRequest,
      });
      return {
        scenario: scenario.id,
        connections,
        duration,
        direct: figures(direct),
        proxied: figures(proxied),
      };
    } finally {
      await proxy.stop();
    }
  } finally {
    await mock.stop();
  }
}

export function renderProxyOverhead(result: ProxyOverhead): string {
  const row = (label: string, f: ProxyFigures) =>
    `${label.padEnd(28)} ${String(Math.round(f.rps)).padStart(7)} req/s  p50 ${f.p50} ms  p99 ${f.p99} ms  unexpected ${f.unexpected}`;
  const { direct, proxied } = result;
  return (
    `proxy overhead, scenario ${result.scenario}, ${result.connections} connections, ${result.duration} s each\n` +
    `${row('direct (petkit mock)', direct)}\n` +
    `${row('through petkit proxy', proxied)}\n` +
    `throughput ratio proxied/direct: ${(proxied.rps / direct.rps).toFixed(2)}\n` +
    `overhead per request: ${(1000 / proxied.rps - 1000 / direct.rps).toFixed(3)} ms of wall time at this load` +
    (proxied.cpuUsPerRequest === undefined
      ? ''
      : `, ${Math.round(proxied.cpuUsPerRequest)} µs of the proxy's CPU`)
  );
}

// `npm run bench`: starts each server in its own process, warms it up, drives every scenario with
// autocannon, times a full contract run, prints the tables and writes the same figures as JSON.
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, release, totalmem, type } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCluster } from '../test/support/postgres/cluster.js';
import { BenchArgsError, type BenchOptions, HELP, parseBenchArgs, sideBySideWindows } from './args.js';
import { timeContractRun } from './contract-timing.js';
import { readFreshPairs } from './fresh-pairs.js';
import { BENCH_KEYS_FILE } from './keys-file.js';
import { type LoadFigures, mergeSlices, runLoad, turnOrder } from './load.js';
import { readMemory } from './memory.js';
import { measureProxyOverhead, type ProxyOverhead, renderProxyOverhead } from './proxy-overhead.js';
import { computeRatios, median } from './ratios.js';
import type { BenchReport, ContractResult, ScenarioResult, ServerResult } from './report.js';
import { startResetLoop } from './reset-loop.js';
import { SCENARIOS, type Scenario } from './scenarios.js';
import { type RunningServer, startServer } from './server-process.js';
import {
  PETKIT_BIN,
  petkitBinIn,
  SERVERS,
  type ServerContext,
  type ServerId,
  type ServerSpec,
} from './servers.js';
import { mergeSideBySide, runSideBySide, type SideBySideFigures } from './side-by-side.js';
import { fullReport } from './table.js';

const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

type Started = {
  readonly spec: ServerSpec;
  readonly server: RunningServer;
  readonly scenarios: ScenarioResult[];
};

async function start(spec: ServerSpec, context: ServerContext): Promise<Started | ServerResult> {
  try {
    const server = await startServer(spec, context);
    log(
      `${spec.label}: first answer ${Math.round(server.startToFirstAnswerMs)} ms after spawn (pid ${server.pid})`,
    );
    return { spec, server, scenarios: [] };
  } catch (error) {
    const said = (error as { stderr?: string }).stderr?.trim().split('\n').slice(-1)[0];
    const reason = `${(error as Error).message}${said ? `: ${said}` : ''}`;
    log(`${spec.label}: not run (${reason})`);
    return { server: spec.id, label: spec.label, ran: false, reason };
  }
}

/** How many times each server is started to time its start: the median is reported. */
const START_ROUNDS = 3;

/**
 * Each server's start to first answer, START_ROUNDS times (a shared one's once): the first start (the
 * instance the load is then sent to), then more, in turns with a different server first each round
 * and each stopped at once. The first process the bench spawns was slower to start than the same command spawned later
 * (by 40 to 60 ms on two cores): one start, always in the same order, favoured the later servers.
 */
async function startInTurns(
  running: readonly Started[],
  context: ServerContext,
): Promise<Map<Started, number[]>> {
  const times = new Map<Started, number[]>(running.map((r) => [r, [r.server.startToFirstAnswerMs]]));
  // A shared server is started once: another replica would seed the database the first one uses.
  const alone = running.filter((r) => r.spec.shared !== true);
  for (let round = 1; round < START_ROUNDS; round += 1) {
    for (let i = 0; i < alone.length; i += 1) {
      const started = alone[(i + round) % alone.length] as Started;
      try {
        const again = await startServer(started.spec, context);
        await again.stop();
        times.get(started)?.push(again.startToFirstAnswerMs);
      } catch {
        // It started once already; a failed timing start leaves that one.
      }
    }
  }
  return times;
}

/** One scenario against one server, its state reset before and during the run when it has a reset. */
async function measure(
  started: Started,
  scenario: Scenario,
  connections: number,
  duration: number,
  pid?: number,
  database?: number,
) {
  const { spec, server } = started;
  // The shared mode's answers cost the replicas' CPU and the database's.
  const cpuPids =
    pid !== undefined && spec.shared === true
      ? [pid, ...(database === undefined ? [] : [database])]
      : undefined;
  const stopResets = await startResets(started);
  return runLoad(server.origin, spec.prefix, scenario, {
    connections,
    duration,
    ...(pid === undefined ? {} : { pid }),
    ...(cpuPids === undefined ? {} : { cpuPids }),
  }).finally(stopResets);
}

/** Warms servers up with the mixed workload for `--warmup` seconds, one after the other. */
async function warmUp(servers: readonly Started[], options: BenchOptions): Promise<void> {
  const mixed = SCENARIOS.find((s) => s.id === 'mixed');
  if (mixed === undefined) return;
  for (const started of servers) await measure(started, mixed, options.connections, options.warmup);
}

/** Resets a server's state now and every second while it is driven (when it has a reset); the stop. */
async function startResets({ spec, server }: Started): Promise<(() => void) | undefined> {
  return spec.resetPath === undefined ? undefined : startResetLoop(`${server.origin}${spec.resetPath}`);
}

/**
 * petkit and another server (`--journal-limit 0`, the work-matched ceiling, a baseline build) driven at the same time
 * for `durationS` (the scenario's duration unless said), in windows a slice long (bench/side-by-side.ts):
 * what petkit costs over the other read with the machine's moves falling on both. `which` tells the
 * log line which pair of processes it was. Undefined unless both run.
 */
async function sideBySideWith(
  running: readonly Started[],
  other: ServerId,
  scenario: Scenario,
  options: BenchOptions,
  durationS = options.duration,
  which = '',
): Promise<SideBySideFigures | undefined> {
  const petkit = running.find((r) => r.spec.id === 'petkit');
  const against = running.find((r) => r.spec.id === other);
  if (petkit === undefined || against === undefined) return undefined;
  const stops = await Promise.all([petkit, against].map(startResets));
  try {
    const figures = await runSideBySide(
      [
        { origin: petkit.server.origin, prefix: petkit.spec.prefix, pid: petkit.server.pid },
        { origin: against.server.origin, prefix: against.spec.prefix, pid: against.server.pid },
      ],
      scenario,
      {
        connections: options.connections,
        // Windows as long as a slice, as many as the pair's seconds hold.
        windows: sideBySideWindows(durationS, options),
        windowMs: (options.duration * 1000) / options.slices,
      },
    );
    const wrong = figures.unexpected[0] + figures.unexpected[1] + figures.errors[0] + figures.errors[1];
    log(
      `${scenario.id}, petkit and ${against.spec.label} side by side${which}: ${figures.windows.length} windows` +
        (wrong > 0 ? `, ${wrong} unexpected answers or errors (${JSON.stringify(figures)})` : ''),
    );
    return figures;
  } finally {
    for (const stop of stops) stop?.();
  }
}

/**
 * A pair side by side (petkit and `--journal-limit 0`, or the work-matched ceiling) read over `pairs`
 * pairs of processes, each driven `seconds / pairs` seconds: first the run's own two, then for each
 * further pair two fresh processes of the same commands, warmed as the run's were and stopped after.
 * Two processes of the same build read ±2 % apart from one pair to the next, and one disturbed
 * stretch of seconds moved one pair's figure by a tenth (run 56: the ceiling's pair on list-20 at
 * 0.78 side by side, 0.89 in turns), so one pair would decide the scenario's figure; over several, it
 * is averaged. A fresh pair that fails (to start, warm up or be driven) is logged and ends the
 * reading with the pairs that ran; the next scenario tries again. Undefined unless both servers run.
 */
async function pairsSideBySide(
  running: readonly Started[],
  other: 'petkit-no-journal' | 'ceiling-work',
  scenario: Scenario,
  options: BenchOptions,
  context: ServerContext,
  { seconds, pairs }: { readonly seconds: number; readonly pairs: number },
): Promise<SideBySideFigures | undefined> {
  const durationS = seconds / pairs;
  const name = other === 'ceiling-work' ? 'ceiling' : 'journal';
  const of = (pair: number) => (pairs > 1 ? ` (pair ${pair} of ${pairs})` : '');
  const first = await sideBySideWith(running, other, scenario, options, durationS, of(1));
  if (first === undefined) return undefined;
  const read = [first];
  const specs = ['petkit', other].flatMap((id) => running.find((r) => r.spec.id === id)?.spec ?? []);
  const further = await readFreshPairs<Started, SideBySideFigures>(2, pairs, {
    start: specs.map((spec) => async () => ({
      spec,
      server: await startServer(spec, context),
      scenarios: [],
    })),
    read: async (fresh, pair) => {
      await warmUp(fresh, options);
      return sideBySideWith(
        fresh,
        other,
        scenario,
        options,
        durationS,
        `${of(pair)}, fresh processes (pids ${fresh.map((f) => f.server.pid).join(', ')})`,
      );
    },
    stop: (fresh) => fresh.server.stop(),
    failed: (pair, error) => {
      const said = (error as { stderr?: string }).stderr?.trim().split('\n').slice(-1)[0];
      log(
        `${scenario.id}, ${name}: pair ${pair} of ${pairs} failed (${(error as Error).message}${said ? `: ${said}` : ''}); ` +
          `reading the ${pair - 1} that ran`,
      );
    },
  });
  read.push(...further);
  const merged = mergeSideBySide(read);
  log(
    `${scenario.id}, ${name}: ${read.length} ${read.length === 1 ? 'pair' : 'pairs'} of processes, ${merged?.windows.length ?? 0} windows`,
  );
  return merged;
}

/**
 * Every server runs at once but only one is driven at a time: scenario by scenario, and within a
 * scenario slice by slice in turn, so the figures compared in a ratio are taken seconds apart (the
 * machine is shared; its load drifts).
 */
async function benchServers(context: ServerContext, options: BenchOptions): Promise<ServerResult[]> {
  const results: (Started | ServerResult)[] = [];
  for (const spec of SERVERS.filter((s) => options.servers.includes(s.id))) {
    results.push(await start(spec, context));
  }
  const running = results.filter((r): r is Started => 'spec' in r);
  const starts = await startInTurns(running, context);
  try {
    await warmUp(running, options);
    for (const scenario of SCENARIOS.filter((s) => options.scenarios.includes(s.id))) {
      // The servers take turns slice by slice, in an order reversed every other slice: a ratio
      // compares figures taken seconds apart, and no server always follows the same one.
      const slices = new Map<Started, LoadFigures[]>(running.map((r) => [r, []]));
      for (let slice = 0; slice < options.slices; slice += 1) {
        for (const started of turnOrder(running, slice)) {
          slices
            .get(started)
            ?.push(
              await measure(
                started,
                scenario,
                options.connections,
                options.duration / options.slices,
                started.server.pid,
                context.state?.pid,
              ),
            );
        }
      }
      const journal = await pairsSideBySide(running, 'petkit-no-journal', scenario, options, context, {
        seconds: options.journalDuration,
        pairs: options.journalPairs,
      });
      const ceiling = await pairsSideBySide(running, 'ceiling-work', scenario, options, context, {
        seconds: options.ceilingDuration,
        pairs: options.ceilingPairs,
      });
      const baseline = await sideBySideWith(running, 'petkit-baseline', scenario, options);
      // Kept on petkit's row: it is the first of every pair.
      const pairs: Pick<ScenarioResult, 'journalSideBySide' | 'ceilingSideBySide' | 'baselineSideBySide'> = {
        ...(journal === undefined ? {} : { journalSideBySide: journal }),
        ...(ceiling === undefined ? {} : { ceilingSideBySide: ceiling }),
        ...(baseline === undefined ? {} : { baselineSideBySide: baseline }),
      };
      for (const started of running) {
        const taken = slices.get(started) ?? [];
        const figures = mergeSlices(taken);
        started.scenarios.push({
          scenario: scenario.id,
          ...figures,
          slices: taken.map((slice) => ({ rps: slice.rps, cpuUsPerRequest: slice.cpuUsPerRequest })),
          ...(started.spec.id === 'petkit' ? pairs : {}),
        });
        log(
          `${scenario.id} on ${started.spec.label}: ${Math.round(figures.rps)} req/s, p99 ${figures.p99} ms, ` +
            `${figures.unexpected} unexpected, ${figures.errors} errors, ` +
            `statuses ${JSON.stringify(figures.statuses)}`,
        );
      }
    }
    const done: ServerResult[] = [];
    for (const r of results) {
      if (!('spec' in r)) {
        done.push(r);
        continue;
      }
      const memory = await readMemory(r.server.pid);
      done.push({
        server: r.spec.id,
        label: r.spec.label,
        ran: true,
        pid: r.server.pid,
        startToFirstAnswerMs: median(starts.get(r) ?? [r.server.startToFirstAnswerMs]),
        peakRss: memory?.peak,
        scenarios: r.scenarios,
      });
    }
    return done;
  } finally {
    await Promise.all(running.map((r) => r.server.stop()));
  }
}

/**
 * The shared mode's PostgreSQL: the one at `url`, or a throwaway embedded one (test/support/postgres) whose
 * pid lets CPU per answer count the database's work too.
 */
async function sharedDatabase(
  url: string | undefined,
): Promise<{ url: string; pid: number | undefined; stop(): Promise<void> }> {
  if (url !== undefined) return { url, pid: undefined, stop: async () => undefined };
  const cluster = await startCluster();
  log(
    `PostgreSQL for the shared mode: 127.0.0.1:${cluster.port} (pid ${cluster.pid}), ready in ${Math.round(cluster.timings.initdbMs + cluster.timings.startMs)} ms`,
  );
  return {
    url: `postgres://${cluster.user}@${cluster.host}:${cluster.port}/postgres`,
    pid: cluster.pid,
    stop: () => cluster.destroy(),
  };
}

function machine(): BenchReport['machine'] {
  return {
    cpus: cpus()[0]?.model.trim() ?? 'unknown CPU',
    cores: availableParallelism(),
    memoryGb: Math.round(totalmem() / 1024 ** 3),
    node: process.versions.node,
    os: `${type()} ${release()}`,
  };
}

export async function main(argv: readonly string[]): Promise<number> {
  let options: BenchOptions;
  try {
    options = parseBenchArgs(argv);
  } catch (error) {
    if (!(error instanceof BenchArgsError)) throw error;
    process.stderr.write(`bench: ${error.message}\n\n${HELP}`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const root = fileURLToPath(new URL('../../', import.meta.url));
  if (options.baseline !== undefined && petkitBinIn(options.baseline) === undefined) {
    process.stderr.write(
      `bench: --baseline ${options.baseline}: no ${PETKIT_BIN} there; run npm ci && npm run build in that checkout first\n`,
    );
    return 2;
  }
  const scratch = join(root, 'bench-results');
  await mkdir(scratch, { recursive: true });
  const keysFile = join(scratch, 'bench-keys.json');
  await writeFile(keysFile, `${JSON.stringify(BENCH_KEYS_FILE, null, 2)}\n`);
  const date = new Date();
  const shared = SERVERS.some((s) => s.shared === true && options.servers.includes(s.id));
  const database = shared ? await sharedDatabase(options.state) : undefined;
  const context: ServerContext = {
    root,
    keysFile,
    ...(options.baseline === undefined ? {} : { baseline: resolve(options.baseline) }),
    ...(database === undefined ? {} : { state: { url: database.url, pid: database.pid } }),
  };

  let servers: ServerResult[];
  try {
    servers = await benchServers(context, options);
  } finally {
    await database?.stop();
  }

  const petkit = SERVERS.find((s) => s.id === 'petkit');
  let contract: ContractResult = { ran: false, reason: 'skipped (--no-contract)' };
  if (options.contract && petkit !== undefined) {
    log('petkit contract against petkit mock: timing a full default run');
    contract = await timeContractRun({ context, petkit, scratch });
  }

  let proxy: ProxyOverhead | undefined;
  if (options.proxy && petkit !== undefined) {
    log('petkit proxy in front of petkit mock: its overhead per request against a direct call');
    proxy = await measureProxyOverhead(context, options);
  }

  const report: BenchReport = {
    date: date.toISOString(),
    machine: machine(),
    options: { connections: options.connections, duration: options.duration, warmup: options.warmup },
    servers,
    ratios: computeRatios(servers, options.scenarios),
    contract,
    ...(proxy === undefined ? {} : { proxy }),
  };
  const output = resolve(
    options.output ?? join(scratch, `bench-${date.toISOString().replace(/[:.]/g, '-')}.json`),
  );
  await writeFile(output, `${JSON.stringify(report, null, 2)}\n`);
  const proxyText = proxy === undefined ? '' : `\n\n${renderProxyOverhead(proxy)}`;
  process.stdout.write(`${fullReport(report)}${proxyText}\n\nJSON: ${output}\n`);
  return 0;
}

process.exitCode = await main(process.argv.slice(2));

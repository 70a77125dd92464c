// Times a full default `petkit contract` run against a fresh `petkit mock`, counting the requests the
// mock receives with the count-requests preload.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ContractResult } from './report.js';
import { BENCH_KEY } from './scenarios.js';
import { type RunningServer, startServer } from './server-process.js';
import { PETKIT_BIN, type ServerContext, type ServerSpec } from './servers.js';

export interface ContractTimingOptions {
  readonly context: ServerContext;
  /** The petkit mock's spec. */
  readonly petkit: ServerSpec;
  /** A scratch directory for the request count file. */
  readonly scratch: string;
}

async function readCount(file: string): Promise<number | undefined> {
  try {
    const text = (await readFile(file, 'utf8')).trim();
    const value = Number(text);
    return text !== '' && Number.isInteger(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Waits for the preload to flush (it writes every 20 ms), then reads the count. */
async function settledCount(file: string): Promise<number | undefined> {
  await sleep(60);
  return readCount(file);
}

export async function timeContractRun(options: ContractTimingOptions): Promise<ContractResult> {
  const countFile = join(options.scratch, 'contract-requests.count');
  let server: RunningServer;
  try {
    server = await startServer(options.petkit, options.context, {
      nodeOptions: ['--import ./dist/bench/count-requests.js'],
      env: { PETKIT_BENCH_COUNT_FILE: countFile },
    });
  } catch (error) {
    return { ran: false, reason: `petkit mock did not start: ${(error as Error).message}` };
  }
  try {
    const before = await settledCount(countFile);
    const started = performance.now();
    const { code, stderr } = await runContract(
      options.context.root,
      `${server.origin}${options.petkit.prefix}`,
    );
    const wallMs = performance.now() - started;
    const after = await settledCount(countFile);
    if (code === 2) {
      const said = stderr.trim().split('\n')[0] ?? '';
      return { ran: false, reason: `petkit contract could not run (exit 2): ${said}` };
    }
    const requests = before === undefined || after === undefined ? undefined : after - before;
    return {
      ran: true,
      wallMs,
      requests,
      rps: requests === undefined ? undefined : requests / (wallMs / 1000),
      exitCode: code,
    };
  } finally {
    await server.stop();
  }
}

function runContract(root: string, baseUrl: string): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [PETKIT_BIN, 'contract', '--base-url', baseUrl, '--api-key', BENCH_KEY],
      { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-4096);
    });
    child.on('error', (error) => resolve({ code: 2, stderr: error.message }));
    child.on('exit', (code) => resolve({ code: code ?? 2, stderr }));
  });
}

// Starts one server process, times spawn → first successful answer, and stops it.
import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { delimiter, dirname, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './free-port.js';
import { BENCH_KEY } from './scenarios.js';
import type { ServerContext, ServerSpec } from './servers.js';

export interface RunningServer {
  readonly spec: ServerSpec;
  readonly pid: number;
  /** `http://127.0.0.1:PORT`, without the server's prefix. */
  readonly origin: string;
  /** Milliseconds from spawn to the first 2xx answer to `GET {prefix}/pets?limit=1`. */
  readonly startToFirstAnswerMs: number;
  /** What the process wrote to stderr so far (the last 4 KiB). */
  stderr(): string;
  stop(): Promise<void>;
}

/** Thrown when a server exits or does not answer in time; `stderr` holds what it said. */
export class ServerStartError extends Error {
  override readonly name = 'ServerStartError';
  constructor(
    message: string,
    readonly stderr: string,
  ) {
    super(message);
  }
}

const POLL_MS = 5;

export interface StartOptions {
  /** Give up when no 2xx answer came within this many milliseconds. Default 20,000. */
  readonly timeoutMs?: number;
  /** Node options for the process, through NODE_OPTIONS (`--import …`). Default none. */
  readonly nodeOptions?: readonly string[];
  /** Variables added to the process's environment. Default none. */
  readonly env?: Readonly<Record<string, string>>;
}

export async function startServer(
  spec: ServerSpec,
  context: ServerContext,
  options: StartOptions = {},
): Promise<RunningServer> {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const { bin, args } = spec.command(port, context);
  // An executable's `#!/usr/bin/env node` finds this same node first on the PATH.
  const path = [dirname(process.execPath), process.env.PATH].join(delimiter);
  const nodeOptions = [process.env.NODE_OPTIONS ?? '', ...(options.nodeOptions ?? [])].join(' ').trim();
  const child = spawn(bin === undefined ? process.execPath : resolve(context.root, bin), args, {
    cwd: context.root,
    env: { ...process.env, PATH: path, NODE_OPTIONS: nodeOptions, ...options.env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4096);
  });
  let exited: string | undefined;
  // 'close', not 'exit': by then stderr has been read to its end.
  child.on('close', (code, signal) => {
    exited = `exited with ${signal ?? `code ${code}`}`;
  });
  child.on('error', (err) => {
    exited = `could not start: ${err.message}`;
  });
  const probe = `${origin}${spec.prefix}/pets?limit=1`;
  for (;;) {
    if (exited !== undefined) throw new ServerStartError(`${spec.label} ${exited}`, stderr);
    if (performance.now() - started > timeoutMs) {
      await stopChild(child);
      throw new ServerStartError(`${spec.label} gave no 2xx answer within ${timeoutMs} ms`, stderr);
    }
    if (await answers(probe)) break;
    await sleep(POLL_MS);
  }
  const startToFirstAnswerMs = performance.now() - started;
  if (child.pid === undefined) throw new ServerStartError(`${spec.label} has no pid`, stderr);
  return {
    spec,
    pid: child.pid,
    origin,
    startToFirstAnswerMs,
    stderr: () => stderr,
    stop: () => stopChild(child),
  };
}

/** True when the URL answers 2xx to the bench key. */
export function answers(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(url, { headers: { authorization: `Bearer ${BENCH_KEY}` }, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve((res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300));
      res.on('error', () => resolve(false));
    });
    req.setTimeout(2000, () => req.destroy());
    req.on('error', () => resolve(false));
    req.end();
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = sleep(5000).then(() => 'late' as const);
  if ((await Promise.race([gone, timer])) === 'late') {
    child.kill('SIGKILL');
    await gone;
  }
}

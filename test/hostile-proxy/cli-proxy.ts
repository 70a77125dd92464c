// `petkit proxy` as a user runs it: the built CLI in a process of its own, so a request that stops
// the process is seen as a user would see it (the process gone), not as an error in the test's own.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../dist/bin/petkit.js', import.meta.url));

export interface CliProxy {
  /** The proxy's origin: `http://127.0.0.1:PORT`. */
  readonly origin: string;
  /** Everything it printed so far, stdout and stderr. */
  readonly output: () => string;
  /** The exit code once it has exited, null while it runs. */
  readonly exitCode: () => number | null;
  stop(): void;
}

export async function startCliProxy(args: readonly string[]): Promise<CliProxy> {
  const child: ChildProcess = spawn(process.execPath, [MAIN, 'proxy', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (data: Buffer) => {
    out += data.toString();
  });
  child.stderr?.on('data', (data: Buffer) => {
    out += data.toString();
  });
  for (;;) {
    const found = /^petkit proxy: forwarding (http:\/\/[^/\s]+)/m.exec(out);
    if (found?.[1] !== undefined) {
      const origin = found[1];
      return {
        origin,
        output: () => out,
        exitCode: () => child.exitCode,
        stop: () => {
          child.kill('SIGKILL');
        },
      };
    }
    if (child.exitCode !== null) throw new Error(`petkit proxy exited ${child.exitCode}: ${out}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

// What the tests that drive `petkit contract` as a user would share: an Io whose streams are captured,
// and per test a served target and a scratch folder, closed and removed after it. Test code only.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { Io } from '../../cli/contract.js';
import type { Served } from '../servers/reference.js';

export interface CapturedIo {
  readonly io: Io;
  /** Everything written to stdout so far. */
  out(): string;
  /** Everything written to stderr so far. */
  err(): string;
}

/** An Io off a terminal whose stdout and stderr are kept, with `env` and, if given, the run's clock. */
export function captureIo(env: Record<string, string> = {}, clock?: Io['clock']): CapturedIo {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    stdout: { write: (text: string) => (stdout += text), isTTY: false },
    stderr: { write: (text: string) => (stderr += text), isTTY: false },
    env,
    ...(clock === undefined ? {} : { clock }),
  };
  return { io, out: () => stdout, err: () => stderr };
}

export interface Scratch {
  /** Keeps the target to close after the test (each one, when a test serves more); returns it. */
  serve(served: Served): Served;
  /** A fresh folder for this test's files (the same one within a test), removed after it. */
  dir(): string;
}

/** Registers, in the calling test file, the closing of each test's target and the removal of its folder. */
export function scratchPerTest(prefix: string): Scratch {
  const served: Served[] = [];
  let dir: string | undefined;
  afterEach(async () => {
    for (const target of served.splice(0)) await target.close();
    if (dir !== undefined) rmSync(dir, { recursive: true });
    dir = undefined;
  });
  return {
    serve(target) {
      served.push(target);
      return target;
    },
    dir() {
      dir ??= mkdtempSync(join(tmpdir(), prefix));
      return dir;
    },
  };
}

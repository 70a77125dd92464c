// A directory of the running test's own under the system's temporary folder, removed when the test
// ends, passed or failed: a test run leaves nothing behind in a user's /tmp.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/** Made now (inside a test), removed with everything in it when the test finishes. */
export function testDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

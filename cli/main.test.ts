// The `petkit` command itself: its help and version, whoever reads them.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const MAIN = fileURLToPath(new URL('../dist/bin/petkit.js', import.meta.url));

it('exits 0 without a stack trace when the reader of its help is gone before it writes (petkit --help | true)', () => {
  // `true` reads nothing and exits at once; node starts long after, and writes into a pipe with no reader.
  for (const args of ['--help', '--version', 'help mock', 'mock --help', 'proxy --help']) {
    const run = spawnSync(
      'sh',
      ['-c', `"$0" "$1" ${args} | true; echo "status \${PIPESTATUS:-$?}"`, process.execPath, MAIN],
      {
        encoding: 'utf8',
      },
    );
    expect(run.stderr).toBe('');
  }
  const run = spawnSync(
    'bash',
    ['-c', `"$0" "$1" --help | true; echo "\${PIPESTATUS[0]}"`, process.execPath, MAIN],
    {
      encoding: 'utf8',
    },
  );
  expect(run.stderr).toBe('');
  expect(run.stdout).toBe('0\n');
});

it('takes `petkit help help` as a question about petkit, not an unknown command', () => {
  const run = spawnSync(process.execPath, [MAIN, 'help', 'help'], { encoding: 'utf8' });
  expect(run.status).toBe(0);
  expect(run.stdout).toMatch(/^petkit: a mock server and contract-testing kit/);
});

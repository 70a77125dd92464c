// The `petkit` command itself: its help and version, whoever reads them.
import { spawn, spawnSync } from 'node:child_process';
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

it('runs petkit contract to its verdict when the reader of its stdout goes (petkit contract … | true)', async () => {
  const { startServer } = await import('petkit');
  const mock = await startServer({ port: 0 });
  try {
    // `true` reads nothing and exits at once: the report, written at the end, meets a closed pipe.
    const child = spawn(
      'bash',
      [
        '-c',
        `"$0" "$1" contract --base-url "$2" --api-key demo-enterprise --checks response_schema_conformance | true; echo "\${PIPESTATUS[0]}"`,
        process.execPath,
        MAIN,
        mock.url,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (data: Buffer) => {
      out += data.toString();
    });
    child.stderr.on('data', (data: Buffer) => {
      err += data.toString();
    });
    await new Promise((resolve) => child.on('close', resolve));
    expect(out).toBe('0\n');
    expect(err).not.toContain('    at ');
    expect(err).toMatch(
      /^petkit contract: stdout was closed \(EPIPE\): the report is no longer written there; the run goes on/m,
    );
  } finally {
    await mock.close();
  }
});

it('exits 0 without a stack trace when the reader of petkit contract --help is gone', () => {
  const run = spawnSync(
    'bash',
    ['-c', `"$0" "$1" contract --help | true; echo "\${PIPESTATUS[0]}"`, process.execPath, MAIN],
    { encoding: 'utf8' },
  );
  expect(run.stderr).toBe('');
  expect(run.stdout).toBe('0\n');
});

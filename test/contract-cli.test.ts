// `petkit contract` end to end: flags, environment, reporters, exit codes, and the key never printed.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, onTestFinished, test } from 'vitest';
import { type Io, run } from '../cli/contract.js';
import { CHECK_IDS, type Report } from '../contract-tests/index.js';
import { BROKEN_SERVERS } from './servers/broken.js';
import { fakeClock } from './servers/fake-clock.js';
import {
  type AsyncHandler,
  createReference,
  REFERENCE_KEY,
  type Served,
  serve,
} from './servers/reference.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

function fakeIo(env: Record<string, string> = {}, tty = false) {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    stdout: { write: (text: string) => (stdout += text), isTTY: tty },
    stderr: { write: (text: string) => (stderr += text), isTTY: tty },
    env,
  };
  return { io, out: () => stdout, err: () => stderr };
}

async function start(handler: AsyncHandler = createReference()): Promise<string> {
  served = await serve(handler);
  return served.url;
}

describe('petkit contract exits 2 when it cannot run', () => {
  test('on an unknown flag', async () => {
    const { io, err } = fakeIo();
    expect(await run(['--base-url', 'http://x/v1', '--frobnicate'], io)).toBe(2);
    expect(err()).toMatch(/Unknown option '--frobnicate'/);
  });

  test('without a base URL', async () => {
    const { io, err } = fakeIo();
    expect(await run(['--api-key', 'k'], io)).toBe(2);
    expect(err()).toMatch(/A base URL is required \(--base-url or CONTRACT_BASE_URL\)/);
  });

  test('on a base URL with a user and password in it (never shown), or a query or fragment', async () => {
    const first = fakeIo();
    expect(await run(['--base-url', 'http://ci:hunter2@127.0.0.1:4010/v1', '--api-key', 'k'], first.io)).toBe(
      2,
    );
    expect(first.err()).toBe(
      'petkit contract: The base URL must not carry a user or password (user:password@host; not shown): the suite sends the key from --api-key, as a bearer token.\n',
    );
    expect(first.out()).toBe('');
    for (const url of ['http://127.0.0.1:4010/v1?tenant=a', 'http://127.0.0.1:4010/v1#']) {
      const { io, err } = fakeIo();
      expect(await run(['--base-url', url, '--api-key', 'k'], io)).toBe(2);
      expect(err()).toBe(
        "petkit contract: The base URL must be the API's base path, with no ?query or #fragment: http://127.0.0.1:4010/v1, for instance.\n",
      );
    }
  });

  test('on an unknown check or reporter', async () => {
    const first = fakeIo();
    expect(await run(['--base-url', 'http://x/v1', '--api-key', 'k', '--checks', 'speed'], first.io)).toBe(2);
    expect(first.err()).toMatch(/--checks: unknown check "speed"/);
    const second = fakeIo();
    expect(await run(['--base-url', 'http://x/v1', '--api-key', 'k', '--reporter', 'tap'], second.io)).toBe(
      2,
    );
    expect(second.err()).toMatch(/--reporter must be pretty, junit or json/);
  });

  test('when the target is unreachable', async () => {
    const url = await start();
    await served?.close();
    served = undefined;
    const { io, out, err } = fakeIo();
    expect(await run(['--base-url', url, '--api-key', REFERENCE_KEY], io)).toBe(2);
    expect(err()).toMatch(/Cannot reach http:\/\/127\.0\.0\.1:\d+\/v1\/pets/);
    // No table of skipped checks: only the reason.
    expect(out()).toMatch(
      /^petkit contract .*\n\nverdict: stopped \(exit 2\): Cannot reach .*\n {2}curl -i 'http:\/\/127\.0\.0\.1:\d+\/v1\/pets' .*\$API_KEY.*\n1 request in/,
    );
    expect(out()).not.toContain('not_a_server_error');
  });

  test('when the key is rejected on every call, without printing it', async () => {
    const { io, out, err } = fakeIo();
    expect(await run(['--base-url', await start(), '--api-key', 'not-the-key-xyz'], io)).toBe(2);
    expect(err()).toMatch(/answered 401 to the API key on every call/);
    expect(out() + err()).not.toContain('not-the-key-xyz');
  });

  test('when the base URL lacks the /v1 prefix', async () => {
    const { io, err } = fakeIo();
    const url = (await start()).replace(/\/v1$/, '');
    expect(await run(['--base-url', url, '--api-key', REFERENCE_KEY], io)).toBe(2);
    expect(err()).toMatch(/does --base-url include its version prefix \(…\/v1\)/);
  });
});

describe('petkit contract says what is wrong with a flag, and what would be right', () => {
  const base = ['--base-url', 'http://127.0.0.1:9/v1', '--api-key', 'k'];
  test.each([
    [['--max-rpm', '-1'], '--max-rpm must be a positive integer, got -1.'],
    [['--examples', '-3'], '--examples must be an integer ≥ 0, got -3.'],
    [['--budget', '0'], '--budget must be a positive integer, got 0.'],
    [['--budget', '-5'], '--budget must be a positive integer, got -5.'],
    [['--timeout', 'soon'], '--timeout must be an integer, got "soon".'],
    [['--time-budget', '0'], '--time-budget must be an integer from 1 to 86400, got "0".'],
    [
      ['--checks', 'auth'],
      `--checks: unknown check "auth" (did you mean auth_enforced?). The checks: ${CHECK_IDS.join(', ')}.`,
    ],
    [
      ['--skip', 'list_semantic,notfound'],
      `--skip: unknown check "list_semantic" (did you mean list_semantics?); unknown check "notfound" (did you mean not_found?). The checks: ${CHECK_IDS.join(', ')}.`,
    ],
    [
      ['--operations', 'getPets'],
      '--operations: unknown operation "getPets" (did you mean getPet?). The operations: listPets, createPet, getPet.',
    ],
    [
      ['--checks', 'not_found', '--skip', 'not_found'],
      '--checks and --skip both name not_found: give it to one of them.',
    ],
    [
      ['--probe-rate-limit', '--skip', 'rate_limit_behaviour'],
      '--probe-rate-limit runs rate_limit_behaviour, which --skip leaves out: give one of them.',
    ],
    [
      ['--operations', 'getPet', '--skip-operations', 'getPet'],
      '--operations and --skip-operations both name getPet: give it to one of them.',
    ],
    [
      ['--skip-operations', 'listPets,createPet,getPet'],
      'No operation left to test (--operations and --skip-operations exclude them all).',
    ],
  ])('%j: %s', async (flags, message) => {
    const { io, out, err } = fakeIo();
    expect(await run([...base, ...flags], io)).toBe(2);
    expect(err()).toBe(`petkit contract: ${message}\n`);
    expect(out()).toBe('');
  });

  test('--help says what --max-rpm does (spend the window less a margin by default), --budget and --time-budget', async () => {
    const { io, out } = fakeIo();
    expect(await run(['--help'], io)).toBe(0);
    expect(out()).toMatch(
      /--max-rpm N +at most N requests a minute, evenly paced \(default: spend the key's window as\n +X-RateLimit-Remaining allows, less a margin of 5% for its other users\)/,
    );
    expect(out()).toMatch(/--budget N +at most N requests in all/);
    expect(out()).toMatch(/--time-budget S +at most S seconds before the opt-in probes \(default 75\)/);
    expect(out()).toMatch(/--operations a,b +only these operations/);
    expect(out()).toMatch(/--probe-ban +also run rate_limit_ban/);
  });
});

describe('petkit contract reports', () => {
  test('--operations listPets,createPet: only those are tested, getPet is said to be left out and never requested', async () => {
    const reference = createReference();
    const paths = new Set<string>();
    const url = await start((request) => {
      paths.add(`${request.method} ${request.pathname.replace(/\/\d+$/, '/{id}')}`);
      return reference(request);
    });
    const { io, out } = fakeIo();
    expect(
      await run(
        [
          '--base-url',
          url,
          '--api-key',
          REFERENCE_KEY,
          '--operations',
          'listPets,createPet',
          '--reporter',
          'json',
        ],
        io,
      ),
    ).toBe(0);
    const report = JSON.parse(out()) as Report;
    expect([...paths].sort()).toEqual(['GET /v1/pets', 'POST /v1/pets']);
    const getPet = report.results.filter((result) => result.operationId === 'getPet');
    expect(getPet.length).toBeGreaterThan(0);
    for (const result of getPet)
      expect(result).toMatchObject({
        outcome: 'skipped',
        reason: 'not selected (--operations/--skip-operations)',
      });
    expect(
      report.results.filter((r) => r.operationId !== 'getPet' && r.outcome === 'passed').length,
    ).toBeGreaterThan(10);
  });

  test('--skip-operations getPet: the same selection', async () => {
    const { io, out } = fakeIo();
    expect(
      await run(['--base-url', await start(), '--api-key', REFERENCE_KEY, '--skip-operations', 'getPet'], io),
    ).toBe(0);
    expect(out()).toMatch(/^not_found +· +· +- skip$/m);
  });

  test('off a terminal, a progress line at least every 10 s: phase, requests, elapsed, pacing, and the window it waits for until when (60-a-minute key, fake clock)', async () => {
    const clock = fakeClock();
    const url = await start(createReference({ perMinute: 60, now: clock.now }));
    let stderr = '';
    const stamps: number[] = [];
    const io: Io = {
      stdout: { write: () => true, isTTY: false },
      stderr: {
        write: (text: string) => {
          stderr += text;
          stamps.push(clock.now());
          return true;
        },
        isTTY: false,
      },
      env: {},
      clock,
    };
    const started = clock.now();
    expect(await run(['--base-url', url, '--api-key', REFERENCE_KEY, '--seed', '7'], io)).toBe(0);
    const lines = stderr.trim().split('\n');
    // A 60-a-minute key: the run waits once for its window's reset, and every line of the wait says so,
    // and until when (the run ends within 10 s of it, so no other line comes).
    for (const line of lines)
      expect(line).toMatch(
        /^petkit contract: [a-z (]+[a-z)], \d+ requests, \d+ s elapsed, pacing 60\/min; waiting for the key's rate-limit window to reset at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z, in \d+ s$/,
      );
    const gaps = [started, ...stamps].map((at, i, all) => (i === 0 ? 0 : at - (all[i - 1] ?? 0)));
    expect(Math.max(...gaps)).toBeLessThanOrEqual(10_000 + 1_000);
    expect(clock.now() - started).toBeLessThanOrEqual(120_000);
    expect(lines.length).toBeGreaterThanOrEqual(Math.floor((clock.now() - started) / 11_000));
  });

  test("off a terminal, a wait for the anonymous window's reset says so on the progress line, and until when", async () => {
    const clock = fakeClock();
    const url = await start(createReference({ anonymousPerMinute: 5, now: clock.now }));
    let stderr = '';
    const io: Io = {
      stdout: { write: () => true, isTTY: false },
      stderr: {
        write: (text: string) => {
          stderr += text;
          return true;
        },
        isTTY: false,
      },
      env: {},
      clock,
    };
    expect(await run(['--base-url', url, '--api-key', REFERENCE_KEY, '--seed', '7'], io)).toBe(0);
    const waits = stderr.split('\n').filter((line) => line.includes('waiting'));
    expect(waits.length).toBeGreaterThan(0);
    for (const wait of waits)
      expect(wait).toMatch(
        /^petkit contract: [a-z (]+[a-z)], \d+ requests, \d+ s elapsed, pacing 100000\/min; waiting for the anonymous \(keyless\) rate-limit window to reset at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z, in \d+ s$/,
      );
  });

  test('a conformant server: exit 0, the table and the seed, never the key', async () => {
    const { io, out, err } = fakeIo();
    expect(await run(['--base-url', await start(), '--api-key', REFERENCE_KEY, '--seed', '5'], io)).toBe(0);
    expect(out()).toMatch(/^auth_enforced +✓ pass +✓ pass +✓ pass$/m);
    expect(out()).toMatch(/verdict: ✓ conformant \(exit 0\)/);
    expect(out()).toMatch(/seed 5 \(--seed 5 repeats the cases\)/);
    expect(out()).toMatch(/^coverage: \d+ of 22 documented \(operation, status\) pairs exercised/m);
    expect(out() + err()).not.toContain(REFERENCE_KEY);
    expect(out()).not.toContain('\u001b[');
  });

  test('CONTRACT_BASE_URL and CONTRACT_API_KEY stand in for the flags', async () => {
    const { io, out } = fakeIo({ CONTRACT_BASE_URL: await start(), CONTRACT_API_KEY: REFERENCE_KEY });
    expect(await run(['--checks', 'not_found'], io)).toBe(0);
    expect(out()).toMatch(/^not_found +· +· +✓ pass$/m);
  });

  test('colour on a terminal, none with NO_COLOR', async () => {
    const url = await start();
    const coloured = fakeIo({}, true);
    await run(['--base-url', url, '--api-key', REFERENCE_KEY, '--checks', 'not_found'], coloured.io);
    expect(coloured.out()).toContain('\u001b[32m');
    expect(coloured.err()).toMatch(/requests/);
    const plain = fakeIo({ NO_COLOR: '1' }, true);
    await run(['--base-url', url, '--api-key', REFERENCE_KEY, '--checks', 'not_found'], plain.io);
    expect(plain.out()).not.toContain('\u001b[');
  });

  test('a broken server: exit 1, each finding with its curl, expected and got', async () => {
    const broken = BROKEN_SERVERS.find((server) => server.name === 'forgets-created');
    const { io, out } = fakeIo();
    const url = await start(broken?.handler());
    expect(await run(['--base-url', url, '--api-key', REFERENCE_KEY, '--seed', '1'], io)).toBe(1);
    expect(out()).toMatch(/^use_after_create +✗ FAIL +✓ pass +✗ FAIL$/m);
    expect(out()).toMatch(
      /getPet of the pet that createPet returned \(id \d+\): got 404( \(seen \d+ times\))?\n +expected: 200\n(.*\n)* +got: 404 /,
    );
    expect(out()).toMatch(/pet \d+ \(from createPet\) is not in the \d+ pets listed with status "available"/);
    expect(out()).toMatch(
      /curl -i '.*\/v1\/pets\/\d+' -H 'accept: application\/json' -H "authorization: Bearer \$API_KEY"/,
    );
    expect(out()).toMatch(/verdict: ✗ 2 check × operation pairs failed \(exit 1\)/);
  });

  test('--reporter json: the documented shape, with the seed', async () => {
    const { io, out } = fakeIo();
    await run(
      ['--base-url', await start(), '--api-key', REFERENCE_KEY, '--reporter', 'json', '--seed', '9'],
      io,
    );
    const report = JSON.parse(out()) as Report;
    expect(report).toMatchObject({
      tool: 'petkit contract',
      schemaVersion: 1,
      seed: 9,
      verdict: 'conformant',
      exitCode: 0,
    });
    // 17 checks × 3 operations, less the pairs a check does not apply to (positive_data_acceptance applies to getPet: its admitted spellings).
    expect(report.results).toHaveLength(41);
    expect(Object.keys(report).sort()).toEqual(
      [
        'aborted',
        'baseUrl',
        'budget',
        'coverage',
        'durationMs',
        'examples',
        'exitCode',
        'findings',
        'maxRpm',
        'readOnly',
        'requests',
        'results',
        'seed',
        'startedAt',
        'schemaVersion',
        'tool',
        'verdict',
      ].sort(),
    );
  });

  test('--reporter junit --output FILE: one testcase per check and operation, failures as failures', async () => {
    const broken = BROKEN_SERVERS.find((server) => server.name === 'ignores-limit');
    const dir = mkdtempSync(join(tmpdir(), 'petkit-'));
    const file = join(dir, 'contract.xml');
    const { io, out } = fakeIo();
    const url = await start(broken?.handler());
    expect(
      await run(['--base-url', url, '--api-key', REFERENCE_KEY, '--reporter', 'junit', '--output', file], io),
    ).toBe(1);
    const xml = readFileSync(file, 'utf8');
    rmSync(dir, { recursive: true });
    expect(xml.match(/<testcase /g)).toHaveLength(41);
    expect(xml).toMatch(
      /<testsuite name="petkit contract [^"]+" timestamp="[^"]+" time="[\d.]+" tests="41" failures="1" errors="0" skipped="2"/,
    );
    expect(xml).toMatch(/<testcase classname="list_semantics" name="list_semantics × listPets">\s*<failure/);
    expect(out()).toMatch(/nonconformant \(exit 1\).*junit report in/);
  });

  test('an --output or --har it could not write at the end stops it at start, before any request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petkit-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    let requests = 0;
    const reference = createReference();
    const url = await start((request) => {
      requests += 1;
      return reference(request);
    });
    const args = ['--base-url', url, '--api-key', REFERENCE_KEY];
    const missing = join(dir, 'missing', 'report.xml');
    const first = fakeIo();
    expect(await run([...args, '--reporter', 'junit', '--output', missing], first.io)).toBe(2);
    expect(first.err()).toBe(
      `petkit contract: --output ${missing}: the folder ${join(dir, 'missing')} does not exist.\n`,
    );
    const second = fakeIo();
    expect(await run([...args, '--har', dir], second.io)).toBe(2);
    expect(second.err()).toBe(
      `petkit contract: --har ${dir}: is a folder; give the path of a file to write.\n`,
    );
    // An empty name (an unset variable): it wrote the report, then said it could not write the HAR, exit 2.
    for (const flag of ['--output', '--har']) {
      const empty = fakeIo();
      expect(await run([...args, flag, ''], empty.io)).toBe(2);
      expect(empty.err()).toBe(
        `petkit contract: ${flag} '': an empty path names no file; give the path of a file to write.\n`,
      );
    }
    const same = fakeIo();
    const file = join(dir, 'run.out');
    expect(await run([...args, '--output', file, '--har', `${dir}/./run.out`], same.io)).toBe(2);
    expect(same.err()).toBe(
      `petkit contract: --output and --har both name ${dir}/./run.out: give each a file of its own.\n`,
    );
    expect(requests).toBe(0);
    // A device is written into, as asked: --output /dev/null.
    const third = fakeIo();
    expect(await run([...args, '--checks', 'not_found', '--output', '/dev/null'], third.io)).toBe(0);
    expect(third.out()).toMatch(
      /^petkit contract: conformant \(exit 0\), .*; pretty report in \/dev\/null\n$/,
    );
  });

  test('a report it cannot write at the end (its folder gone during the run) goes to stdout, and the exit is 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petkit-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const folder = join(dir, 'out');
    mkdirSync(folder);
    const reference = createReference();
    const url = await start((request) => {
      rmSync(folder, { recursive: true, force: true });
      return reference(request);
    });
    const { io, out, err } = fakeIo();
    const report = join(folder, 'report.json');
    const har = join(folder, 'run.har');
    const args = ['--base-url', url, '--api-key', REFERENCE_KEY, '--checks', 'not_found'];
    expect(await run([...args, '--reporter', 'json', '--output', report, '--har', har], io)).toBe(2);
    expect((JSON.parse(out()) as Report).verdict).toBe('conformant');
    expect(err()).toContain(
      `petkit contract: cannot write the report to ${report} (ENOENT); it follows on stdout.\n`,
    );
    expect(err()).toContain(`petkit contract: cannot write --har ${har} (ENOENT); its exchanges are lost.\n`);
  });

  test('--har FILE: every exchange of the run as HAR 1.2, the key shown as $API_KEY', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petkit-'));
    const har = join(dir, 'run.har');
    const report = join(dir, 'report.json');
    const { io, err } = fakeIo();
    const url = await start();
    const args = ['--base-url', url, '--api-key', REFERENCE_KEY, '--seed', '7'];
    expect(await run([...args, '--reporter', 'json', '--output', report, '--har', har], io)).toBe(0);
    const text = readFileSync(har, 'utf8');
    const { requests } = JSON.parse(readFileSync(report, 'utf8')) as Report;
    rmSync(dir, { recursive: true });
    const log = (
      JSON.parse(text) as {
        log: {
          version: string;
          creator: { name: string };
          entries: {
            request: { method: string; url: string; headers: { name: string; value: string }[] };
            response: { status: number };
          }[];
        };
      }
    ).log;
    expect(log.version).toBe('1.2');
    expect(log.creator.name).toBe('petkit contract');
    expect(log.entries).toHaveLength(requests);
    // DELETE: the http method's one probe of a method the document does not give /pets/{petId}.
    expect(new Set(log.entries.map((entry) => entry.request.method))).toEqual(
      new Set(['GET', 'POST', 'DELETE']),
    );
    expect(log.entries.every((entry) => entry.request.url.startsWith(url))).toBe(true);
    expect(log.entries.some((entry) => entry.response.status === 401)).toBe(true);
    const authorizations = log.entries.flatMap((entry) =>
      entry.request.headers.filter((header) => header.name.toLowerCase() === 'authorization'),
    );
    expect(authorizations.some((header) => header.value === 'Bearer $API_KEY')).toBe(true);
    expect(text).not.toContain(REFERENCE_KEY);
    expect(err()).toContain(`petkit contract: ${requests} exchanges written to ${har} (HAR 1.2)`);
  });

  test('--read-only sends no POST, and says which pairs it left out', async () => {
    const reference = createReference();
    const methods = new Set<string>();
    const { io, out } = fakeIo();
    const url = await start((request) => {
      methods.add(request.method);
      return reference(request);
    });
    expect(await run(['--base-url', url, '--api-key', REFERENCE_KEY, '--read-only'], io)).toBe(0);
    expect([...methods]).toEqual(['GET']);
    expect(out()).toMatch(/skipped \(--read-only: no request sent\): not_a_server_error × createPet/);
    expect(out()).toMatch(/^use_after_create +✓ pass +- skip +✓ pass$/m);
  });
});

/** The built `petkit contract` against `url` with the reference key: its exit status and output. */
function builtContract(url: string, args: string[]) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(
      process.execPath,
      ['dist/bin/petkit.js', 'contract', '--base-url', url, '--api-key', REFERENCE_KEY, ...args],
      (error, stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

test('--output /dev/stdout writes the report into its stdout, a pipe here as under CI', async () => {
  const url = await start();
  const result = await builtContract(url, [
    '--checks',
    'not_found',
    '--reporter',
    'junit',
    '--output',
    '/dev/stdout',
  ]);
  expect(result.code).toBe(0);
  // stdout is the report and nothing else (`> report.xml` stays whole); the verdict's line on stderr.
  expect(result.stdout).toMatch(
    /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites [\s\S]*<\/testsuites>$/,
  );
  expect(result.stderr).toMatch(
    /^petkit contract: conformant \(exit 0\), .*; junit report in \/dev\/stdout\n$/m,
  );
});

test('the built binary runs it: npx petkit contract', async () => {
  const url = await start();
  const result = await builtContract(url, ['--checks', 'not_found,auth_enforced']);
  expect(result.code).toBe(0);
  expect(result.stdout).toMatch(/verdict: ✓ conformant \(exit 0\)/);
});

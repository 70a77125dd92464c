// The suite against a hostile target, through the CLI as a user meets it: each hostile habit gives a
// clear finding or a clean exit 2 with a message, and a written report; never a hang or an unhandled
// rejection, and the key in no output.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { type Io, run } from '../cli/contract.js';
import type { Report } from '../contract-tests/index.js';
import { fakeClock } from './servers/fake-clock.js';
import { HOSTILE_SERVERS, serveHostile } from './servers/hostile.js';
import { REFERENCE_KEY, type Served } from './servers/reference.js';

let served: Served | undefined;
let dir: string | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
  if (dir !== undefined) rmSync(dir, { recursive: true });
  dir = undefined;
});

/** What each must come to: the exit status, and what the report or the message says. */
const EXPECTED: Record<string, { exit: 0 | 1 | 2; says: RegExp }> = {
  // The head may have come before the reset: the finding then says which status it was.
  'resets-mid-response': {
    exit: 1,
    says: /(no response|answered \d{3}, but its body could not be read): .*(terminated|closed|reset|ECONNRESET)/i,
  },
  'never-ends': { exit: 1, says: /no response within 300 ms/ },
  'two-megabyte-list': { exit: 1, says: /came back/ },
  'endless-body': { exit: 1, says: /the response body is larger than 4 MiB: not read further/ },
  'html-as-json': { exit: 1, says: /the body is not JSON \(Content-Type: application\/json\)/ },
  'retry-after-an-hour': { exit: 2, says: /Retry-After: 3600, longer than the suite waits/ },
  'endless-429': { exit: 2, says: /answered 429 to 4 attempts in a row/ },
  'one-answer-per-connection': { exit: 0, says: /conformant/ },
  'silent-after-first-answer': {
    exit: 1,
    says: /^the target stopped answering: no response to 3 requests in a row/m,
  },
};

test('every hostile server has its expectation', () => {
  expect(Object.keys(EXPECTED).sort()).toEqual(HOSTILE_SERVERS.map((server) => server.name).sort());
});

test.each(HOSTILE_SERVERS)(
  '$name ($does): a clear finding or a clean exit 2, a written report, no key',
  async (server) => {
    const clock = fakeClock();
    served = await serveHostile(server, clock.now);
    dir = mkdtempSync(join(tmpdir(), 'petkit-hostile-'));
    const file = join(dir, 'report.json');
    let stdout = '';
    let stderr = '';
    const io: Io = {
      stdout: { write: (text: string) => (stdout += text), isTTY: false },
      stderr: { write: (text: string) => (stderr += text), isTTY: false },
      env: { CONTRACT_API_KEY: REFERENCE_KEY },
      clock,
    };
    const expected = EXPECTED[server.name];
    const started = Date.now();
    const exit = await run(
      [
        '--base-url',
        served.url,
        '--seed',
        '7',
        '--examples',
        '2',
        '--timeout',
        '300',
        '--reporter',
        'json',
        '--output',
        file,
      ],
      io,
    );
    expect(Date.now() - started).toBeLessThan(20_000);
    const text = readFileSync(file, 'utf8');
    const report = JSON.parse(text) as Report;
    expect(exit).toBe(expected?.exit);
    expect(report.exitCode).toBe(expected?.exit);
    const said = [
      report.aborted?.message ?? '',
      ...report.findings.map((f) => f.message),
      report.verdict,
    ].join('\n');
    expect(said).toMatch(expected?.says ?? /^$/);
    if (exit === 2) expect(stderr).toContain(`petkit contract: ${report.aborted?.message}`);
    expect(stdout).toMatch(/^petkit contract: (conformant|nonconformant|aborted) \(exit \d\)/);
    for (const output of [stdout, stderr, text]) expect(output).not.toContain(REFERENCE_KEY);
  },
);

// The suite against a hostile target, through the CLI as a user meets it: each hostile habit gives a
// clear finding or a clean exit 2 with a message, and a written report; never a hang or an unhandled
// rejection, and the key in no output.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { run } from '../cli/contract.js';
import type { Report } from '../contract-tests/index.js';
import { fakeClock } from './servers/fake-clock.js';
import { HOSTILE_SERVERS, type HostileServer, serveHostile } from './servers/hostile.js';
import { REFERENCE_KEY } from './servers/reference.js';
import { captureIo, scratchPerTest } from './support/contract-io.js';

const scratch = scratchPerTest('petkit-hostile-');

/** What each must come to: the exit status, and what the report or the message says. */
const EXPECTED: Record<string, { exit: 0 | 1 | 2; says: RegExp }> = {
  // The head may have come before the reset: the finding then says which status it was.
  'resets-mid-response': {
    exit: 1,
    says: /(no response|answered \d{3}, but its body could not be read): .*(terminated|closed|reset|ECONNRESET)/i,
  },
  // The head came: the finding says so, and which status, not "no response".
  'never-ends': {
    exit: 1,
    says: /^answered \d{3}, but its body did not end within the --timeout \(300 ms\)/m,
  },
  'control-character-in-header': {
    exit: 1,
    says: /an answer Node's HTTP client refuses, not valid HTTP\/1\.1: .*Invalid header value char/,
  },
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

/**
 * `petkit contract` against a hostile server on a fake clock, as a user runs it: the JSON report, the
 * streams, and with `har` the HAR (written only then: a 2 MB list takes seconds to write).
 */
async function contractAgainst(server: HostileServer, args: readonly string[], withHar = false) {
  const clock = fakeClock();
  const served = scratch.serve(await serveHostile(server, clock.now));
  const file = join(scratch.dir(), 'report.json');
  const harFile = join(scratch.dir(), 'run.har');
  const { io, out, err } = captureIo({ CONTRACT_API_KEY: REFERENCE_KEY }, clock);
  const started = Date.now();
  const exit = await run(
    [
      '--base-url',
      served.url,
      '--seed',
      '7',
      '--timeout',
      '300',
      '--reporter',
      'json',
      '--output',
      file,
      ...(withHar ? ['--har', harFile] : []),
      ...args,
    ],
    io,
  );
  expect(Date.now() - started).toBeLessThan(20_000);
  const text = readFileSync(file, 'utf8');
  const report = JSON.parse(text) as Report;
  const har = withHar ? readFileSync(harFile, 'utf8') : '';
  return { exit, text, report, har, stdout: out(), stderr: err() };
}

const hostile = (name: string): HostileServer => {
  const server = HOSTILE_SERVERS.find((candidate) => candidate.name === name);
  if (server === undefined) throw new Error(`${name} missing`);
  return server;
};

test.each(HOSTILE_SERVERS)(
  '$name ($does): a clear finding or a clean exit 2, a written report, no key',
  async (server) => {
    const { exit, text, report, stdout, stderr } = await contractAgainst(server, ['--examples', '2']);
    const expected = EXPECTED[server.name];
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

test.each(['resets-mid-response', 'control-character-in-header'])(
  '%s on every getPet, under --time-budget 60: getPet is no longer sent after 3 requests, its other checks say why, and the run ends well within the budget',
  async (name) => {
    const { exit, report, har } = await contractAgainst(hostile(name), ['--time-budget', '60'], true);
    expect(exit).toBe(1);
    // Each failing getPet was tried 3 times, 500 ms apart: 3 s on the fake clock, not the whole 60.
    expect(report.durationMs).toBeLessThan(10_000);
    const getPet = report.results.filter((result) => result.operationId === 'getPet');
    const others = report.results.filter((result) => result.operationId !== 'getPet');
    // The other operations are judged, to the end.
    expect(
      others.filter((result) => result.outcome === 'skipped' && !/^opt-in/.test(result.reason ?? '')),
    ).toEqual([]);
    // What getPet got: a finding per request that showed it, with its curl line; the rest not judged, and why.
    expect(report.findings.length).toBeGreaterThan(0);
    expect(report.findings.length).toBeLessThanOrEqual(3);
    for (const finding of report.findings) {
      expect(finding.operationId).toBe('getPet');
      expect(finding.curl).toMatch(/^curl -i '.*\/v1\/pets\/[^']+'/);
      expect(finding.message).not.toMatch(/^not sent/);
    }
    const failed = getPet.filter((result) => result.outcome === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    for (const result of getPet.filter((result) => result.outcome !== 'failed')) {
      expect(result.outcome).toBe('skipped');
      expect(result.reason).toMatch(
        /^not judged: getPet was no longer sent: it got no whole response to 3 requests in a row \(the last: .+\)$/,
      );
    }
    // What was not sent is not in the HAR.
    expect(har).not.toContain('not sent');
  },
);

test('never-ends on every getPet: the head came, so getPet is no longer sent after 3 bodies that did not end, and its other checks say so', async () => {
  const { exit, report } = await contractAgainst(hostile('never-ends'), ['--examples', '2']);
  expect(exit).toBe(1);
  const getPet = report.findings.filter((finding) => finding.operationId === 'getPet');
  expect(getPet.length).toBeGreaterThan(0);
  for (const finding of getPet) {
    expect(finding.message).toMatch(
      /^answered \d{3}, but its body did not end within the --timeout \(300 ms\)/,
    );
  }
  const skipped = report.results.filter(
    (result) =>
      result.operationId === 'getPet' && result.outcome === 'skipped' && !/^opt-in/.test(result.reason ?? ''),
  );
  expect(skipped.length).toBeGreaterThan(0);
  for (const result of skipped)
    expect(result.reason).toMatch(
      /^not judged: getPet was no longer sent: it got no whole response to 3 requests in a row \(each waited the --timeout, 300 ms, its body unended\)/,
    );
});

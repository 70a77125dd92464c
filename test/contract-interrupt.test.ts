// `petkit contract` stopped by a signal (Ctrl-C; a CI job cancelled, which sends SIGINT or SIGTERM):
// it stops at once, wherever it is, and still writes its report and HAR with what it judged so far.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import type { Report } from '../contract-tests/index.js';
import { fakeClock, runOnClock } from './servers/fake-clock.js';
import { createReference, type RawResponse, REFERENCE_KEY, type Served, serve } from './servers/reference.js';

let served: Served | undefined;
let dir: string | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** From the signal sent to the end of the process. */
  readonly afterSignalMs: number;
}

/**
 * Runs the built `petkit contract` against `url` and sends it `signal` once `ready` settles (the
 * server holds a request, or has answered the one the test waits for).
 */
function interrupted(
  url: string,
  args: string[],
  ready: Promise<void>,
  signal: NodeJS.Signals,
): Promise<Ended> {
  const child = spawn(
    process.execPath,
    ['dist/bin/petkit.js', 'contract', '--base-url', url, '--api-key', REFERENCE_KEY, ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let sentAt = 0;
  void ready.then(() => {
    sentAt = performance.now();
    child.kill(signal);
  });
  return new Promise((resolve) => {
    child.on('close', (code, exitSignal) =>
      resolve({ code, signal: exitSignal, stdout, stderr, afterSignalMs: performance.now() - sentAt }),
    );
  });
}

test('SIGINT with a request in flight: exit 2 at once, the JUnit report and the HAR hold what was done', async () => {
  const reference = createReference();
  const ANSWERED = 30;
  let held: () => void = () => undefined;
  const holding = new Promise<void>((resolve) => {
    held = resolve;
  });
  let answered = 0;
  served = await serve((request) => {
    if (answered === ANSWERED) {
      held();
      // Never answered: without the signal the run would wait the whole --timeout for it.
      return new Promise<RawResponse>(() => undefined);
    }
    answered += 1;
    return reference(request);
  });
  dir = mkdtempSync(join(tmpdir(), 'petkit-interrupt-'));
  const junit = join(dir, 'contract.xml');
  const har = join(dir, 'contract.har');
  const ended = await interrupted(
    served.url,
    ['--reporter', 'junit', '--output', junit, '--har', har, '--timeout', '60000'],
    holding,
    'SIGINT',
  );
  expect(ended.signal).toBeNull();
  expect(ended.code).toBe(2);
  expect(ended.afterSignalMs).toBeLessThan(5_000);
  expect(ended.stderr).toMatch(
    /petkit contract: SIGINT: stopping; the report will hold the checks judged so far/,
  );
  expect(ended.stderr).toMatch(
    /petkit contract: Interrupted by SIGINT: the checks judged before it are reported/,
  );
  expect(ended.stdout).toMatch(/^petkit contract: aborted \(exit 2\), .*; junit report in /m);

  const xml = readFileSync(junit, 'utf8');
  expect(xml).toMatch(/<error message="Interrupted by SIGINT: [^"]*" type="interrupted"/);
  const cases = xml.match(/<testcase [^>]*?(?:\/>|>[\s\S]*?<\/testcase>)/g) ?? [];
  const checks = cases.filter((testCase) => !testCase.includes('classname="petkit"'));
  const skipped = checks.filter((testCase) => testCase.includes('<skipped'));
  const judged = checks.filter((testCase) => !testCase.includes('<skipped'));
  // What was judged before the signal stands; what it did not reach says why it was skipped.
  expect(judged.length).toBeGreaterThan(0);
  expect(skipped.length).toBeGreaterThan(0);
  expect(skipped.some((testCase) => /the run stopped/.test(testCase))).toBe(true);

  const entries = (JSON.parse(readFileSync(har, 'utf8')) as { log: { entries: unknown[] } }).log.entries;
  expect(entries).toHaveLength(ANSWERED);
  expect(ended.stderr).toMatch(new RegExp(`petkit contract: ${ANSWERED} exchanges written to `));
});

test('SIGTERM while it waits for the window: it does not wait it out, and its JSON report says why it stopped', async () => {
  const reference = createReference();
  const ANSWERED = 3;
  let answered = 0;
  let last: () => void = () => undefined;
  const waiting = new Promise<void>((resolve) => {
    last = resolve;
  });
  served = await serve((request) => {
    const response = reference(request);
    answered += 1;
    if (answered < ANSWERED) return response;
    // The window spent, and 50 s before it opens again: the suite waits rather than send.
    if (answered === ANSWERED) setImmediate(last);
    return {
      ...response,
      headers: {
        ...response.headers,
        'x-ratelimit-limit': '60',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 50),
      },
    };
  });
  const ended = await interrupted(served.url, ['--reporter', 'json'], waiting, 'SIGTERM');
  expect(ended.signal).toBeNull();
  expect(ended.code).toBe(2);
  expect(ended.afterSignalMs).toBeLessThan(5_000);
  const report = JSON.parse(ended.stdout) as Report;
  expect(report.verdict).toBe('aborted');
  expect(report.exitCode).toBe(2);
  expect(report.aborted).toEqual({
    code: 'interrupted',
    message: 'Interrupted by SIGTERM: the checks judged before it are reported, the rest are skipped.',
    curl: null,
  });
  expect(report.requests).toBe(ANSWERED);
  expect(report.results.some((result) => result.outcome === 'skipped')).toBe(true);
});

test('told to stop while it waits (the engine): the wait ends at once, and the report says so', async () => {
  // 60 a minute: the run spends its window, then waits for the next one. The wait never ends by
  // itself here; the signal is aborted as it begins.
  const clock = fakeClock();
  const reference = createReference({ perMinute: 60, now: clock.now });
  served = await serve(reference);
  const stop = new AbortController();
  const waits: number[] = [];
  const { report } = await runOnClock(served.url, clock, {
    seed: 7,
    signal: stop.signal,
    sleep: (ms) => {
      waits.push(ms);
      stop.abort('SIGINT');
      return new Promise<void>(() => undefined);
    },
  });
  expect(waits).toHaveLength(1);
  expect(report.verdict).toBe('aborted');
  expect(report.aborted?.code).toBe('interrupted');
  expect(report.exitCode).toBe(2);
  // What it judged before the wait stands.
  expect(report.results.filter((result) => result.outcome === 'passed').length).toBeGreaterThan(0);
});

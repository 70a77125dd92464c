// The suite against targets with a habit on the wire (test/servers/wire-quirks.ts), through the CLI
// as a user meets it: what the report shows must let the user see what the target sent.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { run } from '../cli/contract.js';
import type { Report } from '../contract-tests/index.js';
import { fakeClock } from './servers/fake-clock.js';
import { HOSTILE_SERVERS, type HostileServer, serveHostile } from './servers/hostile.js';
import { REFERENCE_KEY } from './servers/reference.js';
import { WIRE_QUIRKS } from './servers/wire-quirks.js';

const HTML_ERRORS = HOSTILE_SERVERS.find((server) => server.name === 'html-as-json') as HostileServer;

import { captureIo, scratchPerTest } from './support/contract-io.js';

const scratch = scratchPerTest('petkit-wire-');

/** `petkit contract` against `server` on a fake clock: exit status, stdout, stderr, and the --output file. */
async function contractAgainst(server: HostileServer, args: readonly string[]) {
  const clock = fakeClock();
  const served = scratch.serve(await serveHostile(server, clock.now));
  const harFile = join(scratch.dir(), 'run.har');
  const withHar = args.flatMap((arg) => (arg === '--har' ? [arg, harFile] : [arg]));
  const file = join(scratch.dir(), 'report');
  const { io, out, err } = captureIo({ CONTRACT_API_KEY: REFERENCE_KEY }, clock);
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
      '--output',
      file,
      ...withHar,
    ],
    io,
  );
  const output = readFileSync(file, 'utf8');
  const har = args.includes('--har') ? readFileSync(harFile, 'utf8') : '';
  // Nor with a NUL beside each character (a body in UTF-16 read as UTF-8), raw or JSON-escaped.
  for (const text of [out(), err(), output, har])
    expect(text.replace(/\0|\\u0000/g, '')).not.toContain(REFERENCE_KEY);
  return { exit, stdout: out(), stderr: err(), output, har };
}

test('a JSON body after a byte-order mark: the report shows the mark, which is why it is not JSON', async () => {
  const pretty = await contractAgainst(WIRE_QUIRKS.bomJson, []);
  expect(pretty.exit).toBe(1);
  expect(pretty.output).toMatch(/✗ content_type_conformance · listPets · 200\n {4}the body is not JSON/);
  // What came, as the reader sees it: the mark that makes it not JSON, not a body that looks like JSON.
  expect(pretty.output).toMatch(/\n {9}\\ufeff\[\{"id":1,/);
  expect(pretty.output).not.toContain('\uFEFF');
  const junit = await contractAgainst(WIRE_QUIRKS.bomJson, ['--reporter', 'junit']);
  expect(junit.output).toContain('\\ufeff[{"id":1,');
  expect(junit.output).not.toContain('\uFEFF');
});

test.each([
  [
    'a 20 KB header on getPet',
    WIRE_QUIRKS.bigHeaderOnGetPet,
    'getPet',
    /^an answer Node's HTTP client refuses: its header section is larger than the \d+ bytes Node reads \(node --max-http-header-size=N, or NODE_OPTIONS, raises it\)/,
  ],
  [
    'an unasked 100 (Continue) before createPet',
    WIRE_QUIRKS.continueOnCreatePet,
    'createPet',
    /^an answer Node's HTTP client refuses: an interim 100 \(Continue\) came first, which the request did not ask for/,
  ],
])('%s: each finding says what came, not "no response"', async (_what, server, operationId, says) => {
  const { exit, output } = await contractAgainst(server, ['--reporter', 'json']);
  const report = JSON.parse(output) as Report;
  expect(exit).toBe(1);
  const findings = report.findings.filter((finding) => finding.operationId === operationId);
  expect(findings.length).toBeGreaterThan(0);
  for (const finding of findings) {
    expect(finding.message).toMatch(says);
    expect(finding.curl).toMatch(/^curl -i /);
  }
  expect(report.findings.filter((finding) => finding.operationId !== operationId)).toEqual([]);
});

test('a JSON body in ISO-8859-1 (not UTF-8) fails http_semantics, on the operations that sent one', async () => {
  const { exit, output } = await contractAgainst(WIRE_QUIRKS.latin1Errors, ['--reporter', 'json']);
  const report = JSON.parse(output) as Report;
  expect(exit).toBe(1);
  const findings = report.findings.filter((finding) => finding.cause === 'JSON body not UTF-8');
  expect(findings.map((finding) => [finding.check, finding.operationId, finding.status]).sort()).toEqual([
    ['http_semantics', 'createPet', 400],
    ['http_semantics', 'getPet', 400],
    ['http_semantics', 'listPets', 400],
  ]);
  for (const finding of findings) {
    expect(finding.message).toMatch(/^the 400's body \(Content-Type: application\/json\) is not UTF-8/);
    expect(finding.response?.bodyExcerpt).toContain('(ung\uFFFDltig)');
    expect(finding.curl).toMatch(/^curl -i /);
  }
});

test('a server that echoes the key in UTF-16: a NUL beside each of its characters, it is hidden all the same', async () => {
  const { exit, output, har } = await contractAgainst(WIRE_QUIRKS.utf16EchoesKey, [
    '--reporter',
    'json',
    '--har',
  ]);
  const report = JSON.parse(output) as Report;
  expect(exit).toBe(1);
  // The 401 to the key with its case swapped echoes it: in the HAR, its NULs hidden with it.
  const bodies = (
    JSON.parse(har) as { log: { entries: { response: { content: { text?: string } } }[] } }
  ).log.entries
    .map((entry) => entry.response.content.text ?? '')
    .filter((text) => text.includes('\0'));
  expect(bodies.some((text) => text.includes('[API_KEY, encoded]'))).toBe(true);
  // Not JSON as it came: content_type_conformance says so, the key hidden in what it shows.
  expect(report.findings.some((finding) => finding.check === 'content_type_conformance')).toBe(true);
});

test('a server that echoes the key in a header name: the key is in no output, the HAR included', async () => {
  const { exit, har } = await contractAgainst(WIRE_QUIRKS.keyInHeaderName, ['--reporter', 'json', '--har']);
  expect(exit).toBe(0);
  const entries = (JSON.parse(har) as { log: { entries: { response: { headers: { name: string }[] } }[] } })
    .log.entries;
  const names = entries.flatMap((entry) => entry.response.headers.map((header) => header.name));
  expect(names).toContain('x-seen-$API_KEY');
});

test('an answer that came gzip-encoded: its curl line asks for gzip too, and so reproduces the finding', async () => {
  const { exit, output } = await contractAgainst(WIRE_QUIRKS.gzipLosesRateLimit, ['--reporter', 'json']);
  const report = JSON.parse(output) as Report;
  expect(exit).toBe(1);
  const finding = report.findings.find(
    (f) => f.check === 'response_headers_conformance' && f.operationId === 'listPets' && f.status === 200,
  );
  expect(finding?.message).toMatch(/X-RateLimit-Limit/);
  // Run as printed, by curl, with the key in API_KEY: the same answer, decoded, without the header.
  // Not execFileSync: the server answers in this process.
  const got = await new Promise<string>((resolve, reject) =>
    execFile(
      '/bin/sh',
      ['-c', `${finding?.curl ?? 'false'} --max-time 5`],
      { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', API_KEY: REFERENCE_KEY }, encoding: 'utf8' },
      (error, stdout) => (error === null ? resolve(stdout) : reject(error)),
    ),
  );
  expect(got).toMatch(/^HTTP\/1\.1 200 /);
  expect(got).toMatch(/^content-encoding: gzip\r$/im);
  expect(got).not.toMatch(/^x-ratelimit-limit:/im);
  expect(got).toMatch(/\r\n\r\n\[\{"id":1,/);
});

test('a body labelled gzip that is not: each finding says so, and its curl line asks for gzip and decodes, so curl fails as the suite did', async () => {
  const { exit, output } = await contractAgainst(WIRE_QUIRKS.corruptGzipOnGetPet, ['--reporter', 'json']);
  const report = JSON.parse(output) as Report;
  expect(exit).toBe(1);
  const findings = report.findings.filter((finding) => finding.operationId === 'getPet');
  expect(findings.length).toBeGreaterThan(0);
  for (const finding of findings) {
    expect(finding.message).toMatch(
      /^answered \d{3}, but its body could not be read: incorrect header check/,
    );
    expect(finding.curl).toMatch(/ -H 'accept-encoding: gzip, deflate'.* --compressed$/);
  }
  // Run as printed: curl reads the answer's head, then fails to decode its body (exit 61), as the suite did.
  const served = scratch.serve(await serveHostile(WIRE_QUIRKS.corruptGzipOnGetPet));
  const curl = (findings[0]?.curl ?? 'false').replace(/http:\/\/127\.0\.0\.1:\d+\/v1/, served.url);
  const code = await new Promise<number | null>((resolve) =>
    execFile(
      '/bin/sh',
      ['-c', `${curl} --max-time 5`],
      { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', API_KEY: REFERENCE_KEY } },
      (error) => resolve(error === null ? 0 : (error.code as number | null)),
    ),
  );
  expect(code).toBe(61);
});

test('a UTF-8 body labelled charset=iso-8859-1: a warning on the operation that sends it, exit 0', async () => {
  const { exit, output } = await contractAgainst(WIRE_QUIRKS.utf8LabelledLatin1, ['--reporter', 'json']);
  const report = JSON.parse(output) as Report;
  // Before: nothing to say (exit 0, no finding), though Python's requests reads every name past ASCII wrong.
  expect(report.findings.map((f) => [f.check, f.operationId, f.status, f.severity, f.message])).toEqual([
    ['http_advisories', 'getPet', 200, 'warning', 'the 200 labels its JSON body charset=iso-8859-1'],
  ]);
  expect(report.findings[0]?.curl).toMatch(/^curl -i '.*\/v1\/pets\/\d+'/);
  expect(exit).toBe(0);
});

test('a JSON object naming a member twice: a warning on the operation that sends it, exit 0', async () => {
  const { exit, output } = await contractAgainst(WIRE_QUIRKS.namesIdTwice, ['--reporter', 'json']);
  const report = JSON.parse(output) as Report;
  // Before: nothing to say (exit 0, no finding): JSON.parse keeps the last id, the right one.
  expect(report.findings.map((f) => [f.check, f.operationId, f.status, f.severity, f.message])).toEqual([
    [
      'http_advisories',
      'getPet',
      200,
      'warning',
      'the 200\'s JSON names "id" twice in its body: JSON.parse and Python keep the last value, other parsers the first or refuse it',
    ],
  ]);
  expect(report.findings[0]?.curl).toMatch(/^curl -i '.*\/v1\/pets\/\d+'/);
  expect(exit).toBe(0);
});

test('a body cut by a Content-Length shorter than it: the finding says where the Content-Length ended it, inside the JSON', async () => {
  const { exit, output } = await contractAgainst(WIRE_QUIRKS.shortContentLength, ['--reporter', 'json']);
  const report = JSON.parse(output) as Report;
  expect(exit).toBe(1);
  const finding = report.findings.find(
    (f) => f.check === 'content_type_conformance' && f.operationId === 'listPets' && f.status === 200,
  );
  expect(finding?.message).toMatch(
    /^the body is not JSON \(Content-Type: application\/json\): it ends inside the JSON, where its Content-Length: \d+ ends it \(.+ was due\), cut there, as by a Content-Length shorter than the body sent; its end: "….+"$/,
  );
  expect(finding?.curl).toMatch(/^curl -i '.*\/v1\/pets/);
});

test('a body that is not JSON: the finding says where it breaks (byte, line, column) and shows the body there, the key hidden', async () => {
  const { exit, output } = await contractAgainst(WIRE_QUIRKS.commaMissingAfterKey, ['--reporter', 'json']);
  const report = JSON.parse(output) as Report;
  expect(exit).toBe(1);
  const finding = report.findings.find(
    (f) => f.check === 'content_type_conformance' && f.operationId === 'getPet' && f.status === 404,
  );
  // {"code":"not_found","message":"No pet for test-key" "status":404}: the comma was due at byte 52, after the space.
  expect(finding?.message).toBe(
    'the body is not JSON (Content-Type: application/json): it breaks at byte 52 (line 1, column 53), where , or } was due: "…\\":\\"No pet for $API_KEY\\" \\"status\\":404}"',
  );
});

test('an HTML page labelled JSON: the finding says it breaks at its first byte, and shows it', async () => {
  const { output } = await contractAgainst(HTML_ERRORS, ['--reporter', 'json']);
  const report = JSON.parse(output) as Report;
  const finding = report.findings.find((f) => f.check === 'content_type_conformance');
  expect(finding?.message).toBe(
    'the body is not JSON (Content-Type: application/json): it breaks at byte 0 (line 1, column 1), where a JSON value was due: "<html><body>Bad Gateway<…"',
  );
});

test('a Basic challenge offered before the Bearer one (RFC 9110 §11.6.1: several may be) is no finding; a Bearer in a quoted realm is none', async () => {
  const { exit, output } = await contractAgainst(WIRE_QUIRKS.basicThenBearer, ['--reporter', 'json']);
  const report = JSON.parse(output) as Report;
  expect(report.findings.map((finding) => `${finding.check}: ${finding.message}`)).toEqual([]);
  expect(exit).toBe(0);
});

test('br where the request accepted gzip and deflate: the run reads it, and warns, with a curl line that asks as the suite asked', async () => {
  const { exit, output } = await contractAgainst(WIRE_QUIRKS.brotliUnasked, ['--reporter', 'json']);
  const report = JSON.parse(output) as Report;
  // A SHOULD of RFC 9110 §12.5.3: warnings, nothing else.
  expect(exit).toBe(0);
  expect(report.findings.length).toBeGreaterThan(0);
  for (const finding of report.findings) {
    expect(finding).toMatchObject({
      check: 'http_advisories',
      severity: 'warning',
      cause: 'a content coding the request did not accept',
      instancePath: '/headers/Content-Encoding',
    });
    expect(finding.message).toMatch(
      /^the \d{3} has Content-Encoding: br; the request accepted gzip, deflate$/,
    );
    expect(finding.curl).toMatch(/ -H 'accept-encoding: gzip, deflate'.* --compressed$/);
  }
});

// What the target sends never acts on the terminal of the person reading the report: ESC sequences,
// C1 controls and binary in a body or a header value come out of the pretty and junit reporters, and
// out of the line on stderr, as visible escapes (`\u001b`); the json report keeps them as they came.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, expect, onTestFinished, test } from 'vitest';
import { run } from '../cli/contract.js';
import type { Report } from '../contract-tests/index.js';
import { createReference, REFERENCE_KEY, type Served, serve } from './servers/reference.js';
import { captureIo } from './support/contract-io.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** What a terminal would act on, line breaks apart (the report's own). */
const ACTS_ON_TERMINAL = /[\p{Cc}\p{Cs}\p{Bidi_Control}]/u;
const actsOnTerminal = (text: string) => ACTS_ON_TERMINAL.exec(text.replaceAll('\n', ''))?.[0];

/** Clears the screen, sets the window's title, and paints a verdict of its own in green. */
const HOSTILE_BODY =
  '\u001b[2J\u001b]0;PWNED\u0007\u001b[32mverdict: ✓ conformant (exit 0)\u001b[0m\u009b2J\u202egnp.exe';

/** The reference server, but listPets answers a body and a Location header (bytes 0x9B: CSI) of its own. */
function hostileList() {
  const reference = createReference();
  return serve((request) => {
    const answer = reference(request);
    if (request.method !== 'GET' || request.pathname !== '/v1/pets' || answer.status !== 200) return answer;
    // Node writes a header as latin1: U+009B goes out as the byte 0x9B, which fetch reads back as U+009B.
    return { ...answer, headers: { ...answer.headers, location: '/v1/pets/\u009b2J' }, body: HOSTILE_BODY };
  });
}

test('a body and a header value holding terminal escapes: the pretty report shows them escaped, nothing raw', async () => {
  served = await hostileList();
  const { io, out, err } = captureIo({ CONTRACT_API_KEY: REFERENCE_KEY });
  expect(await run(['--base-url', served.url, '--seed', '3', '--examples', '2'], io)).toBe(1);
  expect(actsOnTerminal(out())).toBeUndefined();
  expect(actsOnTerminal(err())).toBeUndefined();
  expect(out()).toContain(
    '       \\u001b[2J\\u001b]0;PWNED\\u0007\\u001b[32mverdict: ✓ conformant (exit 0)\\u001b[0m\\u009b2J\\u202egnp.exe\n',
  );
  expect(out()).toContain('the 200 has Location: /v1/pets/\\u009b2J');
  expect(out()).toMatch(/^verdict: ✗ \d+ check × operation pairs? failed \(exit 1\)/m);
});

test('the json report keeps the body excerpt and the header as they came (JSON escapes them)', async () => {
  served = await hostileList();
  const { io, out } = captureIo({ CONTRACT_API_KEY: REFERENCE_KEY });
  await run(['--base-url', served.url, '--seed', '3', '--examples', '2', '--reporter', 'json'], io);
  expect(out()).toContain('"bodyExcerpt": "\\u001b[2J\\u001b]0;PWNED\\u0007');
  const report = JSON.parse(out()) as Report;
  const list = report.findings.find((finding) => finding.response?.bodyExcerpt.startsWith('\u001b'));
  expect(list?.response?.bodyExcerpt).toBe(HOSTILE_BODY);
  expect(list?.response?.headers.location).toBe('/v1/pets/\u009b2J');
});

test('the junit report shows the escapes too, where its XML writer dropped them', async () => {
  served = await hostileList();
  const { io, out } = captureIo({ CONTRACT_API_KEY: REFERENCE_KEY });
  await run(['--base-url', served.url, '--seed', '3', '--examples', '2', '--reporter', 'junit'], io);
  expect(actsOnTerminal(out())).toBeUndefined();
  expect(out()).toContain('\\u001b[2J\\u001b]0;PWNED\\u0007\\u001b[32mverdict');
});

test('a gzip body sent without Content-Encoding: the excerpt shows its bytes escaped, not raw binary', async () => {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(gzipSync('[]'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const { io, out } = captureIo({ CONTRACT_API_KEY: REFERENCE_KEY });
  expect(await run(['--base-url', base, '--seed', '3', '--examples', '2'], io)).toBe(1);
  expect(actsOnTerminal(out())).toBeUndefined();
  // The gzip magic (1f 8b): 0x8b is not UTF-8 on its own, so it reads as U+FFFD.
  expect(out()).toMatch(/^ +\\u001f\uFFFD\\u0008\\u0000/m);
});

test('a message that stops the run quoting a header (Retry-After): escaped on stderr and on the verdict line', async () => {
  served = await serve(() => ({
    status: 429,
    // An HTTP-date with a comment, which Date.parse reads past: a wait far longer than the suite's.
    headers: {
      'content-type': 'application/json',
      'retry-after': 'Sun, 06 Nov 2094 08:49:37 GMT (\u009b2J)',
    },
    body: '{"code":"rate_limited","message":"Too many requests.","status":429}',
  }));
  const { io, out, err } = captureIo({ CONTRACT_API_KEY: REFERENCE_KEY });
  expect(await run(['--base-url', served.url, '--seed', '3', '--examples', '2'], io)).toBe(2);
  expect(actsOnTerminal(out())).toBeUndefined();
  expect(actsOnTerminal(err())).toBeUndefined();
  const said = 'The server answered 429 with Retry-After: Sun, 06 Nov 2094 08:49:37 GMT (\\u009b2J), longer';
  expect(out()).toContain(`verdict: stopped (exit 2): ${said}`);
  expect(err()).toContain(`petkit contract: ${said}`);
});

test('what a reader cannot see in a body (BOM, U+200B, U+2060, U+200E): the pretty report shows it escaped, as the mock and the proxy print it', async () => {
  const reference = createReference();
  served = await serve((request) => {
    const answer = reference(request);
    if (request.method !== 'GET' || request.pathname !== '/v1/pets' || answer.status !== 200) return answer;
    return { ...answer, body: '\uFEFF{"a":"\u200B\u2060\u200E"}' };
  });
  const { io, out } = captureIo({ CONTRACT_API_KEY: REFERENCE_KEY });
  expect(await run(['--base-url', served.url, '--seed', '3', '--examples', '2'], io)).toBe(1);
  expect(out()).not.toMatch(/[\uFEFF\u200B\u2060\u200E]/u);
  expect(out()).toMatch(/^ +\\ufeff\{"a":"\\u200b\\u2060\\u200e"\}$/m);
});

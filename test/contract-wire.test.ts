// The wire probe (contract-tests/http/wire-probe.ts): answers read byte for byte past Node's fetch and
// held to RFC 9112's framing. Each server broken one way (test/servers/broken-wire.ts) is caught under
// http_semantics, its finding naming RFC 9112 and carrying a curl line that shows the bytes; the ones
// fetch hides pass with the 'http' method off, as the whole suite passed them before. Servers that
// frame their answers in the other ways RFC 9112 allows, the reference and the mock, pass clean.
import { afterEach, describe, expect, test } from 'vitest';
import { connectTarget } from '../contract-tests/http/connect.js';
import { type ContractOptions, type Report, renderPretty, runContract } from '../contract-tests/index.js';
import { METHOD_IDS } from '../contract-tests/model/types.js';
import { type RunningServer, startServer } from '../mocks/node-server.js';
import {
  BROKEN_WIRE_SERVERS,
  FRAMED_RIGHT_SERVERS,
  HOSTILE_WIRE_SERVERS,
  serveWire,
  type WireServer,
  whenClosing,
} from './servers/broken-wire.js';
import { fakeClock } from './servers/fake-clock.js';
import { createReference, REFERENCE_KEY, type Served, serve } from './servers/reference.js';

let served: Served | RunningServer | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

async function against(server: WireServer, options: Partial<ContractOptions> = {}) {
  const clock = fakeClock();
  const target = await serveWire(server, clock.now);
  served = target;
  const exchanges: { url: string; connection?: string }[] = [];
  const report = await runContract({
    baseUrl: target.url,
    apiKey: REFERENCE_KEY,
    seed: 7,
    examples: 2,
    timeoutMs: 300,
    now: clock.now,
    sleep: clock.sleep,
    onProgress: ({ exchange }) => {
      if (exchange !== undefined)
        exchanges.push({
          url: exchange.request.url,
          ...(exchange.request.headers.connection === undefined
            ? {}
            : { connection: exchange.request.headers.connection }),
        });
    },
    ...options,
  });
  expect(JSON.stringify(report)).not.toContain(REFERENCE_KEY);
  return { report, exchanges };
}

const failedChecks = (report: Report) =>
  [...new Set(report.results.filter((r) => r.outcome === 'failed').map((r) => r.check))].sort();

const wireFindings = (report: Report) =>
  report.findings.filter((finding) => finding.curl.startsWith('curl -v --raw --http1.1 '));

/** A defect Node's fetch hides, the operation it shows on, and the words of its cause. */
const HIDDEN: readonly [WireServer, string, RegExp][] = [
  [BROKEN_WIRE_SERVERS.answersListTwice, 'listPets', /^bytes after a complete response/],
  [BROKEN_WIRE_SERVERS.foldedHeader, 'listPets', /\(obs-fold\)$/],
  [
    BROKEN_WIRE_SERVERS.ignoresConnectionClose,
    'getPet',
    /^the connection kept open after an answer to Connection: close$/,
  ],
  [BROKEN_WIRE_SERVERS.spaceBeforeColon, 'getPet', /^white space between a field name and its colon$/],
];

/** A defect Node's fetch refuses on getPet, and the words of the wire probe's cause for it. */
const REFUSED: readonly [WireServer, RegExp][] = [
  [BROKEN_WIRE_SERVERS.contentLengthList, /^a Content-Length that is not one decimal number$/],
  [BROKEN_WIRE_SERVERS.lengthAndChunked, /^both Content-Length and Transfer-Encoding$/],
  [BROKEN_WIRE_SERVERS.badChunkSize, /^a chunked body that is not well formed$/],
  [BROKEN_WIRE_SERVERS.nulInHeader, /^a NUL in a field value$/],
  [BROKEN_WIRE_SERVERS.lfLineEnds, /^a line of the head ended by LF alone$/],
];

const WIRE_CURL =
  /^curl -v --raw --http1\.1 -H 'accept: application\/json' -H "authorization: Bearer \$API_KEY" 'http:\/\/127\.0\.0\.1:\d+\/v1\/pets'( 'http:\/\/127\.0\.0\.1:\d+\/v1\/pets\/\d+')?$/;

/** The run's one finding of the wire probe: http_semantics on `operationId`, RFC 9112's words, its curl. */
function expectWireFinding(report: Report, operationId: string, cause: RegExp) {
  const findings = wireFindings(report);
  expect(findings.map((f) => [f.check, f.operationId, f.cause])).toEqual([
    ['http_semantics', operationId, expect.stringMatching(cause)],
  ]);
  const [finding] = findings;
  expect(finding?.because?.map((b) => ('cite' in b ? b.cite : ''))).toEqual([
    expect.stringMatching(/^RFC 911[02] §/),
  ]);
  expect(finding?.curl).toMatch(WIRE_CURL);
}

describe.each([
  ...HIDDEN.map(([server, operationId, cause]) => [server.name, server, operationId, cause] as const),
  // The defects fetch refuses, where fetch never sees them: the wire probe alone says them.
  ...REFUSED.map(([server, cause]) => {
    const closing = whenClosing(server);
    return [closing.name, closing, 'getPet', cause] as const;
  }),
])('%s', (_name, server, operationId, cause) => {
  test(`caught by the wire probe alone: http_semantics on ${operationId}, RFC 9112 named, a curl line that shows the bytes`, async () => {
    const { report } = await against(server);
    expect(report.aborted).toBeNull();
    expect(report.exitCode).toBe(1);
    expectWireFinding(report, operationId, cause);
    expect(failedChecks(report)).toEqual(['http_semantics']);
  });
  test('missed with the http method off, as fetch hides it', async () => {
    const { report } = await against(server, { methods: METHOD_IDS.filter((method) => method !== 'http') });
    expect(failedChecks(report)).toEqual([]);
    expect(report.exitCode).toBe(0);
  });
});

test.each(REFUSED.map(([server]) => [server.name, server] as const))(
  '%s on every getPet: fetch refuses it and says so; the same bytes on the wire are no second finding',
  async (_name, server) => {
    const { report } = await against(server);
    expect(report.exitCode).toBe(1);
    expect(wireFindings(report)).toEqual([]);
    expect(
      report.findings.some(
        (f) =>
          f.operationId === 'getPet' &&
          /Node's HTTP client refuses|does not match the HTTP\/1\.1 protocol/.test(f.message),
      ),
    ).toBe(true);
  },
);

test('an answer written twice: the finding shows the bytes that came after it, escaped', async () => {
  const { report } = await against(BROKEN_WIRE_SERVERS.answersListTwice);
  const [finding] = wireFindings(report);
  expect(finding?.message).toMatch(
    /^\d+ bytes came after the 200 response ended by its framing, the same response again, before the next request was sent: "HTTP\/1\.1 200 OK\\r\\n/,
  );
  expect(finding?.because?.[0]).toMatchObject({ cite: 'RFC 9112 §2.1, §6.3' });
});

test('two requests on one kept connection, the second asking to close it, counted in the budget like any other', async () => {
  for (const [server, connections] of [
    [FRAMED_RIGHT_SERVERS.keepAlive, 1],
    [FRAMED_RIGHT_SERVERS.closesEach, 2],
  ] as const) {
    let opened = 0;
    const { report, exchanges } = await against(server, {
      connect: (url) => {
        opened += 1;
        return connectTarget(url);
      },
    });
    await served?.close();
    served = undefined;
    expect(report.exitCode).toBe(0);
    expect(opened).toBe(connections);
    expect(exchanges.filter((e) => e.connection === 'close')).toHaveLength(1);
    expect(report.requests).toBe(exchanges.length);
  }
});

test.each(Object.values(FRAMED_RIGHT_SERVERS))(
  'framed as RFC 9112 allows, $name: no finding',
  async (server) => {
    const { report, exchanges } = await against(server);
    if (report.findings.length > 0) throw new Error(renderPretty(report, { color: false }));
    expect(report.exitCode).toBe(0);
    expect(exchanges.some((e) => e.connection === 'close')).toBe(true);
  },
);

test('the reference server, keep-alive and Content-Length: the wire probe passes it', async () => {
  served = await serve(createReference());
  const report = await runContract({ baseUrl: served.url, apiKey: REFERENCE_KEY, seed: 1234, examples: 3 });
  expect(report.findings).toEqual([]);
  expect(report.exitCode).toBe(0);
});

test('the mock: the wire probe passes it, with --read-only too', async () => {
  served = await startServer({ port: 0, host: '127.0.0.1' });
  for (const readOnly of [false, true]) {
    const sent: string[] = [];
    const report = await runContract({
      baseUrl: served.url,
      apiKey: 'demo-enterprise',
      seed: 42,
      examples: 3,
      readOnly,
      onProgress: ({ exchange }) => {
        if (exchange?.request.headers.connection === 'close') sent.push(exchange.request.url);
      },
    });
    if (report.findings.length > 0) throw new Error(renderPretty(report, { color: false }));
    expect(report.exitCode).toBe(0);
    expect(sent).toHaveLength(1);
  }
});

test('--checks without http_semantics: nothing is sent on the wire', async () => {
  const { exchanges } = await against(BROKEN_WIRE_SERVERS.answersListTwice, {
    checks: ['status_code_conformance'],
  });
  expect(exchanges.filter((e) => e.connection === 'close')).toEqual([]);
});

test.each(Object.values(HOSTILE_WIRE_SERVERS).map((server) => [server.name, whenClosing(server)] as const))(
  '%s, on the wire alone: the run ends within its timeouts, in bounded memory, and says nothing of what it could not read',
  async (_name, server) => {
    const started = Date.now();
    const { report } = await against(server, { checks: ['http_semantics'] });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(report.aborted).toBeNull();
    // A fault it could read (bytes that are not HTTP) is a finding; what it could not is none.
    for (const finding of wireFindings(report)) expect(finding.check).toBe('http_semantics');
    expect(failedChecks(report).every((check) => check === 'http_semantics')).toBe(true);
  },
);

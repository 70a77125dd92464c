// A header's fault on every response is one finding per operation, as a body's is: its occurrences
// counted, a few of its values kept as cases, the first one's curl. Each server is the reference with
// one header fault, over node:http on 127.0.0.1 and a free port.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { MAX_CASES } from '../contract-tests/finding.js';
import { type Report, renderPretty, runContract } from '../contract-tests/index.js';
import { createReference, type RawResponse, REFERENCE_KEY } from './servers/reference.js';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The reference, its headers as `headers` writes them (an array: the field sent once per value). */
async function serveHeaders(
  headers: (response: RawResponse, method: string) => Record<string, string | string[]>,
): Promise<string> {
  const reference = createReference();
  const server = createServer((req, res) => {
    void readBody(req).then((body) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const request = {
        method: req.method ?? 'GET',
        pathname: url.pathname,
        query: url.searchParams,
        headers: Object.fromEntries(
          Object.entries(req.headers).map(([name, value]) => [
            name,
            Array.isArray(value) ? value.join(', ') : value,
          ]),
        ),
        body,
      };
      const response = reference(request);
      res.writeHead(response.status, headers(response, request.method));
      res.end(response.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () =>
    new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((cause) => (cause ? reject(cause) : resolve()));
    });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

const run = (baseUrl: string) => runContract({ baseUrl, apiKey: REFERENCE_KEY, seed: 7, examples: 5 });

/** The findings of response_headers_conformance, by operation. */
function headerFindings(report: Report) {
  return report.findings.filter((finding) => finding.check === 'response_headers_conformance');
}

test('X-RateLimit-Remaining: 99999.0 on every answer is one finding per operation, its values listed and counted', async () => {
  const url = await serveHeaders((response) => {
    const remaining = response.headers['x-ratelimit-remaining'];
    return remaining === undefined
      ? response.headers
      : { ...response.headers, 'x-ratelimit-remaining': `${remaining}.0` };
  });
  const report = await run(url);
  expect(report.exitCode).toBe(1);
  const found = headerFindings(report);
  expect(found.map((finding) => finding.operationId).sort()).toEqual(['createPet', 'getPet', 'listPets']);
  for (const finding of found) {
    expect(finding).toMatchObject({
      cause: 'X-RateLimit-Remaining must be integer',
      instancePath: '/headers/X-RateLimit-Remaining',
      instancePaths: ['/headers/X-RateLimit-Remaining'],
      message: expect.stringMatching(/^X-RateLimit-Remaining: "\d+\.0" must be integer$/),
      curl: expect.stringMatching(/^curl -i /),
    });
    expect(finding.occurrences).toBeGreaterThan(MAX_CASES);
    expect(finding.cases).toHaveLength(MAX_CASES);
    expect(finding.cases?.[0]).toBe(finding.message);
  }
  // Every answer was counted: as many occurrences as responses the run judged.
  const occurrences = found.reduce((sum, finding) => sum + finding.occurrences, 0);
  expect(occurrences).toBeGreaterThan(300);
  const pretty = renderPretty(report, { color: false });
  expect(pretty).toContain('X-RateLimit-Remaining must be integer');
  expect(pretty.split('\n').length).toBeLessThan(120);
});

test('a Location on another origin on every 201 is one finding', async () => {
  const url = await serveHeaders((response, method) =>
    method === 'POST' && response.status === 201
      ? { ...response.headers, location: `http://evil.example${response.headers.location ?? ''}` }
      : response.headers,
  );
  const report = await run(url);
  const found = headerFindings(report);
  expect(found).toHaveLength(1);
  expect(found[0]).toMatchObject({
    operationId: 'createPet',
    cause: 'Location on another origin',
    message: expect.stringMatching(/^Location: http:\/\/evil\.example\/v1\/pets\/\d+ names another origin/),
  });
  expect(found[0]?.occurrences).toBeGreaterThan(50);
});

test('X-RateLimit-* sent twice on every answer is one finding per header and operation', async () => {
  const url = await serveHeaders((response) => {
    const twice = (name: string) => {
      const value = response.headers[name];
      return value === undefined ? {} : { [name]: [value, value] };
    };
    return { ...response.headers, ...twice('x-ratelimit-limit'), ...twice('x-ratelimit-remaining') };
  });
  const report = await run(url);
  const found = headerFindings(report);
  const keys = found.map((finding) => `${finding.operationId} ${finding.cause}`).sort();
  expect(keys).toEqual(
    ['createPet', 'getPet', 'listPets'].flatMap((operation) => [
      `${operation} X-RateLimit-Limit must be integer`,
      `${operation} X-RateLimit-Remaining must be integer`,
    ]),
  );
  expect(found[0]?.message).toMatch(/^X-RateLimit-(Limit|Remaining): "(\d+), \2" must be integer$/);
});

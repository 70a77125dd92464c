// A response is judged by one check only (docs/contract.md, "The checks"): a body off its schema is
// response_schema_conformance's, and every other check that reads the body calls it inconclusive.
// Each server here is the reference with one body fault, served over node:http on a free port.
import { afterEach, expect, test } from 'vitest';
import { type Report, runContract } from '../contract-tests/index.js';
import { fakeClock } from './servers/fake-clock.js';
import {
  createReference,
  type RawRequest,
  type RawResponse,
  REFERENCE_KEY,
  type ReferenceOptions,
  type Served,
  serve,
} from './servers/reference.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** The reference, every response passed through `change`. */
function changed(
  change: (response: RawResponse, request: RawRequest) => void,
  options: ReferenceOptions = {},
) {
  const reference = createReference(options);
  return (request: RawRequest) => {
    const response = reference(request);
    change(response, request);
    return response;
  };
}

const rewrite = (response: RawResponse, edit: (body: Record<string, unknown>) => void) => {
  const body = JSON.parse(response.body) as Record<string, unknown>;
  edit(body);
  response.body = JSON.stringify(body);
};

const failed = (report: Report) =>
  [...new Set(report.results.filter((r) => r.outcome === 'failed').map((r) => r.check))].sort();

test('an Error whose "status" is a string fails response_schema_conformance only, not error_body_consistency too', async () => {
  served = await serve(
    changed((response) => {
      if (response.status >= 400)
        rewrite(response, (body) => Object.assign(body, { status: String(body.status) }));
    }),
  );
  const report = await runContract({ baseUrl: served.url, apiKey: REFERENCE_KEY, seed: 7, examples: 3 });
  expect(failed(report)).toEqual(['response_schema_conformance']);
  expect(report.findings.map((f) => f.check)).not.toContain('error_body_consistency');
  expect(report.findings.filter((f) => f.check === 'response_schema_conformance')[0]?.message).toBe(
    '/status must be integer',
  );
  // Every Error was off its schema: error_body_consistency had nothing to judge, and says so.
  for (const result of report.results.filter((r) => r.check === 'error_body_consistency'))
    expect(result).toMatchObject({
      outcome: 'skipped',
      reason: 'no conclusive case (see the other findings)',
    });
});

test('a getPet body off its schema ("categoryId": "3") is not also a changed pet for use_after_create', async () => {
  served = await serve(
    changed((response, request) => {
      if (request.method === 'GET' && request.pathname.startsWith('/v1/pets/') && response.status === 200)
        rewrite(response, (body) => Object.assign(body, { categoryId: String(body.categoryId) }));
    }),
  );
  for (const seed of [7, 1234]) {
    const report = await runContract({ baseUrl: served.url, apiKey: REFERENCE_KEY, seed, examples: 3 });
    expect(failed(report)).toEqual(['response_schema_conformance']);
    expect(report.findings.map((f) => `${f.check} ${f.message}`)).toEqual([
      'response_schema_conformance /categoryId must be integer',
    ]);
  }
});

/** A run with the rate-limit probe on the test's clock, against `url`. */
const probeRun = (url: string, clock: ReturnType<typeof fakeClock>) =>
  runContract({
    baseUrl: url,
    apiKey: REFERENCE_KEY,
    seed: 7,
    examples: 3,
    probeRateLimit: true,
    now: clock.now,
    sleep: clock.sleep,
    random: () => 0.5,
  });

test("the probe's 429 off the Error schema is response_schema_conformance's; rate_limit_behaviour says it could not read it", async () => {
  const clock = fakeClock();
  served = await serve(
    changed(
      (response) => {
        if (response.status === 429) rewrite(response, (body) => Object.assign(body, { status: '429' }));
      },
      { perMinute: 10, now: clock.now },
    ),
  );
  const report = await probeRun(served.url, clock);
  expect(failed(report)).toEqual(['response_schema_conformance']);
  expect(report.results.find((r) => r.check === 'rate_limit_behaviour')).toMatchObject({
    outcome: 'skipped',
    reason: expect.stringMatching(/^the 429's body is off the Error schema/),
  });
});

test('a list filtered after its limit is cut is one list_semantics error with its lists as cases, not also warnings of "seen pets missing" on the same answers', async () => {
  served = await serve(createReference({ quirks: { filterFirstPageOnly: true } }));
  for (const seed of [7, 1234]) {
    const report = await runContract({ baseUrl: served.url, apiKey: REFERENCE_KEY, seed, examples: 3 });
    expect(failed(report)).toEqual(['list_semantics']);
    const list = report.findings.filter((f) => f.check === 'list_semantics');
    expect(list.filter((f) => f.severity === 'warning').map((f) => f.message)).toEqual([]);
    // The list scenario's finding: every filtered list it sent, one cause.
    const cut = list.filter((f) => f.cause === 'a list: not the whole list filtered, then cut to limit');
    expect(cut).toHaveLength(1);
    expect(cut[0]?.cases).toEqual(
      expect.arrayContaining(['status="available"', 'status="pending"', 'status="sold"']),
    );
    expect(cut[0]?.occurrences).toBeGreaterThanOrEqual(cut[0]?.cases?.length ?? 0);
    expect(report.results.find((r) => r.check === 'list_semantics')?.outcome).toBe('failed');
  }
});

test("a 401 without WWW-Authenticate is response_headers_conformance's finding only, not http_semantics's too", async () => {
  served = await serve(
    changed((response) => {
      if (response.status === 401) delete response.headers['www-authenticate'];
    }),
  );
  const report = await runContract({ baseUrl: served.url, apiKey: REFERENCE_KEY, seed: 7, examples: 3 });
  expect(failed(report)).toEqual(['response_headers_conformance']);
  expect(report.findings.map((f) => `${f.check} ${f.message}`)).toEqual(
    report.findings.map(() => 'response_headers_conformance WWW-Authenticate is missing'),
  );
  expect(report.findings.length).toBeGreaterThan(0);
  // http_semantics judged the other responses, and found nothing.
  for (const result of report.results.filter((r) => r.check === 'http_semantics'))
    expect(result.outcome).toBe('passed');
});

test("the probe's 429 without Retry-After is response_headers_conformance's finding only: rate_limit_behaviour says it could not judge", async () => {
  const clock = fakeClock();
  served = await serve(
    changed(
      (response) => {
        if (response.status === 429) delete response.headers['retry-after'];
      },
      { perMinute: 10, now: clock.now },
    ),
  );
  const report = await probeRun(served.url, clock);
  expect(failed(report)).toEqual(['response_headers_conformance']);
  expect(report.findings.map((f) => `${f.check} ${f.status} ${f.message}`)).toEqual([
    'response_headers_conformance 429 Retry-After is missing',
  ]);
  expect(report.results.find((r) => r.check === 'rate_limit_behaviour')).toMatchObject({
    outcome: 'skipped',
    reason:
      "not judged: the 429 has no Retry-After (response_headers_conformance's finding), so the probe cannot tell when the target answers again",
  });
});

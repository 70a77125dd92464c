// The hostile suite: arbitrary methods, targets, headers and bodies, over the core and over raw
// sockets, each answer held to the invariants (invariants.ts): never an unforced 5xx, a documented
// response that the contract module's checker passes, no key, stack trace or path of this machine in
// any answer or log line, the seeded pets untouched by what was refused, the process alive and its
// memory bounded. Seeded: a failure prints its seed and path, and replays. `npm test` runs a few
// dozen cases each; `npm run fuzz` runs thousands (PETKIT_FUZZ_RUNS, PETKIT_FUZZ_SEED).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { type MockCall, targetOf } from '../../mocks/call.js';
import { createMock, type Mock } from '../../mocks/mock.js';
import { type RunningServer, startServer } from '../../mocks/node-server.js';
import { type HostileRequest, hostileRequest, junkHeaderLine, SECRET_KEY } from './arbitraries.js';
import { answerProblems, logProblems } from './invariants.js';
import { rawRequest } from './raw-client.js';

const RUNS = Number(process.env.PETKIT_FUZZ_RUNS ?? 40);
const SEED = Number(process.env.PETKIT_FUZZ_SEED ?? 42);
/** A long fuzz run may take minutes; the suite's own run, the usual 20 s. */
const TIMEOUT_MS = process.env.PETKIT_FUZZ_RUNS === undefined ? 20_000 : 600_000;
const NOW = Date.UTC(2030, 0, 1, 12, 0, 30);
const SECRETS = [SECRET_KEY];
const KEYS = {
  keys: [
    { key: SECRET_KEY, plan: 'enterprise' as const, perMinute: 10_000_000, perDay: 100_000_000 },
    { key: 'demo-free', plan: 'free' as const },
  ],
  anonymous: { perMinute: 10_000_000, perDay: 100_000_000 },
};
const figures: string[] = [];

/** The heap in use once garbage is collected: what the run kept, not what it has yet to free. */
function retainedHeap(): number {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed;
}
afterAll(() => {
  if (process.env.PETKIT_FUZZ_RUNS !== undefined) console.log(`fuzz (seed ${SEED}):\n${figures.join('\n')}`);
});

function logCollector() {
  const lines: string[] = [];
  return {
    lines,
    logger: { info: (line: string) => lines.push(line), error: (line: string) => lines.push(line) },
  };
}

/** The seeded pets as the API lists them (the API only ever adds pets: these must never change). */
async function seededPets(mock: Mock): Promise<unknown> {
  const res = await mock.request('/v1/pets?limit=50', { headers: { authorization: `Bearer ${SECRET_KEY}` } });
  return res.json();
}

function callOf(request: HostileRequest): MockCall {
  const headers = new Map(
    Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const bytes = request.body === undefined ? undefined : new TextEncoder().encode(request.body);
  if (bytes !== undefined) headers.set('content-length', String(bytes.byteLength));
  return {
    method: request.method,
    url: targetOf(request.target),
    header: (name) => headers.get(name) ?? null,
    rawHeaders: () => [...headers].flat(),
    clientAddress: '127.0.0.1',
    body: {
      present: bytes !== undefined,
      read: async (limit) =>
        bytes === undefined ? new Uint8Array(0) : bytes.byteLength > limit ? undefined : bytes,
    },
  };
}

function rawBytes(request: HostileRequest, host: string, junk: string | null): string {
  const lines = [`${request.method} ${request.target} HTTP/1.1`, `host: ${host}`, 'connection: close'];
  for (const [name, value] of Object.entries(request.headers)) lines.push(`${name}: ${value}`);
  if (junk !== null) lines.push(junk);
  const body = request.body ?? '';
  if (request.body !== undefined) lines.push(`content-length: ${Buffer.byteLength(body)}`);
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

describe('hostile requests', () => {
  it(
    'over the core: every answer documented, no unforced 5xx, nothing leaked, seeded pets untouched',
    async () => {
      const { lines, logger } = logCollector();
      const mock = createMock({ keys: KEYS, clock: () => NOW, logger });
      const before = await seededPets(mock);
      let created = 0;
      const started = performance.now();
      await fc.assert(
        fc.asyncProperty(hostileRequest, async (request) => {
          const reply = await mock.answer(callOf(request));
          const body =
            request.method === 'HEAD' || reply.body === null
              ? ''
              : typeof reply.body === 'string'
                ? reply.body
                : new TextDecoder().decode(reply.body);
          if (reply.status === 201) created += 1;
          const problems = answerProblems(
            request,
            { status: reply.status, headers: reply.headers, body },
            SECRETS,
            NOW,
          );
          expect(
            problems,
            `${request.method} ${request.target} → ${reply.status} ${body.slice(0, 200)}: ${problems.join('; ')}`,
          ).toEqual([]);
        }),
        { numRuns: RUNS * 5, seed: SEED },
      );
      expect(logProblems(lines, SECRETS)).toEqual([]);
      expect(await seededPets(mock)).toEqual(before);
      const health = (await (await mock.request('/__petkit/health')).json()) as { pets: number };
      expect(health.pets).toBe(50 + created);
      figures.push(
        `  core: ${RUNS * 5} requests in ${Math.round(performance.now() - started)} ms, ${created} created`,
      );
    },
    TIMEOUT_MS,
  );

  describe('over raw sockets', () => {
    let server: RunningServer;
    afterAll(() => server?.close());
    it(
      'every answer documented or a JSON transport refusal, no unforced 5xx, nothing leaked, alive, memory bounded',
      async () => {
        const { lines, logger } = logCollector();
        server = await startServer({
          port: 0,
          host: '127.0.0.1',
          keys: KEYS,
          logger,
          timeouts: { headersMs: 2_000, requestMs: 3_000, checkIntervalMs: 100 },
          control: { perMinute: 1_000_000 },
        });
        const host = new URL(server.origin).host;
        const before = await seededPets(server.mock);
        const heapBefore = retainedHeap();
        let created = 0;
        const statuses = new Map<number, number>();
        const started = performance.now();
        await fc.assert(
          fc.asyncProperty(hostileRequest, fc.option(junkHeaderLine, { freq: 4 }), async (request, junk) => {
            const answer = await rawRequest(server.origin, rawBytes(request, host, junk));
            statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
            if (answer.status === 201) created += 1;
            const problems = answerProblems(request, answer, SECRETS, Date.now());
            expect(
              problems,
              `${JSON.stringify(rawBytes(request, host, junk)).slice(0, 300)} → ${answer.status} ${answer.body.slice(0, 200)}: ${problems.join('; ')}`,
            ).toEqual([]);
          }),
          { numRuns: RUNS, seed: SEED },
        );
        const heapGrowth = retainedHeap() - heapBefore;
        // The journal (2 MiB at most) and the pets created are all the run may keep.
        expect(heapGrowth).toBeLessThan(16 * 1024 * 1024);
        expect(logProblems(lines, SECRETS)).toEqual([]);
        const health = await fetch(`${server.origin}/__petkit/health`);
        expect(health.status).toBe(200);
        expect(((await health.json()) as { pets: number }).pets).toBe(50 + created);
        expect(await seededPets(server.mock)).toEqual(before);
        figures.push(
          `  sockets: ${RUNS} requests in ${Math.round(performance.now() - started)} ms, ${created} created, ` +
            `statuses ${[...statuses]
              .sort(([a], [b]) => a - b)
              .map(([s, n]) => `${s}×${n}`)
              .join(' ')}, ` +
            `heap growth ${(heapGrowth / 1024 / 1024).toFixed(1)} MB, rss ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB`,
        );
      },
      TIMEOUT_MS,
    );
  });
});

describe('the journal against amplification', () => {
  it('keeps a read of it bounded after 1,000 requests with 15 KB paths (it was 15 MB)', async () => {
    const mock = createMock({ clock: () => NOW });
    const long = `/v1/pets?q=${'a'.repeat(15_000)}`;
    for (let i = 0; i < 1_000; i += 1)
      await mock.answer(callOf({ method: 'GET', target: long, headers: {}, body: undefined }));
    const page = await mock.request('/__petkit/requests');
    const text = await page.text();
    expect(text.length).toBeLessThan(400 * 1024);
    const all = await (await mock.request('/__petkit/requests?limit=1000')).text();
    expect(all.length).toBeLessThan(2.5 * 1024 * 1024);
    expect((JSON.parse(text) as { entries: { truncated: string[] }[] }).entries[0]?.truncated).toContain(
      '/path',
    );
  });
});

// The hostile suite: arbitrary methods, targets, headers and bodies (among them createPet bodies
// nested thousands deep or wide in each field), over the core and over raw sockets, each answer held
// to the invariants (invariants.ts): never an unforced 5xx, a documented response with its rate-limit
// headers that the contract module's checker passes, messages that quote in a few dozen characters,
// no key, stack trace or path of this machine in any answer or log line, the seeded pets untouched by
// what was refused, the process alive and its memory bounded. Seeded: a failure prints its seed and
// path, and replays. `npm test` runs a few dozen cases each; `npm run fuzz` runs thousands
// (PETKIT_FUZZ_RUNS, PETKIT_FUZZ_SEED), and prints what it sent, what came back and the peak memory.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { type MockCall, targetOf } from '../../mocks/call.js';
import { createMock, type Mock } from '../../mocks/mock.js';
import { type RunningServer, startServer } from '../../mocks/node-server.js';
import {
  deepOrWideBody,
  type HostileRequest,
  hostileRequest,
  junkHeaderLine,
  SECRET_KEY,
} from './arbitraries.js';
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
/** Fuzz properties that failed in this run, for the figures. */
let failures = 0;

/** The heap in use once garbage is collected: what the run kept, not what it has yet to free. */
function retainedHeap(): number {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed;
}
afterAll(() => {
  if (process.env.PETKIT_FUZZ_RUNS === undefined) return;
  // maxRSS: the peak resident memory of this test process (vitest's worker: the mock, the client, fast-check).
  const peak = process.resourceUsage().maxRSS / 1024;
  console.log(
    `fuzz (seed ${SEED}), ${failures} failed, peak RSS ${peak.toFixed(0)} MB:\n${figures.join('\n')}`,
  );
});

/** `400×12 413×3`: how many answers of each status. */
function tally(statuses: Map<number, number>): string {
  return [...statuses]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${status}×${n}`)
    .join(' ');
}

function count(statuses: Map<number, number>, status: number): void {
  statuses.set(status, (statuses.get(status) ?? 0) + 1);
}

/** A reply's body as text ('' for HEAD, as a socket would carry it). */
function replyText(method: string, body: string | Uint8Array | null): string {
  if (method === 'HEAD' || body === null) return '';
  return typeof body === 'string' ? body : new TextDecoder().decode(body);
}

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
    async ({ onTestFailed }) => {
      onTestFailed(() => {
        failures += 1;
      });
      const { lines, logger } = logCollector();
      const mock = createMock({ keys: KEYS, clock: () => NOW, logger });
      const before = await seededPets(mock);
      let created = 0;
      const statuses = new Map<number, number>();
      const started = performance.now();
      await fc.assert(
        fc.asyncProperty(hostileRequest, async (request) => {
          const reply = await mock.answer(callOf(request));
          const body = replyText(request.method, reply.body);
          count(statuses, reply.status);
          if (reply.status === 201) created += 1;
          const problems = answerProblems(
            request,
            { status: reply.status, headers: reply.headers, body },
            SECRETS,
            NOW,
            'core',
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
        `  core: ${RUNS * 5} requests in ${Math.round(performance.now() - started)} ms, ${created} created, ` +
          `statuses ${tally(statuses)}`,
      );
    },
    TIMEOUT_MS,
  );

  it(
    'createPet bodies nested thousands deep or wide, in every field: 400, 413 or 201, with rate-limit headers and short messages',
    async ({ onTestFailed }) => {
      onTestFailed(() => {
        failures += 1;
      });
      const { lines, logger } = logCollector();
      const mock = createMock({ keys: KEYS, clock: () => NOW, logger });
      const statuses = new Map<number, number>();
      const started = performance.now();
      await fc.assert(
        fc.asyncProperty(deepOrWideBody, async (body) => {
          const request: HostileRequest = {
            method: 'POST',
            target: '/v1/pets',
            headers: { authorization: `Bearer ${SECRET_KEY}`, 'content-type': 'application/json' },
            body,
          };
          const reply = await mock.answer(callOf(request));
          const text = replyText('POST', reply.body);
          count(statuses, reply.status);
          const problems = answerProblems(
            request,
            { status: reply.status, headers: reply.headers, body: text },
            SECRETS,
            NOW,
            'core',
          );
          const code = reply.status === 400 ? (JSON.parse(text) as { code: string }).code : undefined;
          if (![201, 400, 413].includes(reply.status)) problems.push(`status ${reply.status}`);
          if (code !== undefined && code !== 'validation_failed' && code !== 'malformed_json')
            problems.push(`a 400 with code ${code}`);
          expect(problems, `${body.slice(0, 80)}… → ${reply.status} ${text.slice(0, 200)}`).toEqual([]);
        }),
        { numRuns: RUNS * 2, seed: SEED },
      );
      expect(logProblems(lines, SECRETS)).toEqual([]);
      figures.push(
        `  core, deep and wide createPet bodies: ${RUNS * 2} requests in ${Math.round(performance.now() - started)} ms, ` +
          `statuses ${tally(statuses)}`,
      );
    },
    TIMEOUT_MS,
  );

  describe('over raw sockets', () => {
    let server: RunningServer;
    afterAll(() => server?.close());
    it(
      'every answer documented or a JSON transport refusal, no unforced 5xx, nothing leaked, alive, memory bounded',
      async ({ onTestFailed }) => {
        onTestFailed(() => {
          failures += 1;
        });
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
            count(statuses, answer.status);
            if (answer.status === 201) created += 1;
            const problems = answerProblems(request, answer, SECRETS, Date.now(), 'socket');
            expect(
              problems,
              `${JSON.stringify(rawBytes(request, host, junk)).slice(0, 300)} → ${answer.status} ${answer.body.slice(0, 200)}: ${problems.join('; ')}`,
            ).toEqual([]);
          }),
          {
            numRuns: RUNS,
            seed: SEED,
            // Found by the fuzz (seed 7): a page with no origin of its own refused by the control
            // API, whose message named a file:// page, read as a path of this machine.
            examples: [
              [
                { method: 'PUT', target: '/__petkit/nope', headers: { origin: 'null' }, body: undefined },
                null,
              ],
            ],
          },
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
            `statuses ${tally(statuses)}, ` +
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

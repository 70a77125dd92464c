import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMock } from '../mocks/index.js';
import { describeFault, loadSpec } from '../openapi/index.js';
import { createCeilingListener } from './ceiling.js';
import { type BenchRequest, SCENARIOS } from './scenarios.js';
import { SERVERS } from './servers.js';

let server: Server;
let origin: string;

beforeEach(async () => {
  server = createServer(createCeilingListener({ limit: 1000, resetAt: 1_900_000_000 }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function send(r: BenchRequest, to = origin): Promise<Response> {
  return fetch(`${to}/v1${r.path}`, {
    method: r.method,
    headers: r.headers,
    ...(r.body === undefined ? {} : { body: r.body }),
  });
}

/** Every fault between a response and what openapi.yaml documents for its operation and status. */
async function conformance(r: BenchRequest, response: Response): Promise<string[]> {
  const spec = loadSpec();
  const pathname = new URL(`http://x${r.path}`).pathname;
  const operation = spec.operations.find((o) => o.method === r.method && o.match(pathname) !== null);
  if (operation === undefined) return [`no operation for ${r.method} ${pathname}`];
  const documented = operation.response(response.status);
  if (documented === undefined) return [`${response.status} is not documented for ${operation.id}`];
  const faults: string[] = [];
  for (const header of documented.headers) {
    for (const f of header.validate(response.headers.get(header.name))) {
      faults.push(`header ${header.name}: ${describeFault(f).message}`);
    }
  }
  const body = documented.content.get('application/json');
  if (body !== undefined) {
    expect(response.headers.get('content-type')).toBe('application/json');
    for (const f of body.validate(await response.json())) faults.push(`body: ${describeFault(f).message}`);
  }
  return faults;
}

const distinct = [...new Set(SCENARIOS.flatMap((s) => s.requests))];

/** Each request of the scenarios gets its expected status, with the documented headers and body. */
function answersEveryRequest(sender: (r: BenchRequest) => Promise<Response>): void {
  it.each(distinct.map((r) => [`${r.method} ${r.path} (${r.expect})`, r] as const))(
    'answers %s with the expected status and the documented headers and body',
    async (_name, r) => {
      const response = await sender(r);
      expect(response.status).toBe(r.expect);
      expect(await conformance(r, response)).toEqual([]);
    },
  );
}

describe('the ceiling server', () => {
  answersEveryRequest((r) => send(r));

  it('sends petkit’s extras: Location on 201, the deprecation headers on getPet, a Bearer challenge on 401, CORS', async () => {
    const byExpect = (status: number, path: string) => {
      const found = distinct.find((r) => r.expect === status && r.path === path);
      if (found === undefined) throw new Error(`no ${status} request for ${path}`);
      return send(found);
    };
    expect((await byExpect(201, '/pets')).headers.get('location')).toBe('/v1/pets/101');
    const get = await byExpect(200, '/pets/1');
    expect(get.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    expect(get.headers.get('link')).toBe('</v1/pets>; rel="successor-version"');
    expect((await byExpect(401, '/pets?limit=20')).headers.get('www-authenticate')).toBe(
      'Bearer realm="pets"',
    );
  });

  it('counts X-RateLimit-Remaining down from the limit, request by request', async () => {
    const r = distinct[0];
    if (r === undefined) throw new Error('no request');
    const first = await send(r);
    const second = await send(r);
    expect(first.headers.get('x-ratelimit-limit')).toBe('1000');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('999');
    expect(second.headers.get('x-ratelimit-remaining')).toBe('998');
    expect(second.headers.get('x-ratelimit-reset')).toBe('1900000000');
  });

  it('answers as many pets as the limit asks, and only available ones under the status filter', async () => {
    const auth = { authorization: 'Bearer petkit-bench' };
    const list100 = (await (
      await fetch(`${origin}/v1/pets?limit=100`, { headers: auth })
    ).json()) as unknown[];
    const available = (await (
      await fetch(`${origin}/v1/pets?status=available`, { headers: auth })
    ).json()) as {
      status: string;
    }[];
    expect(list100).toHaveLength(100);
    expect(available).toHaveLength(20);
    expect(available.every((p) => p.status === 'available')).toBe(true);
  });

  it('lists as many pets as petkit seeded as the bench starts it, so list-100 carries the same work', async () => {
    const petkit = SERVERS.find((s) => s.id === 'petkit');
    const { args } = petkit?.command(1, {
      root: fileURLToPath(new URL('..', import.meta.url)),
      keysFile: 'k.json',
    }) ?? { args: [] };
    const pets = Number(args[args.indexOf('--pets') + 1]);
    const mock = createMock({ pets });
    const fromMock = (await (
      await mock.request('/v1/pets?limit=100', { headers: { authorization: 'Bearer demo-free' } })
    ).json()) as unknown[];
    const fromCeiling = (await (
      await fetch(`${origin}/v1/pets?limit=100`, { headers: { authorization: 'Bearer petkit-bench' } })
    ).json()) as unknown[];
    expect(fromMock).toHaveLength(fromCeiling.length);
  });
});

describe('the work-matched ceiling', () => {
  let work: Server;
  let workOrigin: string;
  // 30 s into a minute (1_899_999_960_000 is a whole one).
  let clock = 1_899_999_990_000;

  beforeEach(async () => {
    clock = 1_899_999_990_000;
    work = createServer(createCeilingListener({ work: true, limit: 1000, now: () => clock }));
    await new Promise<void>((resolve) => work.listen(0, '127.0.0.1', resolve));
    workOrigin = `http://127.0.0.1:${(work.address() as AddressInfo).port}`;
  });

  afterEach(async () => {
    work.closeAllConnections();
    await new Promise((resolve) => work.close(resolve));
  });

  const sendTo = (r: BenchRequest) => send(r, workOrigin);

  answersEveryRequest(sendTo);

  it('counts each key in its own minute window, and requests without one per address, as petkit does', async () => {
    const keyed = distinct.find((r) => r.expect === 200);
    const keyless = distinct.find((r) => r.expect === 401);
    if (keyed === undefined || keyless === undefined) throw new Error('no request');
    expect((await sendTo(keyed)).headers.get('x-ratelimit-remaining')).toBe('999');
    expect((await sendTo(keyed)).headers.get('x-ratelimit-remaining')).toBe('998');
    const refused = await sendTo(keyless);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('999');
    // The window ends at the next whole minute, and a new one starts then.
    expect(refused.headers.get('x-ratelimit-reset')).toBe('1900000020');
    clock += 30_000;
    const next = await sendTo(keyed);
    expect(next.headers.get('x-ratelimit-remaining')).toBe('999');
    expect(next.headers.get('x-ratelimit-reset')).toBe('1900000080');
  });

  it('validates a body with the contract’s validator, gives each created pet the next id, and echoes it', async () => {
    const create = distinct.find((r) => r.expect === 201);
    const invalid = distinct.find((r) => r.expect === 400);
    if (create === undefined || invalid === undefined) throw new Error('no request');
    const first = await sendTo(create);
    const second = await sendTo(create);
    expect(second.headers.get('location')).toBe('/v1/pets/102');
    expect(await first.json()).toEqual({ id: 101, ...JSON.parse(create.body ?? '{}') });
    const refused = (await (await sendTo(invalid)).json()) as { code: string; details: { path: string }[] };
    expect(refused.code).toBe('validation_failed');
    expect(refused.details.map((detail) => detail.path).sort()).toEqual(['/categoryId', '/name']);
  });
});

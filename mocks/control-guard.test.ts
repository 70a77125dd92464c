// The control API over a socket, as a web page or a DNS-rebinding attacker would reach it: the Host
// must name the mock, a cross-site Origin is refused unless allowed, control requests have a limit of
// their own, and --no-control turns it off. Over node:http, which lets a test set Host and Origin.
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from './node-server.js';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: Parameters<typeof startServer>[0] = {}) {
  server = await startServer({ port: 0, host: '127.0.0.1', ...options });
  return server;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: { code?: string; message?: string; status?: number; pets?: number };
}

function call(
  origin: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          json: text === '' ? {} : JSON.parse(text),
        });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const hostOf = (origin: string) => new URL(origin).host;

describe('the control API over a socket', () => {
  it('answers a Host naming the mock: its address, localhost', async () => {
    const { origin } = await start();
    const { port } = new URL(origin);
    for (const host of [hostOf(origin), `localhost:${port}`]) {
      expect((await call(origin, 'GET', '/__petkit/health', { host })).status).toBe(200);
    }
  });
  it('refuses another Host with 403 host_not_allowed (DNS rebinding), and the reset does not happen', async () => {
    const { origin, url } = await start();
    const { port } = new URL(origin);
    await fetch(`${url}/pets`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-free', 'content-type': 'application/json' },
      body: '{"name":"Kept","categoryId":1}',
    });
    for (const host of [`evil.example:${port}`, 'localhost:1', `127.0.0.1.nip.io:${port}`]) {
      const answer = await call(origin, 'POST', '/__petkit/reset', { host });
      expect(answer.status).toBe(403);
      expect(answer.json).toMatchObject({ code: 'host_not_allowed', status: 403 });
      expect(answer.headers['access-control-allow-origin']).toBe('*');
    }
    expect((await call(origin, 'GET', '/__petkit/health')).json.pets).toBe(51);
  });
  it('reads Host strictly: other spellings of loopback are refused, an IPv6 literal of it passes', async () => {
    // A browser writes 127.1 or 0x7f.1 as 127.0.0.1 in Host; no DNS name can be one of these, so
    // refusing them costs a rebinding attacker nothing and a browser nothing.
    const { origin } = await start();
    const { port } = new URL(origin);
    for (const name of [
      'localhost.',
      '127.1',
      '0x7f.1',
      '2130706433',
      '127.0.0.1.',
      'localhost.evil.example',
    ]) {
      const answer = await call(origin, 'GET', '/__petkit/health', { host: `${name}:${port}` });
      expect([name, answer.json.code]).toEqual([name, 'host_not_allowed']);
    }
    for (const name of ['[::ffff:127.0.0.1]', '[::1]', 'LOCALHOST', 'app.localhost'])
      expect([
        name,
        (await call(origin, 'GET', '/__petkit/health', { host: `${name}:${port}` })).status,
      ]).toEqual([name, 200]);
  });
  it('holds an absolute-form target’s authority to the Host rule too: the Host line alone does not pass it', async () => {
    const { origin, url } = await start();
    const { port } = new URL(origin);
    await fetch(`${url}/pets`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-free', 'content-type': 'application/json' },
      body: '{"name":"Kept","categoryId":1}',
    });
    for (const [target, host] of [
      ['http://evil.example/__petkit/reset', hostOf(origin)],
      [`http://evil.example:${port}/__petkit/reset`, hostOf(origin)],
      [`HTTP://127.0.0.1.nip.io:${port}/__petkit/reset`, hostOf(origin)],
      [`http://127.0.0.1:1/__petkit/reset`, hostOf(origin)],
      [`http://127.0.0.1:${port}/__petkit/reset`, `evil.example:${port}`],
    ] as const) {
      const answer = await call(origin, 'POST', target, { host });
      expect(answer.status, target).toBe(403);
      expect(answer.json).toMatchObject({ code: 'host_not_allowed', status: 403 });
    }
    const refused = await call(origin, 'POST', 'http://evil.example/__petkit/reset', {
      host: hostOf(origin),
    });
    expect(refused.json.message).toBe(
      `The control API answers only requests addressed to this mock (e.g. Host: 127.0.0.1:${port}); got the request target's authority "evil.example". A proxy or tunnel in front of the mock: start it with --control-origin http(s)://THAT-HOST.`,
    );
    expect((await call(origin, 'GET', '/__petkit/health')).json.pets).toBe(51);
    for (const target of [
      `http://127.0.0.1:${port}/__petkit/health`,
      `http://localhost:${port}/__petkit/health`,
    ]) {
      expect((await call(origin, 'GET', target, { host: hostOf(origin) })).status, target).toBe(200);
    }
  });
  it('refuses a cross-site Origin with 403 origin_not_allowed, and allows this machine’s own pages', async () => {
    const { origin } = await start();
    const refused = await call(origin, 'POST', '/__petkit/reset', { origin: 'https://evil.example' });
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({
      code: 'origin_not_allowed',
      message:
        'The control API refuses calls from web pages of another site (Origin "https://evil.example"); start the mock with --control-origin "https://evil.example" to allow it.',
      status: 403,
    });
    // It was told to start the mock with --control-origin "null", which the mock refuses to start with.
    const opaque = await call(origin, 'GET', '/__petkit/requests', { origin: 'null' });
    expect(opaque.status).toBe(403);
    expect(opaque.json.message).toBe(
      'The control API refuses calls from web pages of another site (Origin "null"); the page has no origin of its own (a page opened from a file, a sandboxed frame), which --control-origin cannot name: serve it over http(s) and allow that origin, or start the mock with --control-origin "*" to allow every page.',
    );
    const odd = await call(origin, 'GET', '/__petkit/requests', { origin: 'chrome-extension://abc' });
    expect(odd.json.message).toBe(
      'The control API refuses calls from web pages of another site (Origin "chrome-extension://abc"); that is no web origin (scheme://host[:port] of http or https), which --control-origin cannot name; --control-origin "*" allows every page.',
    );
    await expect(startServer({ port: 0, host: '127.0.0.1', control: { origins: ['null'] } })).rejects.toThrow(
      'Control origin "null" is not an origin',
    );
    for (const allowed of ['http://localhost:5173', 'http://127.0.0.1:3000']) {
      expect((await call(origin, 'POST', '/__petkit/reset', { origin: allowed })).status).toBe(200);
    }
    // The API itself stays open to every origin (CORS *): only the control API is guarded.
    const api = await call(origin, 'GET', '/v1/pets?limit=1', {
      origin: 'https://evil.example',
      authorization: 'Bearer demo-free',
    });
    expect(api.status).toBe(200);
  });
  it('refuses a request of another site that carries no Origin: Sec-Fetch-Site cross-site, or a foreign Referer', async () => {
    // A browser sends no Origin on a GET of an <img>, <script> or <link>, and an older one none on
    // some POSTs: its Sec-Fetch-Site (or, without it, its Referer) still says where the page is.
    const { origin, url } = await start();
    await fetch(`${url}/pets`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-free', 'content-type': 'application/json' },
      body: '{"name":"Kept","categoryId":1}',
    });
    const crossSite = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' };
    const refusedOnes: [string, string, Record<string, string>][] = [
      ['POST', '/__petkit/reset', { ...crossSite, 'sec-fetch-dest': 'empty', 'content-type': 'text/plain' }],
      [
        'GET',
        '/__petkit/events',
        { ...crossSite, 'sec-fetch-dest': 'image', referer: 'https://evil.example/' },
      ],
      ['GET', '/__petkit/requests', { ...crossSite, 'sec-fetch-dest': 'script' }],
      [
        'GET',
        '/__petkit/',
        { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' },
      ],
      ['POST', '/__petkit/reset', { referer: 'https://evil.example/page?x=1' }],
    ];
    for (const [method, path, headers] of refusedOnes) {
      const refused = await call(origin, method, path, headers);
      expect(refused.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(403);
      expect(refused.json).toMatchObject({ code: 'origin_not_allowed', status: 403 });
    }
    expect(
      (await call(origin, 'POST', '/__petkit/reset', { referer: 'https://evil.example/' })).json.message,
    ).toBe(
      'The control API refuses calls from web pages of another site (Referer from "https://evil.example"); start the mock with --control-origin "https://evil.example" to allow it.',
    );
    expect((await call(origin, 'GET', '/__petkit/requests', crossSite)).json.message).toBe(
      "The control API refuses calls from web pages of another site (Sec-Fetch-Site: cross-site, no Origin or Referer); start the mock with --control-origin for that page's origin to allow it.",
    );
    expect((await call(origin, 'GET', '/__petkit/health')).json.pets).toBe(51);
    // This machine's pages, the page's own calls, a URL typed or a link followed to the page, and curl pass.
    const passing: [string, string, Record<string, string>][] = [
      [
        'GET',
        '/__petkit/health',
        { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
      ],
      ['GET', '/__petkit/health', { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' }],
      ['GET', '/__petkit/health', { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate' }],
      ['GET', '/__petkit/health', { referer: 'http://localhost:5173/app' }],
      ['GET', '/__petkit/health', { referer: `${origin}/__petkit/` }],
      ['POST', '/__petkit/reset', {}],
    ];
    for (const [method, path, headers] of passing)
      expect(
        (await call(origin, method, path, headers)).status,
        `${method} ${path} ${JSON.stringify(headers)}`,
      ).toBe(200);
  });
  it('lets a page of an allowed origin through without an Origin, by its Referer', async () => {
    const { origin } = await start({ control: { origins: ['https://app.example'] } });
    const headers = {
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'no-cors',
      referer: 'https://app.example/x',
    };
    expect((await call(origin, 'GET', '/__petkit/health', headers)).status).toBe(200);
    expect((await call(origin, 'GET', '/__petkit/health', { referer: 'https://app.example/x' })).status).toBe(
      200,
    );
  });
  it('allows the origins given in control.origins (--control-origin), and their hosts as Host', async () => {
    const { origin } = await start({ control: { origins: ['https://app.example'] } });
    const { port } = new URL(origin);
    const answer = await call(origin, 'POST', '/__petkit/reset', {
      origin: 'https://app.example',
      host: `app.example:${port}`,
    });
    expect(answer.status).toBe(200);
    await expect(startServer({ port: 0, control: { origins: ['app.example'] } })).rejects.toThrow(
      'Control origin "app.example" is not an origin such as http://localhost:5173.',
    );
  });
  it('counts control requests against a limit of their own: 429 with Retry-After beyond it', async () => {
    const { origin, url } = await start({ control: { perMinute: 3 } });
    for (let i = 0; i < 3; i += 1) expect((await call(origin, 'GET', '/__petkit/health')).status).toBe(200);
    const limited = await call(origin, 'GET', '/__petkit/requests');
    expect(limited.status).toBe(429);
    expect(limited.json).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // The API's own limits are not touched.
    expect((await fetch(`${url}/pets`, { headers: { authorization: 'Bearer demo-free' } })).status).toBe(200);
  });
  it('counts only the requests it lets through: a page of another site refused 403 spends none of the limit', async () => {
    // Any web page the user visits can send these (an <img>, a form, fetch): were they counted, a
    // page could keep the control API at 429 for the user's own tests.
    const { origin } = await start({ control: { perMinute: 3 } });
    const { port } = new URL(origin);
    for (let i = 0; i < 10; i += 1) {
      expect((await call(origin, 'POST', '/__petkit/reset', { origin: 'https://evil.example' })).status).toBe(
        403,
      );
      expect((await call(origin, 'GET', '/__petkit/health', { host: `evil.example:${port}` })).status).toBe(
        403,
      );
    }
    for (let i = 0; i < 3; i += 1) expect((await call(origin, 'GET', '/__petkit/health')).status).toBe(200);
    expect((await call(origin, 'GET', '/__petkit/health')).status).toBe(429);
  });
  it('says on every control answer that no other site may read it as a resource, nor have it sniffed', async () => {
    // An <img> or <script> of another site (from a browser the guard cannot tell by its headers) is
    // then blocked by the browser itself, and a journal holding a client's `<script>` is never read as one.
    const { origin } = await start();
    for (const [method, path] of [
      ['GET', '/__petkit/requests'],
      ['GET', '/__petkit/health'],
      ['GET', '/__petkit/rules'],
      ['HEAD', '/__petkit/events'],
      ['GET', '/__petkit/nothing'],
      ['PUT', '/__petkit/reset'],
    ] as const) {
      const { headers } = await call(origin, method, path);
      expect(headers['x-content-type-options'], `${method} ${path}`).toBe('nosniff');
      expect(headers['cross-origin-resource-policy'], `${method} ${path}`).toBe('same-origin');
    }
  });
  it('is off with control: false (--no-control): 404 for every control path', async () => {
    const { origin, url } = await start({ control: false });
    for (const [method, path] of [
      ['POST', '/__petkit/reset'],
      ['GET', '/__petkit/requests'],
      ['GET', '/__petkit/health'],
    ] as const) {
      const answer = await call(origin, method, path);
      expect(answer.status).toBe(404);
      expect(answer.json).toMatchObject({
        code: 'route_not_found',
        message: 'The control API is off (the mock was started with --no-control).',
      });
    }
    expect((await fetch(`${url}/pets`, { headers: { authorization: 'Bearer demo-free' } })).status).toBe(200);
  });
});

describe('POST /__petkit/reset with a body', () => {
  const json = { 'content-type': 'application/json' };
  it('seeds other generated pets with {"seed", "pets"}, and the start’s again with no body', async () => {
    const { origin, url } = await start();
    const first = async () =>
      (await (
        await fetch(`${url}/pets/1`, { headers: { authorization: 'Bearer demo-enterprise' } })
      ).json()) as {
        name: string;
      };
    const seeded = await first();
    const reset = await call(origin, 'POST', '/__petkit/reset', json, '{"seed":7,"pets":3}');
    expect(reset.json).toEqual({ status: 'reset', pets: 3 });
    expect((await first()).name).not.toBe(seeded.name);
    expect((await call(origin, 'POST', '/__petkit/reset')).json.pets).toBe(50);
    expect((await first()).name).toBe(seeded.name);
  });
  it('starts from the caller’s own pets with {"pets": [...]}', async () => {
    const { origin, url } = await start();
    const pets = [
      { id: 1, name: 'Ada', categoryId: 2, status: 'sold' },
      { id: 2, name: 'Bo', categoryId: 3 },
    ];
    expect((await call(origin, 'POST', '/__petkit/reset', json, JSON.stringify({ pets }))).json.pets).toBe(2);
    const list = await fetch(`${url}/pets`, { headers: { authorization: 'Bearer demo-free' } });
    expect(await list.json()).toEqual(pets);
  });
  it('answers 400 naming the bad entry, and changes nothing', async () => {
    const { origin } = await start();
    for (const [body, message] of [
      [
        {
          pets: [
            { id: 1, name: 'Ok', categoryId: 1 },
            { id: 2, name: '', categoryId: 1 },
          ],
        },
        '/pets/1/name',
      ],
      [
        { pets: [{ id: 1, name: 'Ok', categoryId: 1, owner: 'x' }] },
        '/pets/0/owner is not an allowed property',
      ],
      [{ pets: [{ id: 5, name: 'Ok', categoryId: 1 }] }, '/pets/0/id must be 1'],
      // A valid int64 JSON.parse rounds: it was a 500 internal_error, the store refusing it.
      [{ pets: [{ id: 1, name: 'Ok', categoryId: 2 ** 53 }] }, '/pets/0/categoryId is beyond 2^53-1'],
      [{ pets: -1 }, '/pets must be an integer from 0 to 100000'],
      [{ seed: 'x' }, '/seed must be an integer'],
      [{ sede: 1 }, 'Unknown property /sede'],
    ] as const) {
      const answer = await call(origin, 'POST', '/__petkit/reset', json, JSON.stringify(body));
      expect(answer.json.message).toContain(message);
      expect(answer.status).toBe(400);
      expect(answer.json.code).toBe('validation_failed');
      expect(answer.json.message).toContain(message);
    }
    expect((await call(origin, 'POST', '/__petkit/reset', json, '{"pets":')).json.code).toBe(
      'malformed_json',
    );
    expect((await call(origin, 'GET', '/__petkit/health')).json.pets).toBe(50);
  });
});

// petkit proxy, as a developer meets it: forwarding to the mock and to servers broken one way each
// (test/servers/), the engine over real sockets and the command through the built CLI.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, request } from 'node:http';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { formatExchange, parse } from '../cli/proxy.js';
import { runContract } from '../contract-tests/index.js';
import { startServer } from '../mocks/index.js';
import { type Departure, startProxy, upstreamProblem } from '../proxy/index.js';
import { BROKEN_SERVERS } from './servers/broken.js';
import { fakeClock } from './servers/fake-clock.js';
import { serveHostile } from './servers/hostile.js';
import { REFERENCE_KEY, serve } from './servers/reference.js';
import { WIRE_QUIRKS } from './servers/wire-quirks.js';
import { closedWithin, keptAliveGet } from './support/kept-alive.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function proxyTo(upstream: string, apiKey?: string) {
  const seen: Departure[] = [];
  const running = await startProxy({
    upstream,
    ...(apiKey === undefined ? {} : { apiKey }),
    onDeparture: (d) => seen.push(d),
  });
  closers.push(() => running.close());
  /** The departures of the exchanges so far: they are checked once each exchange ends. */
  const settled = async (exchanges: number) => {
    while (running.proxy.journal.exchanges < exchanges) await new Promise((r) => setImmediate(r));
    return seen;
  };
  return { url: running.url, origin: running.origin, settled, proxy: running.proxy };
}

async function brokenUpstream(name: string) {
  const broken = BROKEN_SERVERS.find((server) => server.name === name);
  if (broken === undefined) throw new Error(`no broken server ${name}`);
  const served = await serve(broken.handler());
  closers.push(() => served.close());
  return served.url;
}

const KEY = { authorization: `Bearer ${REFERENCE_KEY}` };

describe('petkit proxy, forwarding to the mock', () => {
  it('forwards requests and answers unchanged, and finds nothing in traffic that keeps the contract', async () => {
    const mock = await startServer({ port: 0, seed: 42 });
    closers.push(() => mock.close());
    const { url, settled } = await proxyTo(mock.url);
    const auth = { authorization: 'Bearer demo-free' };
    const direct = await fetch(`${mock.url}/pets?limit=3`, { headers: auth });
    const proxied = await fetch(`${url}/pets?limit=3`, { headers: auth });
    expect(proxied.status).toBe(200);
    expect(await proxied.text()).toBe(await direct.text());
    expect(proxied.headers.get('x-ratelimit-limit')).toBe('60');
    expect(proxied.headers.get('via')).toBe('1.1 petkit');
    const created = await fetch(`${url}/pets`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Biscuit', categoryId: 3 }),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe('/v1/pets/51');
    expect(await created.json()).toEqual({ id: 51, name: 'Biscuit', categoryId: 3 });
    expect(await settled(2)).toEqual([]);
  });

  it('closes a kept-alive connection once its in-flight exchange is answered, so close() does not wait for the keep-alive timeout', async () => {
    const mock = await startServer({ port: 0 });
    closers.push(() => mock.close());
    const { origin, close } = await startProxy({ upstream: mock.url });
    closers.push(close);
    const get = keptAliveGet(origin, '/v1/pets/1', {
      authorization: 'Bearer demo-free',
      prefer: 'delay=200',
    });
    onTestFinished(get.done);
    while (!get.sent() || mock.mock.inFlight === 0) await new Promise((r) => setImmediate(r));
    const closing = close();
    expect(await get.answered).toBe(200);
    // Without closing that connection, close() waited node's keep-alive timeout (5 s).
    expect(await closedWithin(closing, 2_000)).toBe('closed');
  });

  it('cuts an exchange whose upstream says nothing once the close grace is over, and the upstream request with it', async () => {
    let upstreamGone: () => void = () => undefined;
    const gone = new Promise<void>((resolve) => {
      upstreamGone = resolve;
    });
    let arrived: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const silent = createServer((req) => {
      arrived();
      req.socket.on('close', upstreamGone);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    closers.push(() => {
      silent.closeAllConnections();
      return new Promise((resolve) => silent.close(() => resolve()));
    });
    const { url, close } = await startProxy({
      upstream: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`,
      upstreamTimeoutMs: 60_000,
      closeGraceMs: 200,
    });
    closers.push(close);
    const answer = fetch(`${url}/pets`).then(
      (res) => `answered ${res.status}`,
      (error: Error) => `cut (${error.name})`,
    );
    await held;
    // Without a grace, close() waited the whole --upstream-timeout (60 s here) for the upstream.
    expect(await closedWithin(close(), 2_000)).toBe('closed');
    expect(await answer).toBe('cut (TypeError)');
    await gone;
  });

  it('reports a request that departs from the contract as the client’s', async () => {
    const mock = await startServer({ port: 0 });
    closers.push(() => mock.close());
    const { url, settled } = await proxyTo(mock.url);
    const res = await fetch(`${url}/pets?status=adopted`, { headers: { authorization: 'Bearer demo-free' } });
    expect(res.status).toBe(400);
    expect(await settled(1)).toEqual([
      expect.objectContaining({
        side: 'request',
        check: 'request_conformance',
        operationId: 'listPets',
        status: 400,
        received: 'Invalid query: /status must be one of "available", "pending", "sold"; got "adopted".',
        curl: `curl -i -H "Authorization: Bearer $API_KEY" '${mock.url}/pets?status=adopted'`,
      }),
    ]);
  });
});

describe('petkit proxy, quoting what the app sent', () => {
  it('quotes a -0 the app sent as -0, not as the 0 it equals', async () => {
    const mock = await startServer({ port: 0 });
    closers.push(() => mock.close());
    const { url, settled } = await proxyTo(mock.url);
    const res = await fetch(`${url}/pets`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-free', 'content-type': 'application/json' },
      body: '{"name":"Rex","categoryId":-0}',
    });
    expect(res.status).toBe(400);
    const [departure] = await settled(1);
    expect(departure).toMatchObject({ side: 'request', check: 'request_conformance' });
    expect(departure?.received).toBe('Invalid body: /categoryId must be >= 1; got -0.');
  });
});

describe('petkit proxy, before an upstream that answers a browser revalidating its cache', () => {
  it("takes a 304 to a conditional GET for HTTP's answer, not an undocumented status", async () => {
    const upstream = await serve(async (req) => {
      const headers = {
        etag: 'W/"pets-1"',
        'x-ratelimit-limit': '60',
        'x-ratelimit-remaining': '59',
        'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 60),
      };
      return req.headers['if-none-match'] === 'W/"pets-1"' || req.query.has('stale')
        ? { status: 304, headers, body: '' }
        : { status: 200, headers: { ...headers, 'content-type': 'application/json' }, body: '[]' };
    });
    closers.push(() => upstream.close());
    const { url, settled } = await proxyTo(upstream.url);
    await (await fetch(`${url}/pets`, { headers: KEY })).text();
    const revalidated = await fetch(`${url}/pets`, { headers: { ...KEY, 'if-none-match': 'W/"pets-1"' } });
    expect(revalidated.status).toBe(304);
    // Each such reload was "304 is not a documented status of listPets".
    expect(await settled(2)).toEqual([]);
    // Not asked for (no If-None-Match, no If-Modified-Since), a 304 is still no status of listPets.
    await (await fetch(`${url}/pets?stale=1`, { headers: KEY })).text();
    expect((await settled(3)).map((d) => d.received)).toEqual(['304 is not a documented status of listPets']);
  });
});

describe('petkit proxy, forwarding to broken servers', () => {
  it.each([
    ['wrapped-list', 'GET', '/pets', undefined, 'response_schema_conformance'],
    ['create-answers-200', 'POST', '/pets', '{"name":"Rex","categoryId":1}', 'status_code_conformance'],
    ['errors-as-text-plain', 'GET', '/pets/999999', undefined, 'content_type_conformance'],
    ['reset-in-milliseconds', 'GET', '/pets', undefined, 'response_headers_conformance'],
  ])('%s: %s %s departs on %s', async (name, method, path, body, check) => {
    const { url, settled } = await proxyTo(await brokenUpstream(name));
    const headers = body === undefined ? KEY : { ...KEY, 'content-type': 'application/json' };
    await (await fetch(`${url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) })).text();
    const found = await settled(1);
    expect(found.map((d) => d.check)).toContain(check);
    for (const departure of found) {
      expect(departure.side).toBe('response');
      expect(JSON.stringify(departure)).not.toContain(REFERENCE_KEY);
    }
  });

  it('journals the departures at GET /__petkit/departures, and DELETE clears them', async () => {
    const { url, origin, settled } = await proxyTo(await brokenUpstream('wrapped-list'));
    await (await fetch(`${url}/pets`, { headers: KEY })).text();
    await settled(1);
    const journal = (await (await fetch(`${origin}/__petkit/departures`)).json()) as {
      exchanges: number;
      departures: Departure[];
    };
    expect(journal.exchanges).toBe(1);
    expect(journal.departures[0]).toMatchObject({
      check: 'response_schema_conformance',
      operationId: 'listPets',
    });
    expect((await fetch(`${origin}/__petkit/departures`, { method: 'DELETE' })).status).toBe(204);
    expect(await (await fetch(`${origin}/__petkit/departures`)).json()).toEqual({
      exchanges: 0,
      departures: [],
      unchecked: [],
    });
  });
});

/** A request with the Host and Origin a browser would send (fetch may set neither): status and body. */
function rawGet(origin: string, path: string, headers: Record<string, string>, method = 'GET') {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(`${origin}${path}`, { method, headers, agent: false });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject).end();
  });
}

describe('petkit proxy, its journal kept from other sites', () => {
  it('answers the journal only to a Host naming the proxy and no page of another site (DNS rebinding), and forwards the API to any', async () => {
    const { url, origin, settled } = await proxyTo(await brokenUpstream('wrapped-list'));
    await (await fetch(`${url}/pets`, { headers: KEY })).text();
    await settled(1);
    const port = new URL(origin).port;
    const departures = (headers: Record<string, string>, method = 'GET') =>
      rawGet(origin, '/__petkit/departures', headers, method);

    // A page of evil.example that rebinds its name to 127.0.0.1 sends Host (and Origin) evil.example.
    const rebound = await departures({ host: `evil.example:${port}` });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body)).toEqual({
      code: 'host_not_allowed',
      message: `The proxy's control API answers only requests addressed to this proxy (e.g. Host: 127.0.0.1:${port}); got Host "evil.example:${port}".`,
      status: 403,
    });
    expect((await departures({ host: `evil.example:${port}` }, 'DELETE')).status).toBe(403);
    expect((await departures({ host: `127.0.0.1:${Number(port) + 1}` })).status).toBe(403);
    const crossSite = await departures({ host: `127.0.0.1:${port}`, origin: 'http://evil.example' });
    expect(crossSite.status).toBe(403);
    expect(JSON.parse(crossSite.body)).toEqual({
      code: 'origin_not_allowed',
      message: `The proxy's control API refuses calls from web pages of another site (Origin "http://evil.example").`,
      status: 403,
    });
    expect((await departures({ host: `127.0.0.1:${port}`, origin: 'null' })).status).toBe(403);
    // No Origin, as a browser sends on an <img> or <script> of another site: its fetch metadata or
    // its Referer says where the page is.
    const subresource = await departures({
      host: `127.0.0.1:${port}`,
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'no-cors',
      'sec-fetch-dest': 'script',
      referer: 'https://evil.example/page',
    });
    expect(subresource.status).toBe(403);
    expect(JSON.parse(subresource.body)).toEqual({
      code: 'origin_not_allowed',
      message: `The proxy's control API refuses calls from web pages of another site (Referer from "https://evil.example").`,
      status: 403,
    });
    expect(
      (await departures({ host: `127.0.0.1:${port}`, referer: 'https://evil.example/page' }, 'DELETE'))
        .status,
    ).toBe(403);

    // Its own: curl and scripts (no Origin), localhost, this machine's pages.
    for (const headers of [
      { host: `127.0.0.1:${port}` },
      { host: `localhost:${port}` },
      { host: `localhost:${port}`, origin: 'http://localhost:5173' },
      { host: `127.0.0.1:${port}`, origin: origin },
      // A link followed from another site to it, and a page of this machine's without Origin.
      {
        host: `127.0.0.1:${port}`,
        'sec-fetch-site': 'cross-site',
        'sec-fetch-mode': 'navigate',
        'sec-fetch-dest': 'document',
      },
      { host: `127.0.0.1:${port}`, referer: 'http://localhost:5173/app' },
    ]) {
      const own = await departures(headers);
      expect(own.status).toBe(200);
      expect(JSON.parse(own.body)).toMatchObject({ exchanges: 1 }); // nothing refused above cleared it
    }
    // The API is the upstream's business: any Host is forwarded (as Host: the upstream's).
    expect((await rawGet(origin, '/v1/pets', { ...KEY, host: `evil.example:${port}` })).status).toBe(200);
  });
});

/**
 * A departure's curl line as a user runs it: in /bin/sh (POSIX), with API_KEY set to the user's key,
 * `curl` a function that hands back its arguments; the request then sent for real with fetch.
 */
async function replay(line: string, apiKey: string): Promise<number> {
  const args = execFileSync(
    '/bin/sh',
    ['-c', `curl() { for a in "$@"; do printf '%s\\0' "$a"; done; }\n${line}`],
    { env: { API_KEY: apiKey }, encoding: 'utf8' },
  )
    .split('\0')
    .slice(0, -1);
  const headers = new Headers();
  let method = 'GET';
  for (let i = 0; i < args.length; i += 1) {
    if (args[i] === '-H') {
      const [name = '', ...value] = (args[i + 1] ?? '').split(':');
      headers.append(name, value.join(':').trim());
    }
    if (args[i] === '-X') method = args[i + 1] ?? method;
  }
  const res = await fetch(args.at(-1) ?? '', { method, headers });
  await res.text();
  return res.status;
}

describe('petkit proxy, replaying what was sent', () => {
  /** Sends each Authorization through the proxy in turn: the last exchange's departures. */
  async function departed(apiKey: string | undefined, ...authorizations: string[]) {
    const { url, settled } = await proxyTo(await brokenUpstream('unauthorised-as-403'), apiKey);
    for (const authorization of authorizations)
      await (await fetch(`${url}/pets`, { headers: { authorization } })).text();
    const found = await settled(authorizations.length);
    const last = found.filter((d) => d.status === 403);
    expect(last.length).toBeGreaterThan(0);
    return last;
  }

  it.each([
    ['a wrong key, told the key', REFERENCE_KEY, ['Bearer wrong-one'], 'wrong-one'],
    [
      'the key upper-cased, told the key',
      REFERENCE_KEY,
      [`Bearer ${REFERENCE_KEY.toUpperCase()}`],
      undefined,
    ],
    [
      'the key extended, learnt from a 200',
      undefined,
      [KEY.authorization, `${KEY.authorization}x`],
      undefined,
    ],
    ['a wrong key, not told the key', undefined, ['Bearer wrong-one'], undefined],
  ])('%s: the replay line gets the same 403, and never shows the key', async (_, apiKey, sent, shown) => {
    for (const departure of await departed(apiKey, ...sent)) {
      expect(await replay(departure.curl, REFERENCE_KEY)).toBe(403);
      expect(departure.curl.toLowerCase()).not.toContain(REFERENCE_KEY);
      if (shown === undefined) expect(departure.curl).not.toContain('wrong-one');
      else expect(departure.curl).toContain(shown);
    }
  });
});

describe('petkit proxy, never printing a key it knows', () => {
  it('hides the key, in any case, where the upstream echoes it or the client put it in the target', async () => {
    // An upstream that answers listPets with the key it was sent, upper-cased, where the document
    // wants a list: the checker's message quotes what came back.
    const echoing = await serve(async (req) => {
      const token = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
      return {
        status: 200,
        headers: {
          'content-type': 'application/json',
          'x-ratelimit-limit': '60',
          'x-ratelimit-remaining': '59',
          'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 60),
        },
        body: JSON.stringify({ pets: token.toUpperCase() }),
      };
    });
    closers.push(() => echoing.close());
    const lines: string[] = [];
    const running = await startProxy({
      upstream: echoing.url,
      apiKey: REFERENCE_KEY,
      onExchange: (line) => lines.push(formatExchange(line)),
    });
    closers.push(() => running.close());
    const sent = await fetch(`${running.url}/pets?token=${REFERENCE_KEY}`, { headers: KEY });
    await sent.text();
    while (running.proxy.journal.exchanges < 1) await new Promise((r) => setImmediate(r));
    const departures = running.proxy.journal.departures;
    expect(departures.map((d) => d.check)).toContain('response_schema_conformance');
    const printed = JSON.stringify({ departures, lines }).toLowerCase();
    expect(printed).not.toContain(REFERENCE_KEY.toLowerCase());
    expect(printed).toContain('$api_key');
  });
});

describe('petkit proxy, given an upstream without its scheme', () => {
  it('refuses it at start and says the URL meant, where every request got a 502', async () => {
    for (const [upstream, meant] of [
      ['localhost:4010/v1', 'http://localhost:4010/v1'],
      ['127.0.0.1:4010', 'http://127.0.0.1:4010'],
      ['staging.example.com/api/v1', 'https://staging.example.com/api/v1'],
    ] as const) {
      await expect(startProxy({ upstream })).rejects.toThrow(
        `petkit proxy: the upstream "${upstream}" has no scheme: did you mean ${meant}?`,
      );
      expect(upstreamProblem(upstream)).toBe(`"${upstream}" has no scheme: did you mean ${meant}?`);
    }
    await expect(startProxy({ upstream: 'me:s3cret@localhost:4010/v1' })).rejects.toThrow(
      /^petkit proxy: the upstream has no scheme \(http:\/\/ or https:\/\/\), and must not carry a user or password$/,
    );
    expect(upstreamProblem('ftp://127.0.0.1/v1')).toBe('must be an http or https URL');
    expect(upstreamProblem('http://127.0.0.1:4010/v1')).toBeUndefined();
  });
});

describe('petkit proxy, in front of an API mounted under another base path', () => {
  /** An upstream whose getPet answers with `link` as its Link, at any path. */
  async function getPetLinking(link: string) {
    const upstream = await serve(async (req) => ({
      status: 200,
      headers: {
        'content-type': 'application/json',
        sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
        deprecation: '@1735689600',
        link,
        'x-ratelimit-limit': '60',
        'x-ratelimit-remaining': '59',
        'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 60),
        'x-path': req.pathname,
      },
      body: JSON.stringify({ id: 7, name: 'Rex', categoryId: 1, status: 'available' }),
    }));
    closers.push(() => upstream.close());
    return new URL(upstream.url).origin;
  }

  it('takes the successor its upstream names under its own path, </api/v2/pets>, and departs on </v1/pets> there', async () => {
    const named = await proxyTo(`${await getPetLinking('</api/v2/pets>; rel="successor-version"')}/api/v2`);
    const res = await fetch(`${named.url}/pets/7`, { headers: KEY });
    expect(res.headers.get('x-path')).toBe('/api/v2/pets/7');
    await res.text();
    expect(await named.settled(1)).toEqual([]);

    const v1 = await proxyTo(`${await getPetLinking('</v1/pets>; rel="successor-version"')}/api/v2`);
    await (await fetch(`${v1.url}/pets/7`, { headers: KEY })).text();
    expect(await v1.settled(1)).toEqual([
      expect.objectContaining({
        check: 'deprecation_signalled',
        expected: 'Link: </api/v2/pets>; rel="successor-version" on every response of the deprecated getPet',
        received: 'Link: "</v1/pets>; rel=\\"successor-version\\"" names </v1/pets>, not </api/v2/pets>',
      }),
    ]);
  });
});

describe('petkit proxy, before an upstream whose Content-Length is shorter than its body', () => {
  it('forwards the answer whole, as the app would read it, and drops the bytes past it with the connection', async () => {
    // The answer ends where its Content-Length says; the bytes after it are no HTTP, which Node's parser refuses.
    const raw = createTcpServer((socket) => {
      socket.on('error', () => {});
      socket.on('data', () =>
        socket.write(
          'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n[]and-ten-more',
        ),
      );
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => raw.close(() => resolve())));
    const errors: string[] = [];
    const running = await startProxy({
      upstream: `http://127.0.0.1:${(raw.address() as AddressInfo).port}/v1`,
      onUpstreamError: (message) => errors.push(message),
    });
    closers.push(() => running.close());
    // It cut the app's connection before the answer's head: "fetch failed: other side closed".
    for (const n of [1, 2]) {
      const res = await fetch(`${running.url}/pets`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('[]');
      await expect.poll(() => running.proxy.journal.exchanges).toBe(n);
    }
    expect(errors[0]).toMatch(
      /^the upstream http:\/\/127\.0\.0\.1:\d+ sent bytes after the end of its answer \(HPE_INVALID_CONSTANT\), dropped with its connection, to GET \/v1\/pets$/,
    );
  });

  it('lets the suite through it find what it finds without it: the body cut by its Content-Length', async () => {
    const clock = fakeClock();
    const served = await serveHostile(WIRE_QUIRKS.shortContentLength, clock.now);
    closers.push(() => served.close());
    const running = await startProxy({ upstream: served.url, apiKey: REFERENCE_KEY, clock: clock.now });
    closers.push(() => running.close());
    const report = await runContract({
      baseUrl: running.url,
      apiKey: REFERENCE_KEY,
      seed: 7,
      examples: 5,
      now: clock.now,
      sleep: clock.sleep,
      random: () => 0.5,
    });
    // Through the proxy the run stopped at its first request, exit 2: "Cannot reach …: other side closed".
    expect(report.exitCode).toBe(1);
    expect(report.findings.map((f) => `${f.check} · ${f.operationId} · ${f.status}`)).toContain(
      'content_type_conformance · listPets · 200',
    );
    const departures = running.proxy.journal.departures.filter((d) => d.side === 'response');
    expect(departures.length).toBeGreaterThan(0);
    for (const departure of departures)
      expect(departure.received).toMatch(
        /^the body is not JSON \(Content-Type: application\/json\): it ends inside the JSON, where its Content-Length: \d+ ends it/,
      );
  });
});

describe('petkit proxy, saying where a body is not JSON', () => {
  /** An upstream whose every getPet 404 echoes the key it was sent, a comma missing after it. */
  async function commaMissingAfterKey(extra = '') {
    const upstream = await serve(async (req) => {
      const token = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
      return {
        status: 404,
        headers: {
          'content-type': 'application/json',
          sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
          deprecation: '@1735689600',
          link: '</v1/pets>; rel="successor-version"',
          'x-ratelimit-limit': '60',
          'x-ratelimit-remaining': '59',
          'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 60),
        },
        body: `{"code":"not_found","message":"No pet for ${token}"${extra} "status":404}`,
      };
    });
    closers.push(() => upstream.close());
    return upstream.url;
  }

  it('says where it breaks, as the suite does, the excerpt from the body with the key it knows hidden', async () => {
    const { url, settled } = await proxyTo(await commaMissingAfterKey(), REFERENCE_KEY);
    await (await fetch(`${url}/pets/7`, { headers: KEY })).text();
    const [departure] = await settled(1);
    expect(departure).toMatchObject({
      check: 'content_type_conformance',
      operationId: 'getPet',
      status: 404,
    });
    // Word for word what petkit contract says of the same body (test/contract-wire-quirks.test.ts).
    expect(departure?.received).toBe(
      'the body is not JSON (Content-Type: application/json): it breaks at byte 52 (line 1, column 53), where , or } was due: "…\\":\\"No pet for $API_KEY\\" \\"status\\":404}"',
    );
  });

  it('never shows a piece of the key cut at the edge of the excerpt', async () => {
    // 21 characters after the key before the break: the excerpt (24 characters each side) began with
    // the key's last 3, too few to be known for a piece of it once cut out.
    const key = 'k3y-0f-the-app-xyz';
    const { url, settled } = await proxyTo(await commaMissingAfterKey(',"n":"aaaaaaaaaaaa"'), key);
    await (await fetch(`${url}/pets/7`, { headers: { authorization: `Bearer ${key}` } })).text();
    const [departure] = await settled(1);
    // The place in the body as it came; the excerpt around it in the body with $API_KEY in the key's place.
    expect(departure?.received).toBe(
      'the body is not JSON (Content-Type: application/json): it breaks at byte 81 (line 1, column 82), where , or } was due: "…KEY\\",\\"n\\":\\"aaaaaaaaaaaa\\" \\"status\\":404}"',
    );
  });
});

describe('petkit proxy, as a proxy', () => {
  it('drops hop-by-hop headers (and those Connection names), keeps end-to-end ones, and streams the body', async () => {
    let received: { headers: IncomingHttpHeaders; body: string } | undefined;
    const echo = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        received = { headers: req.headers, body };
        res.writeHead(200, {
          'content-type': 'application/json',
          'x-upstream': 'yes',
          'keep-alive': 'timeout=77',
          connection: 'x-up-hop',
          'x-up-hop': '1',
        });
        res.end('[]');
      });
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => echo.close(() => resolve())));
    const { url } = await proxyTo(`http://127.0.0.1:${(echo.address() as AddressInfo).port}/v1`);
    // fetch refuses to send Connection: node:http sends what it is given.
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = request(`${url}/pets`, {
        method: 'POST',
        headers: {
          ...KEY,
          connection: 'x-hop',
          'x-hop': '1',
          'x-trace': 'abc',
          'content-type': 'application/json',
        },
      });
      req.on('response', resolve).on('error', reject);
      req.end('{"name":"Rex","categoryId":1}');
    });
    res.resume();
    expect(res.headers['x-upstream']).toBe('yes');
    expect(res.headers['keep-alive']).not.toBe('timeout=77');
    expect(res.headers['x-up-hop']).toBeUndefined();
    expect(received?.body).toBe('{"name":"Rex","categoryId":1}');
    expect(received?.headers).toMatchObject({
      authorization: KEY.authorization,
      'x-trace': 'abc',
      via: '1.1 petkit',
    });
    expect(received?.headers['x-hop']).toBeUndefined();
  });

  it('answers 502 when the upstream does not answer', async () => {
    const gone = createServer();
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    const { port } = gone.address() as AddressInfo;
    await new Promise((resolve) => gone.close(resolve));
    const { url } = await proxyTo(`http://127.0.0.1:${port}/v1`);
    const res = await fetch(`${url}/pets`);
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({
      code: 'bad_gateway',
      message: expect.stringContaining('ECONNREFUSED'),
    });
  });
});

const MAIN = fileURLToPath(new URL('../dist/bin/petkit.js', import.meta.url));

/** The built CLI's proxy in a process of its own: `wait` polls its output for a line (fails if it exits). */
function cli(args: readonly string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [MAIN, 'proxy', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  onTestFinished(() => {
    child.kill('SIGKILL');
  });
  let out = '';
  child.stdout.on('data', (data: Buffer) => {
    out += data.toString();
  });
  child.stderr.on('data', (data: Buffer) => {
    out += data.toString();
  });
  const wait = async (pattern: RegExp): Promise<RegExpExecArray> => {
    for (;;) {
      const found = pattern.exec(out);
      if (found !== null) return found;
      if (child.exitCode !== null) throw new Error(`petkit proxy exited ${child.exitCode}: ${out}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  return { wait, output: () => out, child };
}

describe('petkit proxy, through the CLI', () => {
  it('prints each departure as it happens, with a curl line that says $API_KEY, never the key', async () => {
    const upstream = await brokenUpstream('wrapped-list');
    const { wait, output } = cli(['--upstream', upstream]);
    const [, url] = await wait(/^petkit proxy: forwarding (\S+) to (\S+), checking against openapi\.yaml$/m);
    await (await fetch(`${url}/pets?limit=2`, { headers: KEY })).text();
    await wait(/^GET \/v1\/pets\?limit=2 200 \d+ms 1 departure$/m);
    const out = output();
    expect(out).toContain(
      'departure response_schema_conformance (listPets) GET /v1/pets?limit=2 -> 200\n' +
        '  expected: the 200 body to match #/paths/~1pets/get/responses/200/content/application~1json/schema\n' +
        '  received: (body) must be array\n' +
        `  replay:   curl -i -H "Authorization: Bearer $API_KEY" '${upstream}/pets?limit=2'\n`,
    );
    expect(out).not.toContain(REFERENCE_KEY);
  });

  it('hears a signal from the moment its banner says it is ready', async () => {
    // A script may send SIGTERM as soon as it reads the banner: the proxy must stop cleanly then, not
    // die. The hook says, as the banner is written, whether a SIGTERM listener is there yet.
    const dir = mkdtempSync(join(tmpdir(), 'petkit-ready-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const hook = join(dir, 'hook.cjs');
    writeFileSync(
      hook,
      `const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  if (String(chunk).includes('petkit proxy: forwarding')) process.stderr.write('[banner: ' + process.listenerCount('SIGTERM') + ']\\n');
  return write(chunk, ...rest);
};
`,
    );
    const upstream = await brokenUpstream('wrapped-list');
    const { wait, output, child } = cli(['--upstream', upstream], { NODE_OPTIONS: `--require ${hook}` });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await wait(/\[banner: \d+\]/);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output()).toMatch(/\[banner: [1-9]\]/);
  });

  it('answers 504 after --upstream-timeout, and shows a refused key as sent once given PETKIT_API_KEY', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    closers.push(() => {
      silent.closeAllConnections();
      return new Promise((resolve) => silent.close(() => resolve()));
    });
    const quiet = cli([
      '--upstream',
      `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`,
      '--upstream-timeout',
      '100',
    ]);
    const [, quietUrl] = await quiet.wait(/^petkit proxy: forwarding (\S+)/m);
    const res = await fetch(`${quietUrl}/pets`);
    expect(res.status).toBe(504);
    expect(await res.json()).toMatchObject({ code: 'upstream_timeout' });
    await quiet.wait(/^petkit proxy: the upstream \S+ said nothing for 100 ms to GET \/v1\/pets$/m);

    const told = cli(['--upstream', await brokenUpstream('unauthorised-as-403')], {
      PETKIT_API_KEY: REFERENCE_KEY,
    });
    const [, url] = await told.wait(/^petkit proxy: forwarding (\S+)/m);
    await (await fetch(`${url}/pets`, { headers: { authorization: 'Bearer wrong-one' } })).text();
    await told.wait(/^GET \/v1\/pets 403 \d+ms \d+ departures?$/m);
    expect(told.output()).toContain(`replay:   curl -i -H 'Authorization: Bearer wrong-one'`);
    expect(told.output()).not.toContain(REFERENCE_KEY);
  });

  it('reads --upstream-timeout (default 30000) and the key from --api-key or PETKIT_API_KEY', () => {
    const upstream = ['--upstream', 'http://x/v1'];
    expect(parse(upstream)).toMatchObject({ upstreamTimeoutMs: 30_000, apiKey: undefined });
    expect(parse([...upstream, '--upstream-timeout', '250'])).toMatchObject({ upstreamTimeoutMs: 250 });
    expect(() => parse([...upstream, '--upstream-timeout', '0'])).toThrow(
      '--upstream-timeout must be an integer from 1 to 2147483647, got "0".',
    );
    expect(() => parse(['--upstream', 'https://staging.example/v1/?region=eu'])).toThrow(
      "--upstream must be the API's base URL, with no ?query or #fragment: https://staging.example/v1, for instance.",
    );
    expect(() => parse(['--upstream', 'https://staging.example/v1#'])).toThrow(/no \?query or #fragment/);
    expect(parse(upstream, { PETKIT_API_KEY: 'k1' }).apiKey).toBe('k1');
    expect(parse([...upstream, '--api-key', 'k2'], { PETKIT_API_KEY: 'k1' }).apiKey).toBe('k2');
  });

  it('says on the exchange line which body it did not check, and why', () => {
    expect(
      formatExchange({
        method: 'GET',
        target: '/v1/pets',
        status: 200,
        durationMs: 12,
        departures: 1,
        unchecked: [{ side: 'response', reason: 'larger than 1048576 bytes' }],
      }),
    ).toBe('GET /v1/pets 200 12ms 1 departure, response not checked: larger than 1048576 bytes\n');
  });

  it('refuses a missing or bad --upstream with a message of its own', async () => {
    const { spawnSync } = await import('node:child_process');
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [MAIN, 'proxy', ...args], { encoding: 'utf8' });
    expect(run().stderr).toBe(
      "petkit proxy: --upstream URL is required: the API's base URL at the backend.\nRun 'petkit proxy --help' for the options.\n",
    );
    expect(run('--upstream', 'ftp://x').stderr).toMatch(
      /^petkit proxy: --upstream must be an http or https URL, got "ftp:\/\/x"\./,
    );
    expect(run('--upstream', 'localhost:4010/v1').stderr).toBe(
      `petkit proxy: --upstream "localhost:4010/v1" has no scheme: did you mean http://localhost:4010/v1?\nRun 'petkit proxy --help' for the options.\n`,
    );
    expect(run('--upstream', 'me:s3cret@localhost:4010/v1').stderr).not.toContain('s3cret');
    expect(run('--upstream', 'http://x/v1', '--port', '-1').status).toBe(2);
    const outOfRange = run('--upstream', 'http://127.0.0.1:99999/v1');
    expect(outOfRange.stderr).toBe(
      "petkit proxy: --upstream http://127.0.0.1:99999/v1: port 99999 is out of range (1 to 65535).\nRun 'petkit proxy --help' for the options.\n",
    );
    expect(outOfRange.status).toBe(2);
    expect(() => parse(['--upstream', 'https://[::1]:0/v1'])).toThrow(
      '--upstream https://[::1]:0/v1: port 0 is out of range (1 to 65535).',
    );
    expect(() => parse(['--upstream', 'http://me:secret@staging.example:70000/v1'])).toThrow(
      /^--upstream http:\/\/staging\.example:70000\/v1: port 70000 is out of range \(1 to 65535\)\.$/,
    );
    expect(parse(['--upstream', 'http://127.0.0.1:65535/v1']).upstream).toBe('http://127.0.0.1:65535/v1');
  });

  it('refuses --upstream given twice with two URLs, where it forwarded to the last without a word', async () => {
    const { spawnSync } = await import('node:child_process');
    const twice = spawnSync(
      process.execPath,
      [
        MAIN,
        'proxy',
        '--port',
        '0',
        '--upstream',
        'http://me:s3cret@127.0.0.1:8/v1',
        '--upstream=http://127.0.0.1:9/v1',
      ],
      { encoding: 'utf8', timeout: 3_000 },
    );
    expect(twice.stderr).toBe(
      'petkit proxy: --upstream is given twice ("http://***@127.0.0.1:8/v1", then "http://127.0.0.1:9/v1"); give it once: every request goes to one backend.\n' +
        "Run 'petkit proxy --help' for the options.\n",
    );
    expect(twice.status).toBe(2);
    // The same URL twice (a script's default repeated) is no conflict.
    expect(parse(['--upstream', 'http://x/v1', '--upstream', 'http://x/v1']).upstream).toBe('http://x/v1');
  });

  it('never quotes the key it was given in a refusal of its flags', async () => {
    const { spawnSync } = await import('node:child_process');
    const KEY = 'sk_live_Abc123.x';
    const run = (env: Record<string, string>, ...args: string[]) =>
      spawnSync(process.execPath, [MAIN, 'proxy', ...args], {
        encoding: 'utf8',
        env: { ...process.env, ...env },
      });
    for (const { env, args } of [
      { env: { PETKIT_API_KEY: KEY }, args: ['--upstream', KEY] },
      {
        env: {},
        args: ['--upstream', 'http://127.0.0.1:9/v1', '--api-key', KEY, '--port', KEY.toUpperCase()],
      },
      { env: {}, args: [`--api-key=${KEY}`, '--upstream', 'http://127.0.0.1:9/v1', KEY] },
    ]) {
      const refused = run(env, ...args);
      expect(refused.status).toBe(2);
      expect(refused.stderr).toMatch(/\$API_KEY/);
      expect(refused.stderr.toLowerCase()).not.toContain('abc123');
    }
  });

  it('never quotes the credentials of an --upstream it refuses', () => {
    for (const [upstream, shown] of [
      ['ftp://me:s3cret@staging.example/v1', 'ftp://***@staging.example/v1'],
      ['http://me:s3cret@[::1/v1', 'http://***@[::1/v1'],
      ['http://me:s3c@ret@staging.example:1x/v1', 'http://***@staging.example:1x/v1'],
    ]) {
      expect(() => parse(['--upstream', upstream ?? ''])).toThrow(
        `--upstream must be an http or https URL, got "${shown}".`,
      );
    }
    // Typed without its scheme: said so, the user and password not quoted.
    expect(() => parse(['--upstream', 'me:s3cret@staging.example'])).toThrow(
      '--upstream has no scheme (http:// or https://), and must not carry a user or password',
    );
    expect(() => parse(['--upstream', 'http://me:s3cret@staging.example/v1'])).toThrow(
      '--upstream must not carry credentials; the app sends its own key.',
    );
  });
});

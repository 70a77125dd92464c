// The proxy against request targets that try to send it elsewhere (absolute-form to another host,
// `//host`, backslashes, percent-encoded slashes, dot segments) or to stop it (schemes it cannot
// speak, a port out of range), over raw sockets (fetch would normalise them), against the built CLI
// in a process of its own. A bystander server on 127.0.0.1 must never hear of any of it, and the
// proxy must answer each with its documented 400 and go on forwarding.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../hostile/raw-client.js';
import { type CliProxy, startCliProxy } from './cli-proxy.js';
import { type Recording, recording } from './servers.js';

let upstream: Recording;
let other: Recording;
/** In front of `http://127.0.0.1:UP/v1`. */
let withPath: CliProxy;
/** In front of `http://127.0.0.1:UP`, an upstream given without a path. */
let pathless: CliProxy;

beforeAll(async () => {
  upstream = await recording();
  other = await recording();
  [withPath, pathless] = await Promise.all([
    startCliProxy(['--upstream', `${upstream.origin}/v1`]),
    startCliProxy(['--upstream', upstream.origin]),
  ]);
}, 20_000);

afterAll(async () => {
  withPath?.stop();
  pathless?.stop();
  await upstream?.close();
  await other?.close();
});

function get(proxy: CliProxy, target: string, headers: Record<string, string> = {}) {
  const lines = [
    `GET ${target} HTTP/1.1`,
    `host: ${new URL(proxy.origin).host}`,
    'authorization: Bearer sk_live_the_apps_own_key',
    'connection: close',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return rawRequest(proxy.origin, `${lines.join('\r\n')}\r\n\r\n`);
}

/** Targets that name another server, each a way a naive proxy would be sent there. */
const elsewhere = (port: number): readonly string[] => [
  `http://127.0.0.1:${port}/steal`,
  `HTTP://127.0.0.1:${port}/v1/pets`,
  `http://127.0.0.1:${port}/v1/pets?limit=1`,
  `http://user:pass@127.0.0.1:${port}/v1/pets`,
  `http://127.0.0.1:${upstream.port}@127.0.0.1:${port}/v1/pets`,
  `//127.0.0.1:${port}/steal`,
  `/\\127.0.0.1:${port}/steal`,
  `/\\/127.0.0.1:${port}/steal`,
  `/v1//127.0.0.1:${port}/v1/pets`,
  `/v1/\\127.0.0.1:${port}/v1/pets`,
  `/v1/\\\\127.0.0.1:${port}/v1/pets`,
  `/%2F%2F127.0.0.1:${port}/steal`,
  `/%2f/127.0.0.1:${port}/steal`,
  `/%5C127.0.0.1:${port}/steal`,
  `/v1/%2F%2F127.0.0.1:${port}/v1/pets`,
  `/v1/%5c%5c127.0.0.1:${port}/v1/pets`,
  `/v1/../..//127.0.0.1:${port}/steal`,
  `/v1/%2e%2e/%2E%2E//127.0.0.1:${port}/steal`,
  `/v1/pets/..`,
  `/v1/./pets`,
  '*',
];

/** Targets that stopped the process (Node refuses the URL or its scheme when asked to send it). */
const stoppers = (port: number): readonly string[] => [
  `https://127.0.0.1:${port}/v1/pets`,
  'file:///etc/passwd',
  'http://127.0.0.1:99999/',
  `ftp://127.0.0.1:${port}/`,
  'http://[::1/',
  'http://%zz/',
];

describe('petkit proxy goes only to its upstream', () => {
  it('refuses every target that names or reaches another server with 400 invalid_target, and never forwards it', async () => {
    for (const proxy of [withPath, pathless]) {
      for (const target of elsewhere(other.port)) {
        const answer = await get(proxy, target);
        expect({ target, status: answer.status }).toEqual({ target, status: 400 });
        expect(answer.headers['content-type']).toBe('application/json');
        expect(JSON.parse(answer.body)).toMatchObject({ code: 'invalid_target', status: 400 });
      }
    }
    expect(other.connections()).toBe(0);
    expect(other.requests).toEqual([]);
    expect(upstream.requests).toEqual([]);
  });

  it('answers a target it cannot send with 400 and goes on forwarding: no request stops it', async () => {
    for (const proxy of [withPath, pathless]) {
      for (const target of stoppers(other.port)) {
        const answer = await get(proxy, target);
        expect({ target, status: answer.status }).toEqual({ target, status: 400 });
        expect(JSON.parse(answer.body)).toMatchObject({ code: 'invalid_target' });
      }
      expect(proxy.exitCode()).toBeNull();
      expect((await get(proxy, '/v1/pets?limit=1')).status).toBe(200);
    }
    expect(other.connections()).toBe(0);
  });

  it('answers what Node’s parser refuses, and CONNECT, with a JSON Error, and goes on forwarding', async () => {
    const host = new URL(withPath.origin).host;
    const junk = await rawRequest(withPath.origin, 'GET /v1/pets HTTP/1.1\r\nhost: x\r\nbad header\r\n\r\n');
    expect(junk.status).toBe(400);
    expect(JSON.parse(junk.body)).toMatchObject({ code: 'invalid_request', status: 400 });
    const tunnel = await rawRequest(
      withPath.origin,
      `CONNECT 127.0.0.1:${other.port} HTTP/1.1\r\nhost: ${host}\r\n\r\n`,
    );
    expect(tunnel.status).toBe(405);
    expect(JSON.parse(tunnel.body)).toMatchObject({ code: 'method_not_allowed' });
    expect((await get(withPath, '/v1/pets')).status).toBe(200);
    expect(other.connections()).toBe(0);
  });

  it('forwards the upstream’s own absolute-form and a foreign Host to the upstream, under its path', async () => {
    upstream.requests.length = 0;
    expect((await get(withPath, `${upstream.origin}/v1/pets?limit=1`)).status).toBe(200);
    expect((await get(withPath, '/v1/pets', { host: `127.0.0.1:${other.port}` })).status).toBe(200);
    expect((await get(pathless, '/v1/pets/7')).status).toBe(200);
    expect(upstream.requests.map((r) => r.url)).toEqual(['/v1/pets?limit=1', '/v1/pets', '/pets/7']);
    expect(upstream.requests[1]?.headers.host).toBe(`127.0.0.1:${upstream.port}`);
    expect(other.connections()).toBe(0);
  });

  it('whatever the target, a request reaches the upstream or is refused, and nothing else hears of it', async () => {
    const pieces = fc.constantFrom(
      '/',
      '//',
      '\\',
      '.',
      '..',
      '%2F',
      '%2f',
      '%5C',
      '%2e',
      '%2E%2e',
      '%00',
      '@',
      ':',
      '?',
      '#',
      'v1',
      'pets',
      'pets/',
      '1',
      '127.0.0.1',
      `127.0.0.1:${other.port}`,
      'http:',
      'https:',
      'file:',
      '%',
    );
    const start = fc.constantFrom('/', '/v1/', '/v1/pets/', `${upstream.origin}/v1/`, `${other.origin}/`, '');
    const target = fc
      .tuple(start, fc.array(pieces, { minLength: 1, maxLength: 6 }))
      .map(([head, parts]) => `${head}${parts.join('')}`);
    let refused = 0;
    let forwarded = 0;
    await fc.assert(
      fc.asyncProperty(target, fc.constantFrom(0, 1), async (sent, which) => {
        const proxy = which === 0 ? withPath : pathless;
        const before = upstream.requests.length;
        const answer = await get(proxy, sent);
        if (answer.status === 400) {
          refused += 1;
          expect(upstream.requests.length).toBe(before);
        } else {
          forwarded += 1;
          expect(answer.status).toBe(200);
          const url = upstream.requests.at(-1)?.url ?? '';
          const path = url.split('?')[0] ?? '';
          expect(url).not.toContain('\\');
          expect(path).toMatch(/^\/(?!\/)/);
          expect(path).not.toMatch(/\/\/|%2f|%5c|(^|\/)(\.|%2e){1,2}(\/|$)/i);
        }
      }),
      { numRuns: 150, seed: 19 },
    );
    // Both outcomes are exercised, or the property proves little.
    expect(Math.min(refused, forwarded)).toBeGreaterThan(20);
    expect(other.connections()).toBe(0);
    for (const proxy of [withPath, pathless]) expect(proxy.exitCode()).toBeNull();
  });
});

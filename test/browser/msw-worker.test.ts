// petkit/msw under setupWorker in a real browser: Chromium (./chromium.ts), driven by playwright-core, loads
// a page from a node:http server on 127.0.0.1 and fetches through MSW's own mockServiceWorker.js. The
// page's script is docs/msw.md's `setupWorker` snippet as it stands, bundled by rolldown, then a flag
// the test waits for.
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { build } from 'rolldown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock, startServer } from '../../mocks/index.js';
import { checkedRequest, conformanceProblems, withKey } from '../../mocks/test-helpers.js';
import { readBlocks } from '../docs/blocks.js';
import { launchChromium } from './chromium.js';
import { type StaticServer, serveStatic } from './static-server.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PAGE =
  '<!doctype html><meta charset="utf-8"><title>petkit</title><script type="module" src="/app.js"></script>';

interface Seen {
  status: number;
  headers: Record<string, string>;
  text: string;
}

let dir: string;
let server: StaticServer;
let origin: string;
let browser: Browser;
let page: Page;

/** fetch in the page; what the page's script can read of the answer. */
function pageFetch(url: string, headers: Record<string, string> = {}): Promise<Seen> {
  return page.evaluate(
    async ([url, headers]) => {
      const res = await fetch(url, { headers });
      return { status: res.status, headers: Object.fromEntries(res.headers), text: await res.text() };
    },
    [url, headers] as const,
  );
}

function expectConforms(method: string, path: string, seen: Seen): void {
  expect(conformanceProblems(method, path, seen.status, new Headers(seen.headers), seen.text)).toEqual([]);
}

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist/mocks/msw.js'))) {
    throw new Error('The page imports petkit/msw from dist/: run `npm run build` first (npm test does).');
  }
  dir = await mkdtemp(join(tmpdir(), 'petkit-browser-'));
  const snippet = readBlocks(ROOT, 'docs/msw.md').find((block) => block.attrs.get('file') === 'main.ts');
  if (snippet === undefined) throw new Error('docs/msw.md has no file=main.ts block');
  const modules: Record<string, { code: string; moduleType: 'ts' | 'js' }> = {
    // The snippet's top-level await finishes before the module that imports it goes on.
    'virtual:page': {
      code: "import 'virtual:snippet';\nglobalThis.petkitWorkerStarted = true;\n",
      moduleType: 'js',
    },
    'virtual:snippet': { code: snippet.text, moduleType: 'ts' },
  };
  await build({
    input: 'virtual:page',
    cwd: ROOT,
    platform: 'browser',
    logLevel: 'warn',
    plugins: [
      {
        name: 'docs-snippet',
        resolveId: (id) => (id in modules ? id : null),
        load: (id) => modules[id] ?? null,
      },
    ],
    output: { file: join(dir, 'app.js'), format: 'esm' },
  });
  await copyFile(join(ROOT, 'node_modules/msw/lib/mockServiceWorker.js'), join(dir, 'mockServiceWorker.js'));
  const js = 'text/javascript';
  server = await serveStatic({
    '/': { type: 'text/html', body: PAGE },
    '/plain': { type: 'text/html', body: '<!doctype html><title>no worker</title>' },
    '/app.js': { type: js, body: await readFile(join(dir, 'app.js')) },
    '/mockServiceWorker.js': { type: js, body: await readFile(join(dir, 'mockServiceWorker.js')) },
  });
  origin = server.origin;
  ({ browser } = await launchChromium());
  page = await browser.newPage();
  await page.goto(`${origin}/`);
  await page.waitForFunction(
    () => (globalThis as { petkitWorkerStarted?: boolean }).petkitWorkerStarted,
    null,
    {
      timeout: 10_000,
    },
  );
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('petkit/msw with setupWorker in Chromium', () => {
  it('answers the page with the same pets and rate-limit headers as createMock({ seed: 42 })', async () => {
    const seen = await pageFetch('/v1/pets?limit=3', { Authorization: 'Bearer demo-free' });
    const expected = await checkedRequest(createMock({ seed: 42 }), '/v1/pets?limit=3', withKey('demo-free'));
    expectConforms('GET', '/v1/pets?limit=3', seen);
    expect(seen.status).toBe(200);
    expect(seen.text).toBe(expected.text);
    expect(JSON.parse(seen.text)).toHaveLength(3);
    // Both mocks are fresh: the same window, one request counted in each.
    expect(seen.headers['x-ratelimit-limit']).toBe(expected.headers.get('x-ratelimit-limit'));
    expect(seen.headers['x-ratelimit-remaining']).toBe(expected.headers.get('x-ratelimit-remaining'));
    // The window's end: equal unless the two requests straddle a minute boundary.
    const reset = Number(seen.headers['x-ratelimit-reset']);
    expect(Math.abs(reset - Number(expected.headers.get('x-ratelimit-reset')))).toBeLessThanOrEqual(60);
  });

  it('answers 401 with an Error body to a request without a key', async () => {
    const seen = await pageFetch('/v1/pets?limit=3');
    expectConforms('GET', '/v1/pets?limit=3', seen);
    expect(seen.status).toBe(401);
    expect(JSON.parse(seen.text)).toMatchObject({ status: 401, code: 'missing_api_key' });
    expect(seen.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it('answers the bare base path, /v1 and /__petkit without the last /, as the mock does', async () => {
    // They went past the worker to the page's own server, whatever it answers there.
    for (const path of ['/v1', '/__petkit']) {
      const seen = await pageFetch(path, { Authorization: 'Bearer demo-free' });
      const expected = await createMock({ seed: 42 }).request(path, withKey('demo-free'));
      expect(seen.status, path).toBe(404);
      expect(JSON.parse(seen.text), path).toEqual(await expected.json());
    }
  });

  it('lets a cross-origin call through the worker read the rate-limit headers', async () => {
    // localhost is another origin than 127.0.0.1, and the handlers answer `*/v1` on any origin.
    const cross = `http://localhost:${new URL(origin).port}/v1/pets?limit=3`;
    const seen = await pageFetch(cross, { Authorization: 'Bearer demo-free' });
    expect(seen.status).toBe(200);
    expect(JSON.parse(seen.text)).toHaveLength(3);
    for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
      expect(seen.headers[name], name).toMatch(/^\d+$/);
  });

  it('exposes the rate-limit headers through CORS from the node server (no worker)', async () => {
    // Chromium does not CORS-filter a response the worker made, so the real filter is checked here:
    // a page on another origin without the worker, a preflighted call to startServer.
    const api = await startServer({ port: 0, host: '127.0.0.1', seed: 42 });
    const plain = await browser.newPage();
    try {
      await plain.goto(`http://localhost:${new URL(origin).port}/plain`);
      const seen = await plain.evaluate(async (url) => {
        const res = await fetch(url, { headers: { Authorization: 'Bearer demo-free' } });
        return { status: res.status, headers: Object.fromEntries(res.headers), text: await res.text() };
      }, `${api.url}/pets?limit=3`);
      expect(seen.status).toBe(200);
      for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
        expect(seen.headers[name], name).toMatch(/^\d+$/);
      // Not exposed, so filtered out: the page did see a CORS-filtered response.
      expect(seen.headers['access-control-allow-origin']).toBeUndefined();
      // The browser asked first (Authorization is not CORS-safelisted), then sent the call.
      expect(api.mock.journal.map((entry) => entry.method)).toEqual(['OPTIONS', 'GET']);
    } finally {
      await plain.close();
      await api.close();
    }
  });
});

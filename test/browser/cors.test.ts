// CORS in Chromium: a page on one origin calls `petkit mock` (startServer) on another with the
// headers real frontends add. The browser preflights, and the real CORS filter decides what the page
// may read.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../mocks/index.js';
import { launchChromium } from './chromium.js';
import { type StaticServer, serveStatic } from './static-server.js';

const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

let site: StaticServer;
let api: RunningServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  site = await serveStatic({ '/': { type: 'text/html', body: '<!doctype html><title>app</title>' } });
  api = await startServer({ port: 0, host: '127.0.0.1', seed: 42 });
  ({ browser } = await launchChromium());
  page = await browser.newPage();
  // localhost:SITE is another origin than 127.0.0.1:API: every call below is cross-origin.
  await page.goto(`http://localhost:${site.port}/`);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await api?.close();
  await site?.close();
});

interface Seen {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

function call(url: string, init: { method?: string; headers: Record<string, string>; body?: string }) {
  return page.evaluate(
    async ([url, init]) => {
      const res = await fetch(url, init);
      return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.json() };
    },
    [url, init] as const,
  ) as Promise<Seen>;
}

describe('CORS in Chromium, across origins', () => {
  it('passes the preflight of a call that carries traceparent, sentry-trace and x-request-id', async () => {
    api.mock.reset();
    const seen = await call(`${api.url}/pets?limit=2`, {
      headers: {
        Authorization: 'Bearer demo-free',
        traceparent: TRACEPARENT,
        'sentry-trace': '0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-1',
        'x-request-id': 'req-1',
      },
    });
    expect(seen.status).toBe(200);
    expect(seen.body).toHaveLength(2);
    expect(seen.headers['x-ratelimit-remaining']).toBe('59');
    expect(api.mock.journal.map((entry) => entry.method)).toEqual(['OPTIONS', 'GET']);
  });

  it('lets the page create a pet with a tracing header and read its Location', async () => {
    const seen = await call(`${api.url}/pets`, {
      method: 'POST',
      headers: {
        Authorization: 'Bearer demo-free',
        'Content-Type': 'application/json',
        traceparent: TRACEPARENT,
      },
      body: JSON.stringify({ name: 'Biscuit', categoryId: 3 }),
    });
    expect(seen.status).toBe(201);
    expect(seen.headers.location).toMatch(/^\/v1\/pets\/\d+$/);
  });

  it('shows the page only the exposed headers', async () => {
    const seen = await call(`${api.url}/pets?limit=1`, {
      headers: { Authorization: 'Bearer demo-free', traceparent: TRACEPARENT },
    });
    // content-length and content-type are CORS-safelisted; the rest are the rate-limit headers exposed.
    expect(Object.keys(seen.headers).sort()).toEqual([
      'content-length',
      'content-type',
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-reset',
    ]);
  });
});

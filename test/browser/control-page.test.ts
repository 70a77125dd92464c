// The page (`GET /__petkit/`) in Chromium, driven as a frontend developer would: a rule armed from
// the page breaks a small app's request (served from another origin), which shows up in the live
// journal with its rule and fault; the clock jumped from the page brings a spent window back; a
// journaled path made of HTML stays text. The mock's clock is fixed 30 s into a minute, so no window
// ends mid-test. A screenshot goes to test-artifacts/; `npm run docs` also writes docs/control-page.png.
import { copyFile, mkdir } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../mocks/index.js';
import { launchChromium } from './chromium.js';
import { type StaticServer, serveStatic } from './static-server.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ARTIFACTS = join(ROOT, 'test-artifacts');
/** 30 s into a minute: the minute window ends 30 s after. */
const NOW = Date.UTC(2030, 0, 1, 12, 0, 30);

/** A tiny app on another origin: one button that lists pets from the mock, and what came of it. */
function appPage(apiUrl: string): string {
  return `<!doctype html><meta charset="utf-8"><title>app</title>
<button id="load">Load pets</button> <output id="result"></output>
<script>
document.getElementById('load').addEventListener('click', async () => {
  const out = document.getElementById('result');
  out.textContent = '…';
  try {
    const res = await fetch(${JSON.stringify(`${apiUrl}/pets?limit=3`)}, { headers: { Authorization: 'Bearer demo-pro' } });
    out.textContent = 'status ' + res.status;
  } catch (error) {
    out.textContent = error instanceof TypeError ? 'network error' : String(error);
  }
});
</script>`;
}

let api: RunningServer;
let app: StaticServer;
let browser: Browser;
let page: Page;
const problems: string[] = [];
const requested: string[] = [];

/** The journal's rows as the page shows them: [id, time, method, path, status, code, rule, fault, key]. */
const journalRows = () =>
  page.$$eval('#journal-rows tr', (rows) =>
    rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')),
  );

/** The app, in a tab of its own: its button pressed, until it says the request failed. */
async function loadInApp(): Promise<void> {
  const appTab = await browser.newPage();
  try {
    await appTab.goto(`${app.origin}/`);
    await appTab.click('#load');
    await appTab.waitForFunction(() => document.querySelector('#result')?.textContent === 'network error');
  } finally {
    await appTab.close();
  }
}

const minuteOf = (key: string) =>
  page.textContent(`#window-rows tr[data-key="${key}"] td.minute`).then((text) => text ?? '');

beforeAll(async () => {
  api = await startServer({ port: 0, host: '127.0.0.1', seed: 42, clock: () => NOW });
  app = await serveStatic({ '/': { type: 'text/html', body: appPage(api.url) } });
  ({ browser } = await launchChromium());
  page = await browser.newPage({ viewport: { width: 1280, height: 760 } });
  page.on('pageerror', (error) => problems.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('request', (sent) => requested.push(sent.url()));
  await page.clock.setFixedTime(NOW);
  await page.goto(`${api.origin}/__petkit/`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
  await page.waitForFunction(() => document.querySelector('#live')?.textContent === 'live');
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await api?.close();
});

describe('the control page in Chromium', () => {
  it('arms a rule from the page; the app’s request fails with it, live in the journal', async () => {
    await page.selectOption('#arm-operation', 'listPets');
    await page.selectOption('#arm-respond', 'fault:reset');
    await page.click('#arm button[type="submit"]');
    await page.waitForFunction(() => document.querySelector('#message')?.textContent === 'Armed r1');
    await page.waitForSelector('#rule-rows tr[data-rule="r1"]');

    await loadInApp();

    // Chromium sends a GET again once when its reused connection is reset: each try is journaled.
    const faulted = api.mock.journal.filter((entry) => entry.fault === 'reset');
    expect(faulted.length).toBeGreaterThanOrEqual(1);
    await page.waitForFunction(
      (count) =>
        [...document.querySelectorAll('#journal-rows tr')].filter(
          (row) => row.children[6]?.textContent === 'r1' && row.children[7]?.textContent === 'reset',
        ).length === count,
      faulted.length,
    );
    const rows = (await journalRows()).filter((cells) => cells[6] === 'r1');
    expect(rows).toEqual(
      faulted
        .reverse()
        .map((entry) => [
          String(entry.id),
          '12:00:30',
          'GET',
          '/v1/pets?limit=3',
          '-',
          '',
          'r1',
          'reset',
          'demo-pro',
        ]),
    );
    await page.waitForFunction(
      (count) =>
        document.querySelector('#rule-rows tr[data-rule="r1"] td:nth-child(4)')?.textContent ===
        `${count} / ${count}`,
      faulted.length,
    );
  });

  it('switches the rule off, shows a spent window, and brings it back with "Next window"', async () => {
    await page.click('#rule-rows tr[data-rule="r1"] input[type="checkbox"]');
    await page.waitForFunction(() => document.querySelector('#message')?.textContent === 'r1 off');
    for (let i = 0; i < 60; i += 1) {
      const res = await fetch(`${api.url}/pets?limit=1`, { headers: { authorization: 'Bearer demo-free' } });
      expect(res.status).toBe(200);
    }
    await expect.poll(() => minuteOf('demo-free'), { timeout: 5_000 }).toBe('0 / 60');

    await page.click('#clock-next-window');
    await expect.poll(() => minuteOf('demo-free'), { timeout: 5_000 }).toBe('60 / 60');
    expect(await page.textContent('#clock-now')).toBe('2030-01-01 12:01:00 UTC');
    const after = await fetch(`${api.url}/pets?limit=1`, { headers: { authorization: 'Bearer demo-free' } });
    expect(after.headers.get('x-ratelimit-remaining')).toBe('59');

    // The rule on again, and the app fails with it at the new time: the picture the README shows.
    await page.click('#rule-rows tr[data-rule="r1"] input[type="checkbox"]');
    await page.waitForFunction(() => document.querySelector('#message')?.textContent === 'r1 on');
    await loadInApp();
    await page.waitForFunction(
      () => document.querySelector('#journal-rows tr:first-child td:nth-child(8)')?.textContent === 'reset',
    );
    expect(await page.textContent('#journal-rows tr:first-child td:nth-child(2)')).toBe('12:01:00');
    const fired = api.mock.journal.filter((entry) => entry.rule === 'r1').length;
    await page.waitForFunction(
      (count) =>
        document.querySelector('#rule-rows tr[data-rule="r1"] td:nth-child(4)')?.textContent ===
        `${count} / ${count}`,
      fired,
    );
    // The app's requests count in demo-pro's window too: a rule answers after the limit step.
    const counted = api.mock.journal.filter(
      (entry) => entry.key?.name === 'demo-pro' && entry.method === 'GET' && entry.time >= NOW + 30_000,
    ).length;
    await expect.poll(() => minuteOf('demo-pro'), { timeout: 5_000 }).toBe(`${300 - counted} / 300`);
    expect(await minuteOf('demo-free')).toBe('59 / 60');
    await mkdir(ARTIFACTS, { recursive: true });
    const shot = join(ARTIFACTS, 'control-page.png');
    await page.screenshot({ path: shot });
    if (process.env.PETKIT_WRITE_DOCS === '1') await copyFile(shot, join(ROOT, 'docs/control-page.png'));
  });

  it('shows a journaled path made of HTML as text: no element is created, no script runs', async () => {
    const path = '/v1/<img/src=x/onerror=globalThis.pwned=1>';
    await new Promise<void>((resolve, reject) => {
      const { hostname, port } = new URL(api.origin);
      const sent = request({ host: hostname, port, path }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      sent.on('error', reject);
      sent.end();
    });
    const id = String(api.mock.journal.at(-1)?.id);
    await page.waitForSelector(`#journal-rows tr[data-id="${id}"]`);
    expect(await page.$$eval('#journal-rows img, #journal-rows script', (found) => found.length)).toBe(0);
    expect(await page.textContent(`#journal-rows tr[data-id="${id}"] td.path`)).toBe(path);
    expect(await page.evaluate(() => (globalThis as { pwned?: unknown }).pwned)).toBeUndefined();
  });

  it('made every request to the mock’s own origin, with no error in the page', () => {
    expect(requested.length).toBeGreaterThan(0);
    expect(requested.filter((url) => new URL(url).origin !== api.origin)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('goes on with a mock started again on its port: the new run’s entries, numbered from 1, replace the old', async () => {
    for (const id of [1, 2])
      await fetch(`${api.url}/pets/${id}`, { headers: { authorization: 'Bearer demo-pro' } });
    const shown = String(api.mock.journal.at(-1)?.id);
    await page.waitForSelector(`#journal-rows tr[data-id="${shown}"]`);
    expect(Number(shown)).toBeGreaterThan(1);
    const { port } = new URL(api.origin);
    await api.close();
    api = await startServer({ port: Number(port), host: '127.0.0.1', seed: 42, clock: () => NOW });
    // On a connection of its own: the client's kept-alive one went with the mock closed.
    await new Promise<void>((resolve, reject) => {
      const headers = { authorization: 'Bearer demo-pro' };
      const sent = request({ host: '127.0.0.1', port, path: '/v1/pets/7', headers, agent: false }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      sent.on('error', reject);
      sent.end();
    });
    await page.waitForFunction(
      () =>
        document.querySelector('#journal-rows tr:first-child td:nth-child(4)')?.textContent === '/v1/pets/7',
      undefined,
      { timeout: 10_000 },
    );
    expect((await journalRows()).map((cells) => [cells[0], cells[3], cells[4]])).toEqual([
      ['1', '/v1/pets/7', '200'],
    ]);
  });
});

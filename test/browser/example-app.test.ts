// examples/browser in Chromium, in both of its modes: built by Vite with its one mode line switched
// (and, in 'server' mode, its server URL pointed at a mock on a free port), served from 127.0.0.1.
// The worker script comes from `msw init`, as the example's README says. Screenshots go to
// test-artifacts/ (git-ignored); `npm run docs` also writes the README's picture.
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { build, createServer, type Plugin } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../mocks/index.js';
import { launchChromium } from './chromium.js';
import { type StaticFile, type StaticServer, serveStatic } from './static-server.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const EXAMPLE = join(ROOT, 'examples/browser');
const ARTIFACTS = join(ROOT, 'test-artifacts');
const MODE_LINE = "const MODE: 'msw' | 'server' = 'msw';";
const URL_LINE = "const SERVER_URL = 'http://127.0.0.1:4010/v1';";
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

type Mode = 'msw' | 'server';

/** 30 s into a minute, for both mocks (the server's clock, the page's Date): no window ends mid-test. */
const NOW = Date.UTC(2030, 0, 1, 12, 0, 30);

/** The example's one mode line switched, and its server URL the test's mock. */
function switchMode(mode: Mode, serverUrl: string): Plugin {
  return {
    name: 'switch-mode',
    enforce: 'pre',
    transform(code, id) {
      if (!id.endsWith('/src/main.ts')) return null;
      if (code.split(MODE_LINE).length !== 2 || code.split(URL_LINE).length !== 2) {
        throw new Error(
          `examples/browser/src/main.ts must hold exactly one \`${MODE_LINE}\` and \`${URL_LINE}\``,
        );
      }
      return code
        .replace(MODE_LINE, MODE_LINE.replace("= 'msw'", `= '${mode}'`))
        .replace(URL_LINE, `const SERVER_URL = '${serverUrl}';`);
    },
  };
}

async function filesOf(dir: string): Promise<Record<string, StaticFile>> {
  const files: Record<string, StaticFile> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files[`/${relative(dir, path)}`] = {
      type: TYPES[extname(path)] ?? 'application/octet-stream',
      body: await readFile(path),
    };
  }
  const index = files['/index.html'];
  if (index !== undefined) files['/'] = index;
  return files;
}

let work: string;
let api: RunningServer;
let browser: Browser;
const sites = new Map<Mode, StaticServer>();

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'petkit-example-'));
  const publicDir = join(work, 'public');
  await run(process.execPath, [join(ROOT, 'node_modules/msw/cli/index.js'), 'init', publicDir, '--no-save']);
  api = await startServer({ port: 0, host: '127.0.0.1', seed: 42, clock: () => NOW });
  for (const mode of ['msw', 'server'] as const) {
    const outDir = join(work, mode);
    await build({
      root: EXAMPLE,
      publicDir,
      logLevel: 'warn',
      plugins: [switchMode(mode, api.url)],
      build: { outDir, emptyOutDir: true },
    });
    sites.set(mode, await serveStatic(await filesOf(outDir)));
  }
  ({ browser } = await launchChromium());
}, 120_000);

afterAll(async () => {
  await browser?.close();
  for (const site of sites.values()) await site.close();
  await api?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const rows = (page: Page) =>
  page.$$eval('#pets tr', (trs) =>
    trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
  );

describe.each(['msw', 'server'] as const)('examples/browser in %s mode', (mode) => {
  let page: Page;

  beforeAll(async () => {
    api.mock.reset();
    page = await browser.newPage({ viewport: { width: 800, height: 700 } });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(String(error)));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('response', (response) => {
      if (response.status() === 404) problems.push(`404 ${response.url()}`);
    });
    await page.clock.setFixedTime(NOW);
    await page.goto(`${sites.get(mode)?.origin}/`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 15_000 }).catch((error: unknown) => {
      throw new Error(`the app did not start: ${problems.join('\n') || String(error)}`);
    });
  }, 30_000);

  afterAll(async () => {
    await page?.close();
  });

  it('lists the seeded pets, and says which mode it runs in', async () => {
    const listed = await rows(page);
    expect(listed).toHaveLength(50);
    expect(listed[0]).toEqual(['1', 'Ginger', '8', 'pending']);
    expect(await page.textContent('#mode')).toBe(
      mode === 'msw' ? 'mode: MSW worker in the page' : `mode: petkit mock at ${api.url}`,
    );
  });

  it('filters by status', async () => {
    await page.selectOption('#status', 'available');
    await page.waitForFunction(() =>
      [...document.querySelectorAll('#pets tr td:nth-child(4)')].every(
        (td) => td.textContent === 'available',
      ),
    );
    const listed = await rows(page);
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.length).toBeLessThan(50);
  });

  it('creates a pet, which shows up in the list', async () => {
    await page.fill('input[name="name"]', 'Biscuit');
    await page.fill('input[name="categoryId"]', '3');
    await page.selectOption('select[name="status"]', 'available');
    await page.click('#create button[type="submit"]');
    await page.waitForSelector('#message.ok');
    expect(await page.textContent('#message')).toBe('Created #51 Biscuit (/v1/pets/51).');
    await page.waitForFunction(
      () => document.querySelector('#pets tr:last-child td:nth-child(2)')?.textContent === 'Biscuit',
    );
    expect((await rows(page)).at(-1)).toEqual(['51', 'Biscuit', '3', 'available']);
  });

  it('shows X-RateLimit-Remaining as it goes down', async () => {
    const remaining = async () =>
      /^(\d+) of 60 requests left this minute$/.exec((await page.textContent('#remaining')) ?? '')?.[1];
    const before = Number(await remaining());
    await page.selectOption('#status', '');
    await page.waitForFunction(
      (text) => document.querySelector('#remaining')?.textContent !== text,
      `${before} of 60 requests left this minute`,
    );
    expect(Number(await remaining())).toBe(before - 1);
  });

  it('explains a 429 with the Retry-After it read', async () => {
    await page.click('#too-many');
    await page.waitForSelector('#message.error');
    const message = (await page.textContent('#message')) ?? '';
    // The forced 429 reports the minute window: it ends 30 s after NOW.
    expect(message).toBe('Too many requests: try again in 30 s (Retry-After: 30).');
    await mkdir(ARTIFACTS, { recursive: true });
    const shot = join(ARTIFACTS, `browser-example-${mode}.png`);
    await page.screenshot({ path: shot });
    if (mode === 'server' && process.env.PETKIT_WRITE_DOCS === '1') {
      await copyFile(shot, join(ROOT, 'docs/browser-example.png'));
    }
  });

  if (mode === 'server') {
    it('reached the mock across origins, preflighted (the app sends Authorization and x-request-id)', () => {
      const methods = api.mock.journal.map((entry) => `${entry.method} ${entry.path}`);
      expect(methods).toContain('OPTIONS /v1/pets');
      expect(methods).toContain('POST /v1/pets');
      expect(methods.filter((line) => line.startsWith('GET /v1/pets')).length).toBeGreaterThanOrEqual(4);
    });
  }
});

describe('examples/browser under the Vite dev server (npm run example:browser)', () => {
  it('starts in MSW mode and lists the pets', async () => {
    const dev = await createServer({
      root: EXAMPLE,
      publicDir: join(work, 'public'),
      cacheDir: join(work, 'vite-cache'),
      logLevel: 'warn',
      server: { port: 0, host: '127.0.0.1', strictPort: true },
    });
    await dev.listen();
    const page = await browser.newPage();
    try {
      await page.clock.setFixedTime(NOW);
      const url = dev.resolvedUrls?.local[0];
      if (url === undefined) throw new Error('the Vite dev server reported no local URL');
      await page.goto(url);
      await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
      expect(await rows(page)).toHaveLength(50);
      expect(await page.textContent('#mode')).toBe('mode: MSW worker in the page');
    } finally {
      await page.close();
      await dev.close();
    }
  }, 60_000);
});

describe('examples/browser as source', () => {
  it('type-checks against petkit’s types (strict, DOM)', async () => {
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const result = await run(process.execPath, [tsc, '-p', join(EXAMPLE, 'tsconfig.json')]).catch(
      (error: { stdout: string }) => ({ stdout: error.stdout }),
    );
    expect(result.stdout).toBe('');
  }, 60_000);
});

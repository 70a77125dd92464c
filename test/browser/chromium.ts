// The one way every browser test gets a Chromium: PETKIT_CHROMIUM when set, Debian's /usr/bin/chromium
// when present, otherwise the build that @sparticuz/chromium ships inside its npm package (so
// `npm ci && npm test` needs nothing installed by hand). Driven by playwright-core.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';

export const SYSTEM_CHROMIUM = '/usr/bin/chromium';

export type ChromiumChoice =
  | { readonly source: 'PETKIT_CHROMIUM' | 'system'; readonly path: string }
  | { readonly source: 'npm' };

export interface ChooseOptions {
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly exists?: (path: string) => boolean;
}

/** Which Chromium to launch; throws when PETKIT_CHROMIUM names a file that is not there. */
export function chooseChromium({
  env = process.env,
  exists = existsSync,
}: ChooseOptions = {}): ChromiumChoice {
  const wanted = env.PETKIT_CHROMIUM;
  if (wanted !== undefined && wanted !== '') {
    if (!exists(wanted)) throw new Error(`PETKIT_CHROMIUM is ${wanted}, and no file is there.`);
    return { source: 'PETKIT_CHROMIUM', path: wanted };
  }
  if (exists(SYSTEM_CHROMIUM)) return { source: 'system', path: SYSTEM_CHROMIUM };
  return { source: 'npm' };
}

/**
 * The flags that work for both builds under playwright (the npm package's own `args` include
 * --single-process and others that playwright's launch does not survive).
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--no-zygote',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

interface NpmChromium {
  readonly path: string;
  readonly fontconfig: string;
}

/**
 * Decompresses the npm build once per version into its own folder under the temp directory.
 * @sparticuz/chromium inflates into `tmpdir()` itself, and two processes inflating into the same
 * place at once (vitest runs test files in parallel) could launch a half-written binary: each
 * inflates into a private staging folder and renames it into place, and the first rename wins.
 */
async function npmChromium(): Promise<NpmChromium> {
  const entry = fileURLToPath(import.meta.resolve('@sparticuz/chromium'));
  const pkg = JSON.parse(await readFile(join(dirname(entry), '../../package.json'), 'utf8')) as {
    version: string;
  };
  const home = join(tmpdir(), `petkit-chromium-${pkg.version}`);
  const ready = { path: join(home, 'chromium'), fontconfig: join(home, 'fonts') };
  if (existsSync(join(home, 'complete'))) return ready;

  const staging = await mkdtemp(join(tmpdir(), 'petkit-chromium-staging-'));
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = staging; // where executablePath() inflates to
  try {
    const { default: sparticuz } = await import('@sparticuz/chromium');
    await sparticuz.executablePath();
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw new Error(`Could not inflate the Chromium of @sparticuz/chromium into ${staging}.`, {
      cause: error,
    });
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
  // Its fonts.conf names /tmp/fonts; this one names the fonts where they end up.
  await writeFile(
    join(staging, 'fonts', 'fonts.conf'),
    `<?xml version="1.0"?>\n<fontconfig>\n  <dir>${ready.fontconfig}</dir>\n  <cachedir>${join(home, 'fonts-cache')}</cachedir>\n</fontconfig>\n`,
  );
  await writeFile(join(staging, 'complete'), '');
  try {
    await rename(staging, home);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
    await rm(staging, { recursive: true, force: true }); // another process got there first
  }
  return ready;
}

export interface LaunchedChromium {
  readonly browser: Browser;
  readonly choice: ChromiumChoice;
}

export async function launchChromium(options: ChooseOptions = {}): Promise<LaunchedChromium> {
  const choice = chooseChromium(options);
  if (choice.source !== 'npm') {
    return { browser: await chromium.launch({ executablePath: choice.path, args: CHROMIUM_ARGS }), choice };
  }
  const npm = await npmChromium();
  const browser = await chromium.launch({
    executablePath: npm.path,
    args: CHROMIUM_ARGS,
    // The package's own fonts, so a page renders the same on a machine without any.
    env: { ...process.env, FONTCONFIG_PATH: npm.fontconfig },
  });
  return { browser, choice };
}

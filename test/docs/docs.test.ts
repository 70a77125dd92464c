// The README and docs/ as a new user meets them: every command and snippet a user would run is run
// here as it stands, in a fresh app that installed petkit from `npm pack`'s tarball (ESM and
// CommonJS, type-checked with NodeNext), and every printed output is what the command prints now.
// `npm run docs` (PETKIT_WRITE_DOCS=1) writes the outputs into the pages instead of comparing them.
import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Io, run as runContract } from '../../cli/contract.js';
import { BROKEN_SERVERS } from '../servers/broken.js';
import { fakeClock } from '../servers/fake-clock.js';
import { createReference, REFERENCE_KEY, serve } from '../servers/reference.js';
import { type Block, DOC_PAGES, kindOf, parseBlocks, where } from './blocks.js';
import { asBlockText, masked, withOutputs } from './outputs.js';
import { makeScratchApp, type ScratchApp } from './scratch-app.js';
import { type CommandResult, PageShell, transcript } from './shell.js';
import { CONFIGS, type MatrixRun, runTypeMatrix, TYPESCRIPTS } from './type-matrix.js';

const execFileAsync = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PAGES = DOC_PAGES;
const WRITE = process.env.PETKIT_WRITE_DOCS === '1';

/** The environment a user's shell has: none of this test run's own variables. */
const ENV = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !/^(VITEST|CONTRACT_|NODE_ENV$|TEST$)/.test(name)),
);

interface Page {
  readonly name: string;
  readonly text: string;
  readonly blocks: readonly Block[];
}

let app: ScratchApp;
const pages: Page[] = [];
/** What each output block should hold now. */
const fresh = new Map<Block, string>();
const tsFiles: { name: string; esm: boolean; cjs: boolean; test: boolean }[] = [];
/** The TypeScript matrix (type-matrix.ts), started once the app is installed; settled, never rejected. */
let matrix: Promise<MatrixRun[] | Error> | undefined;

beforeAll(async () => {
  for (const name of PAGES) {
    const text = await readFile(join(ROOT, name), 'utf8');
    pages.push({ name, text, blocks: parseBlocks(name, text) });
  }
  app = await makeScratchApp(ROOT);
  // Started now and awaited by its test: its twelve tsc runs take a minute, and overlap the pages' commands.
  const snippets = pages.flatMap((page) =>
    page.blocks
      .filter((block) => kindOf(block) === 'file' && block.lang === 'ts')
      .map((block) => ({
        name: block.attrs.get('file') ?? '',
        text: block.text,
        cjs: !block.attrs.has('browser'),
      })),
  );
  matrix = runTypeMatrix(app.dir, snippets).catch((error: unknown) =>
    error instanceof Error ? error : new Error(String(error)),
  );
  console.info(
    `docs test: npm pack ${(app.timings.pack / 1000).toFixed(1)} s, npm install in the app ${(app.timings.install / 1000).toFixed(1)} s`,
  );
}, 240_000);

/** Named outputs: runs a page shows the result of without a command a user would type. */
const NAMED: Record<string, () => Promise<string>> = {
  /** `npm start` in a clone: builds, then the mock's banner (npm's own lines left out). */
  'npm-start': async () => {
    const shell = new PageShell(app.clone, ENV);
    try {
      const { output } = await shell.startMock('npm start');
      return output.slice(output.indexOf('petkit mock: serving'));
    } finally {
      await shell.close();
    }
  },
  /** The contract suite against the broken server that forgets created pets. */
  'contract-forgets-created': async () => {
    const broken = BROKEN_SERVERS.find((server) => server.name === 'forgets-created');
    if (broken === undefined) throw new Error('no broken server forgets-created');
    const served = await serve(broken.handler());
    let out = '';
    const io: Io = {
      stdout: { write: (text: string) => (out += text), isTTY: false },
      stderr: { write: () => true, isTTY: false },
      env: {},
    };
    try {
      const code = await runContract(
        ['--base-url', served.url, '--api-key', REFERENCE_KEY, '--seed', '1234'],
        io,
      );
      expect(code).toBe(1);
    } finally {
      await served.close();
    }
    return out.replaceAll(new URL(served.url).port, '4011');
  },
  /**
   * Staging economy: a default run against a key of 60 a minute (the reference server on the fake
   * clock it shares with the suite), its progress lines and its last lines.
   */
  'contract-economy': async () => {
    const clock = fakeClock();
    const served = await serve(createReference({ perMinute: 60, perDay: 1000, now: clock.now }));
    let out = '';
    let err = '';
    const io: Io = {
      stdout: { write: (text: string) => (out += text), isTTY: false },
      stderr: { write: (text: string) => (err += text), isTTY: false },
      env: {},
      clock,
    };
    try {
      const code = await runContract(
        ['--base-url', served.url, '--api-key', REFERENCE_KEY, '--seed', '1234'],
        io,
      );
      expect(code).toBe(0);
    } finally {
      await served.close();
    }
    const lines = err.trim().split('\n');
    const tail = out.slice(out.indexOf('verdict:')).trim();
    return [...lines.slice(0, 2), '…', ...lines.slice(-1), '', tail]
      .join('\n')
      .replaceAll(new URL(served.url).port, '4011');
  },
};

describe('every code block of the README and docs/', () => {
  it('says what it is: a command, a file, an output, or an illustration marked no-run', () => {
    const unknown = pages.flatMap((page) =>
      page.blocks.filter((block) => kindOf(block) === undefined).map(where),
    );
    expect(unknown).toEqual([]);
    const illustrations = pages.flatMap((page) =>
      page.blocks.filter((block) => kindOf(block) === 'no-run').map(where),
    );
    // Kept few: the two commands of the README's first lines, the install (paths are the user's),
    // staging (needs a staging), the bench (minutes long), and the shared state in code (needs a
    // PostgreSQL; test/mock-replicas.test.ts and mocks/postgres/replicas.test.ts run it).
    expect(illustrations).toHaveLength(5);
  });

  it.each(PAGES)(
    'runs the commands of %s as they stand, in an app that installed the tarball',
    async (name) => {
      const page = pages.find((candidate) => candidate.name === name) as Page;
      const shell = new PageShell(app.dir, ENV);
      let last: CommandResult[] | undefined;
      try {
        for (const block of page.blocks) {
          const kind = kindOf(block);
          if (kind === 'file') {
            await writeSnippetFile(block);
          } else if (kind === 'sh') {
            last = await shell.runBlock(block, block.attrs.has('repo') ? app.clone : app.dir);
            for (const result of last) {
              expect(
                result.exitCode,
                `${where(block)}: \`${result.command}\` printed:\n${result.output}`,
              ).toBe(0);
            }
          } else if (kind === 'output') {
            const named = block.attrs.get('output') ?? '';
            if (named !== '') {
              const generate = NAMED[named];
              if (generate === undefined) throw new Error(`${where(block)}: no output named ${named}`);
              fresh.set(block, asBlockText(await generate()));
            } else {
              if (last === undefined) throw new Error(`${where(block)}: an output with no command before it`);
              fresh.set(block, asBlockText(transcript(last)));
              last = undefined;
            }
          }
        }
      } finally {
        await shell.close();
      }
    },
    // README.md and docs/contract.md take about 30 s each on an idle two-core machine (a full contract
    // run, the mock started and stopped many times) and near four times that on one running other
    // tests: a bound for a hang, not a speed target.
    300_000,
  );

  it('installed a package with dist built by prepack: no install-time script, the bin executable', async () => {
    const installed = join(app.dir, 'node_modules/petkit');
    const pkg = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8')) as {
      name: string;
      scripts: Record<string, string>;
    };
    expect(pkg.name).toBe('petkit');
    expect(pkg.scripts.prepack).toBe('npm run build');
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare'])
      expect(pkg.scripts[hook], hook).toBeUndefined();
    const bin = await stat(join(installed, 'dist/bin/petkit.js'));
    expect(bin.mode & 0o111).not.toBe(0);
    await stat(join(installed, 'dist/mocks/msw.d.cts'));
    // dist/ is git-ignored, so the copy that was packed started without one: prepack built it.
    await stat(join(app.clone, 'dist/bin/petkit.js'));
  });

  it('type-checks every TypeScript snippet in the ESM app and in the CommonJS app (module NodeNext)', async () => {
    expect(tsFiles.length).toBeGreaterThan(0);
    for (const dir of [app.dir, app.cjs]) {
      const result = await execFileAsync('npx', ['tsc', '-p', 'tsconfig.json', '--noEmit'], {
        cwd: dir,
      }).catch((error: { stdout: string; stderr: string }) => ({
        stdout: error.stdout,
        stderr: error.stderr,
        failed: true,
      }));
      expect('failed' in result ? `${dir}:\n${result.stdout}${result.stderr}` : '').toBe('');
    }
  }, 120_000);

  it('type-checks the published declarations under TypeScript 5.9, 6 and 7: NodeNext ESM and CommonJS with no `types` and no skipLibCheck, and what tsc --init writes', async () => {
    const runs = await matrix;
    if (runs === undefined || runs instanceof Error) throw runs ?? new Error('the matrix did not start');
    expect(runs).toHaveLength(TYPESCRIPTS.length * (CONFIGS.length + 1));
    const failed = runs
      .filter((entry) => entry.output !== '')
      .map((entry) => `TypeScript ${entry.typescript}, ${entry.config}:\n${entry.output}`);
    expect(failed.join('\n')).toBe('');
  }, 180_000);

  it('installs with no engine warning on this Node (npm prints none for petkit or what it depends on)', () => {
    expect(app.installOutput).toMatch(/added \d+ packages/);
    expect(app.installOutput).not.toMatch(/EBADENGINE/);
  });

  it('runs every test snippet with vitest, in both apps', async () => {
    const files = tsFiles
      .filter((file) => file.test)
      .flatMap((file) => [...(file.esm ? [file.name] : []), ...(file.cjs ? [`cjs/${file.name}`] : [])]);
    expect(files.length).toBeGreaterThan(0);
    const result = await execFileAsync('npx', ['vitest', 'run', '--reporter=json', ...files], {
      cwd: app.dir,
      env: ENV,
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stdout: string; stderr: string }) => error);
    const report = JSON.parse(result.stdout) as {
      success: boolean;
      testResults: { name: string; status: string; assertionResults: { title: string; status: string }[] }[];
    };
    const ran = report.testResults.map((file) => [file.name.slice(app.dir.length + 1), file.status]);
    expect(ran.sort()).toEqual(files.map((file) => [file, 'passed']).sort());
    expect(report.success, result.stderr).toBe(true);
  }, 120_000);

  it('lets a CommonJS app require petkit and petkit/msw at run time, with one copy of msw', async () => {
    const probe = join(app.cjs, 'require-probe.js');
    await writeFile(
      probe,
      `const { setupServer } = require('msw/node');
const { createHandlers } = require('petkit/msw');
const { createMock } = require('petkit');
const server = setupServer(...createHandlers({ mock: createMock({ seed: 42 }), baseUrl: 'https://api.example.test/v1' }));
server.listen({ onUnhandledRequest: 'error' });
fetch('https://api.example.test/v1/pets?limit=1', { headers: { Authorization: 'Bearer demo-free' } })
  .then(async (res) => { console.log(res.status, await res.text()); server.close(); });
`,
    );
    const { stdout } = await execFileAsync(process.execPath, [probe], { cwd: app.cjs });
    expect(stdout).toBe('200 [{"id":1,"name":"Ginger","categoryId":8,"status":"pending"}]\n');
  });

  it('shows, in every printed output, what the commands print now', async () => {
    for (const page of pages) {
      const outputs = new Map([...fresh].filter(([block]) => block.page === page.name));
      const expected = page.blocks.filter((block) => kindOf(block) === 'output');
      expect([...outputs.keys()].map(where)).toEqual(expected.map(where));
      if (WRITE) {
        await writeFile(join(ROOT, page.name), withOutputs(page.text, outputs));
        continue;
      }
      for (const [block, text] of outputs) {
        expect
          .soft(masked(block.text), `${where(block)} is stale: \`npm run docs\` writes this run's output`)
          .toBe(masked(text));
      }
    }
  });
});

async function writeSnippetFile(block: Block): Promise<void> {
  const name = block.attrs.get('file') ?? '';
  const ts = block.lang === 'ts';
  const browser = block.attrs.has('browser');
  const dirs = ts && !browser ? [app.dir, app.cjs] : [app.dir];
  if (tsFiles.some((file) => file.name === name) || name.includes('/')) {
    throw new Error(`${where(block)}: file=${name} is taken or names a folder`);
  }
  for (const dir of dirs) {
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, name), block.text);
  }
  if (ts) tsFiles.push({ name, esm: true, cjs: !browser, test: name.endsWith('.test.ts') });
}

afterAll(async () => {
  // PETKIT_KEEP_SCRATCH=1 keeps the app for a look after a failure.
  await matrix;
  if (app !== undefined && process.env.PETKIT_KEEP_SCRATCH !== '1') {
    await rm(dirname(app.dir), { recursive: true, force: true });
  }
}, 180_000);

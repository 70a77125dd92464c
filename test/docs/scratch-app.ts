// A user's app, made the way the README says: `npm pack` in a clone of this repository (its prepack
// builds dist), then `npm install` of that tarball in a new project under the temp directory. The
// clone is a copy of the working tree's files (what git would check out, with the uncommitted
// changes) beside this repository's node_modules: it has no dist of its own, so the tarball's dist
// is prepack's, and the build never touches the dist/ that other tests are reading. The project is ESM
// ("type": "module") and holds a CommonJS sub-project in cjs/ ("type": "commonjs"); both type-check
// with module NodeNext and resolve the same node_modules. The install reuses npm's cache of what
// `npm ci` fetched for this repository (--prefer-offline), with the same versions, and adds
// TypeScript 6 and 7 from the registry for the type matrix (type-matrix.ts).
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { TYPESCRIPTS } from './type-matrix.js';

const run = promisify(execFile);

export interface ScratchApp {
  /** The app's folder: ESM, petkit installed from the tarball. */
  readonly dir: string;
  /** Its CommonJS sub-project. */
  readonly cjs: string;
  /** The copy of this repository that was packed (its node_modules is this repository's). */
  readonly clone: string;
  readonly tarball: string;
  /** How long `npm pack` and `npm install` took, in ms. */
  readonly timings: { readonly pack: number; readonly install: number };
  /** What `npm install` printed (its warnings included). */
  readonly installOutput: string;
}

/**
 * The packages a user adds beside petkit to run the docs' snippets, at this repository's versions
 * (`@types/pg` for petkit/postgres, whose types are pg's).
 */
const TOOLS = ['msw', 'vitest', 'typescript', '@types/node', '@types/pg'];

function tsconfig(lib: string[]): string {
  return `${JSON.stringify(
    {
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib,
        types: ['node'],
        strict: true,
        skipLibCheck: true,
        outDir: 'dist',
        rootDir: '.',
      },
      include: ['*.ts'],
    },
    null,
    2,
  )}\n`;
}

/** A file git still lists but the working tree has deleted. */
function missingIsFine(error: NodeJS.ErrnoException): void {
  if (error.code !== 'ENOENT') throw error;
}

async function versionOf(root: string, name: string): Promise<string> {
  const pkg = JSON.parse(await readFile(join(root, 'node_modules', name, 'package.json'), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

export async function makeScratchApp(root: string): Promise<ScratchApp> {
  const base = await mkdtemp(join(tmpdir(), 'petkit-docs-'));
  const dir = join(base, 'my-app');
  const cjs = join(dir, 'cjs');
  await mkdir(cjs, { recursive: true });

  let started = Date.now();
  const clone = join(base, 'petkit');
  const files = await run('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: root,
    maxBuffer: 16 * 1024 * 1024,
  });
  for (const file of files.stdout.split('\0')) {
    // A worktree's node_modules may be a symlink, which `node_modules/` in .gitignore does not match.
    if (file !== '' && file !== 'node_modules')
      await cp(join(root, file), join(clone, file), { force: true }).catch(missingIsFine);
  }
  await symlink(join(root, 'node_modules'), join(clone, 'node_modules'), 'dir');
  const packed = await run('npm', ['pack', '--json', '--pack-destination', base], {
    cwd: clone,
    maxBuffer: 16 * 1024 * 1024,
  });
  const [info] = JSON.parse(packed.stdout) as [{ filename: string }];
  const tarball = join(base, info.filename);
  const pack = Date.now() - started;

  await writeFile(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'my-app', private: true, type: 'module' }, null, 2)}\n`,
  );
  await writeFile(join(dir, 'tsconfig.json'), tsconfig(['ES2023', 'DOM', 'DOM.Iterable']));
  await writeFile(
    join(cjs, 'package.json'),
    `${JSON.stringify({ name: 'my-cjs-app', private: true, type: 'commonjs' }, null, 2)}\n`,
  );
  await writeFile(join(cjs, 'tsconfig.json'), tsconfig(['ES2023', 'DOM']));

  started = Date.now();
  const tools = await Promise.all(TOOLS.map(async (name) => `${name}@${await versionOf(root, name)}`));
  const typescripts = TYPESCRIPTS.flatMap((ts) => ('install' in ts ? [ts.install] : []));
  // npm's own log level (warn), so that its warnings (EBADENGINE among them) are in the output.
  const installed = await run(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball, ...tools, ...typescripts],
    { cwd: dir, maxBuffer: 16 * 1024 * 1024 },
  );
  return {
    dir,
    cjs,
    clone,
    tarball,
    timings: { pack, install: Date.now() - started },
    installOutput: `${installed.stdout}${installed.stderr}`,
  };
}

// petkit's published declarations in apps on each TypeScript a user may have: 5.9, 6 and 7
// (`npm i -D typescript` installed 7.0.2 when this was written), each under three configs: strict
// NodeNext with no `types` and no `skipLibCheck`, as ESM and as CommonJS, and what that version's
// `tsc --init` writes. TypeScript 6 and later include no @types package unless `types` names it, so
// a declaration that needs Node's types (an `import type … from 'node:stream'`) fails there even
// with @types/node installed, where 5.9 included it silently.
//
// Each config is a folder beside the app (so the app's vitest does not find the snippets' copies),
// resolving the app's node_modules through a link: the docs' TypeScript snippets as a user writes
// them, and a file that imports every entry of petkit's `exports`. petkit/postgres is checked in a
// program of its own: its types are pg's (@types/pg, which brings Node's), so a program that imports
// it has Node's types whatever the config, and would hide a leak from the other entries.
import { execFile } from 'node:child_process';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Each TypeScript the matrix runs: the app's folder it is installed in, and what installs it. */
export const TYPESCRIPTS = [
  { version: '5.9', dir: 'typescript' }, // this repository's own, among the app's tools
  { version: '6', dir: 'typescript-6', install: 'typescript-6@npm:typescript@6.0.3' },
  { version: '7', dir: 'typescript-7', install: 'typescript-7@npm:typescript@7.0.2' },
] as const;

export const CONFIGS = ['nodenext-esm', 'nodenext-cjs', 'tsc-init'] as const;
export type Config = (typeof CONFIGS)[number] | 'postgres';

/** (a) and (b): strict, NodeNext, no `types`, no `skipLibCheck`: every declaration is checked. */
const STRICT_NODENEXT = `${JSON.stringify(
  {
    compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', noEmit: true },
    include: ['*.ts'],
  },
  null,
  2,
)}\n`;

export interface Snippet {
  readonly name: string;
  readonly text: string;
  /** Also a CommonJS file (a browser-only snippet is not). */
  readonly cjs: boolean;
}

export interface MatrixRun {
  readonly typescript: string;
  readonly config: Config;
  /** What tsc printed; '' when it passed. */
  readonly output: string;
}

/** A file that imports each of `entries`. */
function probe(entries: readonly string[]): string {
  const lines = entries.map((entry, i) => `import * as entry${i} from '${entry}';`);
  return `${lines.join('\n')}\nexport const entries = [${entries.map((_, i) => `entry${i}`).join(', ')}];\n`;
}

/** Every entry of petkit's `exports` that has types: `petkit`, `petkit/msw`, … */
async function typedEntries(app: string): Promise<string[]> {
  const pkg = JSON.parse(await readFile(join(app, 'node_modules/petkit/package.json'), 'utf8')) as {
    exports: Record<string, unknown>;
  };
  return Object.entries(pkg.exports)
    .filter(([, target]) => JSON.stringify(target).includes('"types"'))
    .map(([entry]) => `petkit${entry.slice(1)}`);
}

/** Writes one config's folder: package.json of its module kind, the files, and a tsconfig unless tsc --init writes it. */
async function folder(
  dir: string,
  type: 'module' | 'commonjs',
  files: ReadonlyMap<string, string>,
  tsconfig: string | undefined,
): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'package.json'), `${JSON.stringify({ private: true, type })}\n`);
  for (const [name, text] of files) await writeFile(join(dir, name), text);
  if (tsconfig !== undefined) await writeFile(join(dir, 'tsconfig.json'), tsconfig);
}

async function tsc(app: string, typescript: (typeof TYPESCRIPTS)[number], dir: string, args: string[]) {
  return run(process.execPath, [join(app, 'node_modules', typescript.dir, 'bin/tsc'), ...args], {
    cwd: dir,
    maxBuffer: 16 * 1024 * 1024,
  });
}

/**
 * Runs every TypeScript on every config, and on petkit/postgres's program; one result each. The
 * versions run side by side, each one's configs one after another (a tsc holds half a gigabyte).
 */
export async function runTypeMatrix(app: string, snippets: readonly Snippet[]): Promise<MatrixRun[]> {
  const root = join(dirname(app), 'types-matrix');
  await mkdir(root, { recursive: true });
  await symlink(join(app, 'node_modules'), join(root, 'node_modules'), 'dir');
  const entries = await typedEntries(app);
  const withProbe = (chosen: readonly Snippet[]) =>
    new Map([
      ...chosen.map((snippet) => [snippet.name, snippet.text] as const),
      ['petkit-entries.ts', probe(entries.filter((entry) => entry !== 'petkit/postgres'))],
    ]);
  await folder(join(root, 'nodenext-esm'), 'module', withProbe(snippets), STRICT_NODENEXT);
  await folder(
    join(root, 'nodenext-cjs'),
    'commonjs',
    withProbe(snippets.filter((snippet) => snippet.cjs)),
    STRICT_NODENEXT,
  );
  await folder(
    join(root, 'postgres'),
    'module',
    new Map([['petkit-postgres.ts', probe(['petkit/postgres'])]]),
    STRICT_NODENEXT,
  );
  const byVersion = TYPESCRIPTS.map(async (typescript) => {
    const init = join(root, `tsc-init-${typescript.version}`);
    await folder(init, 'module', withProbe(snippets), undefined);
    await tsc(app, typescript, init, ['--init']);
    const runs: MatrixRun[] = [];
    for (const config of [...CONFIGS, 'postgres'] as const) {
      const dir = config === 'tsc-init' ? init : join(root, config);
      const output = await tsc(app, typescript, dir, ['-p', 'tsconfig.json', '--noEmit']).then(
        () => '',
        (error: { stdout: string; stderr: string }) => `${error.stdout}${error.stderr}`,
      );
      runs.push({ typescript: typescript.version, config, output });
    }
    return runs;
  });
  return (await Promise.all(byVersion)).flat();
}

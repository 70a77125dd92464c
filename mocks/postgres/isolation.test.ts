// The shared state is loaded only on demand (a dynamic import, when a replica is given a state URL):
// nothing the in-memory mock, the MSW handlers or the browser build import may reach it or pg.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Every module a file imports statically, followed through relative imports; bare names as they are. */
function staticImports(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    // `import … from '…'`, `export … from '…'` and `import '…'`; neither a dynamic import() nor an
    // `import type` (erased by the compiler) is followed.
    for (const match of source.matchAll(
      /^\s*(?:import|export)\s(?!type\s)(?:[^'"]*?\sfrom\s)?['"]([^'"]+)['"]/gm,
    )) {
      const specifier = match[1] as string;
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
      else seen.add(specifier);
    }
  };
  visit(join(ROOT, entry));
  return seen;
}

describe('the shared state stays out of the default path', () => {
  for (const entry of ['mocks/index.ts', 'mocks/msw.ts', 'cli/mock.ts']) {
    it(`is not imported by ${entry}`, () => {
      const reached = [...staticImports(entry)].map((path) =>
        path.startsWith('/') ? relative(ROOT, path) : path,
      );
      expect(reached.length).toBeGreaterThan(5);
      expect(
        reached.filter(
          (path) => path.startsWith('mocks/postgres/') || path === 'pg' || path.startsWith('pg/'),
        ),
      ).toEqual([]);
    });
  }
});

// The house's rules of who may import whom (ARCHITECTURE.md says them in words), held by reading
// every import of the source, as TypeScript reads them: static, dynamic, type-only and re-exports.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Every .ts file under a folder of the repository, as paths from its root. */
function filesUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => join(folder, file));
}

/** What a file imports: other files of the repository (as paths from its root) and packages. */
function importsOf(file: string): { files: string[]; packages: string[] } {
  const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
  const files: string[] = [];
  const packages: string[] = [];
  for (const { fileName: specifier } of importedFiles) {
    if (!specifier.startsWith('.')) {
      packages.push(specifier);
      continue;
    }
    const target = relative(ROOT, join(ROOT, dirname(file), specifier));
    const source = target.replace(/\.js$/, '.ts');
    files.push(existsSync(join(ROOT, source)) ? source : target);
  }
  return { files, packages };
}

/** Every file an entry reaches through its imports, with the packages each imports. */
function reach(entry: string): Map<string, string[]> {
  const reached = new Map<string, string[]>();
  const pending = [entry];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (reached.has(file) || !file.endsWith('.ts')) continue;
    const { files, packages } = importsOf(file);
    reached.set(file, packages);
    pending.push(...files);
  }
  return reached;
}

const importersOf = (from: string[], folder: string) =>
  from.flatMap((file) =>
    importsOf(file)
      .files.filter((target) => target.startsWith(`${folder}/`))
      .map((target) => `${file} imports ${target}`),
  );

describe('the boundaries between the parts', () => {
  it('the contract suite never imports the mock: it tests any server over HTTP', () => {
    expect(importersOf(filesUnder('contract-tests'), 'mocks')).toEqual([]);
  });

  it('the mock never imports the contract suite', () => {
    expect(importersOf(filesUnder('mocks'), 'contract-tests')).toEqual([]);
  });

  it('the proxy stands on the contract module alone: it imports neither the mock nor the suite', () => {
    const proxy = filesUnder('proxy');
    expect(proxy.length).toBeGreaterThan(0);
    expect([...importersOf(proxy, 'mocks'), ...importersOf(proxy, 'contract-tests')]).toEqual([]);
  });

  it('nothing but the command imports the proxy', () => {
    const parts = ['openapi', 'mocks', 'contract-tests'].flatMap(filesUnder);
    expect(importersOf(parts, 'proxy')).toEqual([]);
  });

  it('the contract module imports neither: both stand on it', () => {
    const openapi = filesUnder('openapi');
    expect([...importersOf(openapi, 'mocks'), ...importersOf(openapi, 'contract-tests')]).toEqual([]);
  });

  it.each(['mocks/core.ts', 'mocks/msw.ts'])('%s, a browser-safe entry, reaches nothing of Node', (entry) => {
    const node = [...reach(entry)].flatMap(([file, packages]) =>
      packages.filter((name) => isBuiltin(name)).map((name) => `${file} imports ${name}`),
    );
    expect(node).toEqual([]);
  });

  it('reads imports as they are written (the rules above would pass on a reader that saw none)', () => {
    expect(importsOf('mocks/index.ts').files).toEqual([
      'mocks/control-guard.ts',
      'mocks/core.ts',
      'mocks/key-label.ts',
      'mocks/keys-file.ts',
      'mocks/node-server.ts',
      'mocks/pets-file.ts',
    ]);
    expect(reach('mocks/index.ts').get('mocks/node-server.ts')).toContain('node:http');
    expect(reach('mocks/core.ts').has('openapi/index.ts')).toBe(true);
  });
});

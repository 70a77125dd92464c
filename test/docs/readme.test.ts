// The README stands alone and stays true: its test command is CI's, its links lead somewhere in the
// repository, it names no file outside it, and its dependency table lists exactly package.json's.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { commandsOf, DOC_PAGES, readBlocks } from './blocks.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PAGES = [...DOC_PAGES, 'examples/browser/README.md', 'examples/ci/README.md'];
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

describe('the README', () => {
  it('opens with the two commands, and CI runs exactly the second', () => {
    const [first] = readBlocks(ROOT, 'README.md');
    const commands = first === undefined ? [] : commandsOf(first).map((line) => line.replace(/\s+#.*$/, ''));
    expect(commands).toEqual(['npm ci && npm start', 'npm ci && npm test']);
    const ci = read('.ci/run')
      .split('\n')
      .filter(
        (line) =>
          line.trim() !== '' && !line.startsWith('#') && !line.startsWith('set ') && !line.startsWith('cd '),
      );
    expect(ci).toEqual(['npm ci && npm test']);
  });

  it('lists every dependency of package.json with what it is for, and no other', () => {
    const pkg = JSON.parse(read('package.json')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    const section = read('README.md').split('## Dependencies and what each is for')[1] ?? '';
    const listed = [...section.matchAll(/^\| (.+?) \| .+ \|$/gm)]
      .flatMap((row) => [...(row[1] ?? '').matchAll(/`([^`]+)`/g)].map((name) => name[1]))
      .filter((name) => name !== 'package');
    expect(listed.sort()).toEqual(
      [...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)].sort(),
    );
  });
});

describe.each(PAGES)('%s', (page) => {
  it('names no file outside the repository', () => {
    expect(read(page)).not.toMatch(/DESIGN\.md|STYLE\.md|\.\.\/shared|shared\/|seed\/000_/);
  });

  it('links only to files that exist in the repository', () => {
    const missing = [...read(page).matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
      .map((link) => link[1] ?? '')
      .filter((target) => !/^[a-z]+:/.test(target))
      .filter((target) => !existsSync(join(ROOT, dirname(page), target)));
    expect(missing).toEqual([]);
  });
});

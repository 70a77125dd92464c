// The README stands alone and stays true: its test command is CI's, its links lead somewhere in the
// repository, it names no file outside it, and its dependency table lists exactly package.json's.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveConfig } from 'vite';
import { describe, expect, it } from 'vitest';
import { BROKEN_SERVERS } from '../servers/broken.js';
import { HOSTILE_SERVERS } from '../servers/hostile.js';
import { WIRE_QUIRKS } from '../servers/wire-quirks.js';
import { commandsOf, DOC_PAGES, readBlocks } from './blocks.js';
import { satisfies } from './node-range.js';

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

  it('reads engines ranges as npm does', () => {
    expect(satisfies('v20.20.2', '>=24.18.0')).toBe(false);
    expect(satisfies('v20.20.2', '>=20.19')).toBe(true);
    expect(satisfies('v20.20.2', '>=23.5.0 || ^22.13.0 || ^20.17.0')).toBe(true);
    expect(satisfies('v20.20.2', '>=22.12.0 || >=20.19.0 <21.0.0')).toBe(true);
    expect(satisfies('v20.16.0', '>=22.12.0 || >=20.19.0 <21.0.0')).toBe(false);
    expect(satisfies('v20.20.2', '10.* || >= 12.*')).toBe(true);
    expect(satisfies('v11.0.0', '10.* || >= 12.*')).toBe(false);
    expect(satisfies('v20.20.2', '4.x || >=6.0.0')).toBe(true);
    expect(satisfies('v20.20.2', '*')).toBe(true);
    expect(() => satisfies('v20.20.2', 'node 20')).toThrow('cannot read');
  });

  it('says why `npm ci` warns EBADENGINE on this Node: names every package of the lock that asks for a later one', () => {
    const lock = JSON.parse(read('package-lock.json')) as {
      packages: Record<string, { engines?: { node?: string } }>;
    };
    const asking = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && entry.engines?.node !== undefined)
      .filter(([, entry]) => !satisfies(process.version, entry.engines?.node ?? ''))
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    const readme = read('README.md');
    if (asking.length > 0) expect(readme).toContain('`npm ci` warns `EBADENGINE`');
    expect(asking.filter((name) => !readme.includes(`\`${name}\``))).toEqual([]);
  });

  it("gives the browser example's address and the line that switches it to a running mock, as the example has them", async () => {
    const readme = read('README.md');
    const main = read('examples/browser/src/main.ts');
    const modeLine = /^const MODE: 'msw' \| 'server' = 'msw';$/m.exec(main)?.[0];
    const serverUrl = /^const SERVER_URL = '([^']+)';$/m.exec(main)?.[1];
    expect(modeLine).toBeDefined();
    expect(readme).toContain(`\`${modeLine}\``);
    expect(readme).toContain(serverUrl);
    // What `npm run example:browser` serves: Vite's address for the example's own config.
    const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    expect(pkg.scripts['example:browser']).toMatch(/&& vite examples\/browser$/);
    const { server } = await resolveConfig({ root: join(ROOT, 'examples/browser') }, 'serve');
    expect(server.host ?? 'localhost').toBe('localhost');
    expect(readme).toContain(`http://localhost:${server.port}/`);
  });
});

describe('the servers the suite is tested against', () => {
  // The README and docs/contract.md count them; a server added in test/servers/ changes the count.
  const counted = (text: string, words: string) =>
    [...text.matchAll(new RegExp(`(\\d+) (?:${words})`, 'g'))].map((match) => Number(match[1]));
  it.each(['README.md', 'docs/contract.md'])('%s gives their numbers as test/servers/ has them', (page) => {
    const text = read(page);
    const broken = counted(text, '(?:broken )?servers (?:derived from it|broken)|broken servers');
    expect(broken.length).toBeGreaterThan(0);
    expect(new Set(broken)).toEqual(new Set([BROKEN_SERVERS.length]));
    for (const hostile of counted(text, 'hostile')) expect(hostile).toBe(HOSTILE_SERVERS.length);
    for (const quirky of counted(text, 'with quirks of the wire'))
      expect(quirky).toBe(Object.keys(WIRE_QUIRKS).length);
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

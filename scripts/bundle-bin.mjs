#!/usr/bin/env node
// The `petkit` command as one bundle (dist/bin/petkit.js, and a chunk per subcommand it loads on
// demand), made from tsc's output: node then reads a handful of files at start, not the 70-odd
// modules of dist/cli, dist/mocks and dist/openapi, which was most of the mock's start-up. The
// packages it depends on stay outside (node_modules); dist/ keeps the modules the library exports.
// CommonJS (dist/bin/package.json says so): node loads it with its synchronous loader, 20 ms sooner
// than the same bundle as ES modules (whose loader reads, resolves and links each module in turn);
// the packages that are ES modules only (faker) it requires as Node ≥ 20.19 allows.
import { rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Packages the command reads only sometimes, required when first read instead of at start: faker's
 * base locale (about 35 ms of `petkit mock`'s start) is read only to seed pets the generated ones do
 * not cover (mocks/seed-pets.ts). The bundle reads a package through the one binding its `require`
 * gives (`x.faker`), so a binding that requires it at its first read is the same to it.
 */
const LAZY = ['@faker-js/faker/locale/base'];
const lazyRequires = {
  name: 'lazy-requires',
  renderChunk(code) {
    let out = code;
    for (const id of LAZY) {
      const eager = `require(${JSON.stringify(id)})`;
      out = out.replaceAll(
        `= ${eager};`,
        `= /* required when first read */ new Proxy({}, { get: (_, key) => ${eager}[key] });`,
      );
      // Any other form would load it at start unseen: the build says so instead.
      if (out.split(eager).length !== out.split(`=> ${eager}[key]`).length)
        throw new Error(`bundle-bin: ${id} is required in a form not made lazy`);
    }
    return out;
  },
};
rmSync(`${root}dist/bin`, { recursive: true, force: true });
await build({
  input: `${root}dist/cli/main.js`,
  platform: 'node',
  // A bare specifier is a package: left to node_modules, as dist/cli leaves it.
  external: (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0'),
  plugins: [lazyRequires],
  output: {
    dir: `${root}dist/bin`,
    format: 'cjs',
    entryFileNames: 'petkit.js',
    chunkFileNames: '[name]-[hash].js',
  },
  logLevel: 'warn',
});
writeFileSync(`${root}dist/bin/package.json`, `${JSON.stringify({ type: 'commonjs' })}\n`);

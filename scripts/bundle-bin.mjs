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
rmSync(`${root}dist/bin`, { recursive: true, force: true });
await build({
  input: `${root}dist/cli/main.js`,
  platform: 'node',
  // A bare specifier is a package: left to node_modules, as dist/cli leaves it.
  external: (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0'),
  output: {
    dir: `${root}dist/bin`,
    format: 'cjs',
    entryFileNames: 'petkit.js',
    chunkFileNames: '[name]-[hash].js',
  },
  logLevel: 'warn',
});
writeFileSync(`${root}dist/bin/package.json`, `${JSON.stringify({ type: 'commonjs' })}\n`);

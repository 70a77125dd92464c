#!/usr/bin/env node
// The `petkit` command as one bundle (dist/bin/petkit.js, and a chunk per subcommand it loads on
// demand), made from tsc's output: node then reads a handful of files at start, not the 70-odd
// modules of dist/cli, dist/mocks and dist/openapi, which was most of the mock's start-up. The
// packages it depends on stay outside (node_modules); dist/ keeps the modules the library exports.
import { rmSync } from 'node:fs';
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
    format: 'esm',
    entryFileNames: 'petkit.js',
    chunkFileNames: '[name]-[hash].js',
  },
  logLevel: 'warn',
});

// The node flags the `petkit` command runs with, read from its shebang
// (`#!/usr/bin/env -S node --flag ...`): the bench starts `petkit mock` exactly as a user's shell would.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const PETKIT_BIN = 'dist/cli/main.js';

/** The flags between `node` and the script in a shebang line; [] for a plain `#!/usr/bin/env node`. */
export function shebangNodeFlags(firstLine: string): string[] {
  const words = firstLine.replace(/^#!/, '').trim().split(/\s+/);
  const node = words.findIndex((word) => word === 'node' || word.endsWith('/node'));
  if (!firstLine.startsWith('#!') || node < 0) throw new Error(`Not a node shebang: ${firstLine}`);
  return words.slice(node + 1);
}

export function petkitNodeFlags(root: string): string[] {
  const [firstLine = ''] = readFileSync(join(root, PETKIT_BIN), 'utf8').split('\n', 1);
  return shebangNodeFlags(firstLine);
}

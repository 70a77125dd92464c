#!/usr/bin/env node
// tsc writes files without the execute bit; `npx petkit` runs the bin through its shebang and needs it.
import { chmodSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { bin } = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
for (const path of Object.values(bin)) chmodSync(`${root}${path}`, 0o755);

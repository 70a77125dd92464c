#!/usr/bin/env node
// Lints openapi.yaml with two independent linters and fails on any error or warning of either:
// Redocly (recommended rules, redocly.yaml) and Spectral (spectral:oas, .spectral.yaml).
// Redocly exits 0 on warnings, so its JSON totals are read instead of its exit code.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => `${root}node_modules/.bin/${name}`;
let failed = false;

const redocly = spawnSync(bin('redocly'), ['lint', '--format=json', 'openapi.yaml'], {
  cwd: root,
  encoding: 'utf8',
});
try {
  const { totals, problems } = JSON.parse(redocly.stdout);
  for (const problem of problems) {
    const where = problem.location?.[0]?.pointer ?? '';
    console.log(`redocly ${problem.severity} ${problem.ruleId} ${where}: ${problem.message}`);
  }
  console.log(`redocly lint: ${totals.errors} errors, ${totals.warnings} warnings`);
  failed ||= totals.errors + totals.warnings > 0 || redocly.status !== 0;
} catch {
  console.error(`redocly lint did not run:\n${redocly.stdout}${redocly.stderr}`);
  failed = true;
}

const spectral = spawnSync(bin('spectral'), ['lint', '--fail-severity=hint', 'openapi.yaml'], {
  cwd: root,
  encoding: 'utf8',
});
process.stdout.write(`spectral lint: ${spectral.stdout.trim()}\n`);
if (spectral.stderr.trim() !== '') process.stderr.write(spectral.stderr);
failed ||= spectral.status !== 0;

process.exitCode = failed ? 1 : 0;

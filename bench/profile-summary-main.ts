// `node dist/bench/profile-summary-main.js FILE.cpuprofile [--top N]`: where a profile's time went.
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { type CpuProfile, formatSummary, summarizeProfile } from './profile-summary.js';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string' } } });
const [file] = positionals;
if (file === undefined) {
  process.stderr.write('usage: node dist/bench/profile-summary-main.js FILE.cpuprofile [--top N]\n');
  process.exitCode = 2;
} else {
  const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
  process.stdout.write(`${formatSummary(summarizeProfile(profile), Number(values.top ?? 25))}\n`);
}

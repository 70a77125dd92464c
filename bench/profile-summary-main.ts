// `node dist/bench/profile-summary-main.js FILE.cpuprofile|DIR [--top N]`: where a profile's time went
// (for a directory, each .cpuprofile in it). A bad argument is a one-line message and exit 2.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type CpuProfile, formatSummary, summarizeProfile } from './profile-summary.js';

const USAGE = 'usage: node dist/bench/profile-summary-main.js FILE.cpuprofile|DIR [--top N]';

function isCpuProfile(value: unknown): value is CpuProfile {
  const v = value as Partial<CpuProfile> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    Array.isArray(v.nodes) &&
    typeof v.startTime === 'number' &&
    typeof v.endTime === 'number'
  );
}

async function profilesAt(path: string): Promise<string[]> {
  if (!(await stat(path)).isDirectory()) return [path];
  const files = (await readdir(path)).filter((f) => f.endsWith('.cpuprofile')).sort();
  if (files.length === 0) throw new Error(`no .cpuprofile file in ${path}`);
  return files.map((f) => join(path, f));
}

async function main(): Promise<number> {
  let values: { top?: string | undefined };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string' } } }));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const top = Number(values.top ?? 25);
  const [path] = positionals;
  if (path === undefined || positionals.length > 1 || !Number.isInteger(top) || top < 1) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  try {
    const files = await profilesAt(path);
    for (const file of files) {
      let value: unknown;
      try {
        value = JSON.parse(await readFile(file, 'utf8'));
      } catch (error) {
        throw new Error(`${file} is not a CPU profile (${(error as Error).message})`);
      }
      if (!isCpuProfile(value))
        throw new Error(`${file} is not a CPU profile (no nodes, startTime, endTime)`);
      const profile = value;
      if (files.length > 1) process.stdout.write(`${file}\n`);
      process.stdout.write(`${formatSummary(summarizeProfile(profile), top)}\n`);
    }
    return 0;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? `no such file or directory: ${path}` : (error as Error).message;
    process.stderr.write(`profile-summary: ${reason}\n`);
    return 2;
  }
}

process.exitCode = await main();

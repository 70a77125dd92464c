// CPU time another process has used, read from Linux's /proc/PID/stat: user and system time, in
// USER_HZ ticks (100 a second on Linux, whatever the kernel's own tick rate).
import { readdirSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';

const USER_HZ = 100;

/** User plus system CPU time in milliseconds, from a /proc/PID/stat line; undefined when unreadable. */
export function parseProcStat(text: string): number | undefined {
  // The command name (field 2) sits in parentheses and may hold spaces: count fields after its ')'.
  const close = text.lastIndexOf(')');
  if (close < 0) return undefined;
  const fields = text.slice(close + 2).split(' ');
  // After the name: state is field 3, so utime (14) and stime (15) are at 11 and 12 here.
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) return undefined;
  return ((utime + stime) * 1000) / USER_HZ;
}

/**
 * The CPU time of the processes `roots` and all their descendants (a cluster's replicas, a
 * PostgreSQL server's backends), summed; undefined when a root is unreadable. A descendant that
 * exits between two readings takes its time with it: compare readings of long-lived processes.
 */
export async function readTreeCpuMs(roots: readonly number[]): Promise<number | undefined> {
  const stats = new Map<number, { parent: number; cpuMs: number }>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = await readFile(`/proc/${entry}/stat`, 'utf8');
      const cpuMs = parseProcStat(text);
      const parent = Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[1]);
      if (cpuMs !== undefined) stats.set(Number(entry), { parent, cpuMs });
    } catch {
      // Gone since the listing.
    }
  }
  if (roots.some((pid) => !stats.has(pid))) return undefined;
  let total = 0;
  for (const [pid, stat] of stats) {
    for (let at: number | undefined = pid; at !== undefined && at > 0; at = stats.get(at)?.parent) {
      if (roots.includes(at)) {
        total += stat.cpuMs;
        break;
      }
    }
  }
  return total;
}

export async function readCpuMs(pid: number): Promise<number | undefined> {
  try {
    return parseProcStat(await readFile(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * The CPU time of process `pid` in nanoseconds, read at once (synchronously, so nothing the caller
 * counts can move between this reading and the next): the sum of its threads' run time from
 * /proc/PID/task/TID/schedstat, which the scheduler keeps to the nanosecond, where /proc/PID/stat
 * rounds to 10 ms (2 % of a second's slice at half a core). Falls back to /proc/PID/stat on a
 * kernel without schedstat; undefined when the process is gone.
 */
export function readCpuNsSync(pid: number): number | undefined {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return undefined;
  }
  let total = 0;
  for (const task of tasks) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8');
    } catch {
      // A thread gone since the listing: its time is gone with it (node's threads live as long as it).
      continue;
    }
    const ns = Number(text.split(' ')[0]);
    if (!Number.isFinite(ns)) return readStatNsSync(pid);
    total += ns;
  }
  return total > 0 ? total : readStatNsSync(pid);
}

function readStatNsSync(pid: number): number | undefined {
  try {
    const ms = parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    return ms === undefined ? undefined : ms * 1e6;
  } catch {
    return undefined;
  }
}

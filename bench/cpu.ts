// CPU time another process has used, read from Linux's /proc/PID/stat: user and system time, in
// USER_HZ ticks (100 a second on Linux, whatever the kernel's own tick rate).
import { readFile } from 'node:fs/promises';

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

export async function readCpuMs(pid: number): Promise<number | undefined> {
  try {
    return parseProcStat(await readFile(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

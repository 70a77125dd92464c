// Resident memory of another process, read from Linux's /proc/PID/status (kB figures).
import { readFile } from 'node:fs/promises';

export interface ProcessMemory {
  /** Resident set size now, in bytes. */
  readonly rss: number;
  /** Peak resident set size since the process started (VmHWM), in bytes. */
  readonly peak: number;
}

/** Parses the VmRSS and VmHWM lines of a /proc/PID/status text. Undefined when either is absent. */
export function parseProcStatus(text: string): ProcessMemory | undefined {
  const rss = /^VmRSS:\s+(\d+) kB$/m.exec(text)?.[1];
  const peak = /^VmHWM:\s+(\d+) kB$/m.exec(text)?.[1];
  if (rss === undefined || peak === undefined) return undefined;
  return { rss: Number(rss) * 1024, peak: Number(peak) * 1024 };
}

/** The process's memory, or undefined when it has gone or /proc is not there (not Linux). */
export async function readMemory(pid: number): Promise<ProcessMemory | undefined> {
  try {
    return parseProcStatus(await readFile(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return undefined;
  }
}

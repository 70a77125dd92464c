// The proxy's journal: how many exchanges were checked, the last departures, and the exchanges whose
// bodies were not checked (over the bound, an encoding not decoded), each list bounded. Read at
// `GET /__petkit/departures`, cleared by `DELETE`.
import type { Departure, Inspection } from './inspect.js';

/** The most departures (and, apart, unchecked bodies) the journal keeps, the oldest dropped first. */
export const MAX_JOURNAL = 1000;

/** A body of an exchange that was forwarded but not checked. */
export interface UncheckedBody {
  readonly time: number;
  readonly side: 'request' | 'response';
  readonly method: string;
  readonly target: string;
  readonly status: number;
  /** `larger than 1048576 bytes`, `Content-Encoding "zstd" is not one it decodes`, `not valid gzip`. */
  readonly reason: string;
}

export interface ProxyJournal {
  /** Exchanges checked since the start or the last clear. */
  readonly exchanges: number;
  /** The last departures, oldest first. */
  readonly departures: readonly Departure[];
  /** The last bodies forwarded unchecked, oldest first. */
  readonly unchecked: readonly UncheckedBody[];
}

export interface Journal {
  record(exchange: { time: number; method: string; target: string; status: number }, found: Inspection): void;
  read(): ProxyJournal;
  clear(): void;
}

export function createJournal(): Journal {
  let exchanges = 0;
  let departures: Departure[] = [];
  let unchecked: UncheckedBody[] = [];
  return {
    record(exchange, found) {
      exchanges += 1;
      departures.push(...found.departures);
      for (const { side, reason } of found.unchecked) unchecked.push({ ...exchange, side, reason });
      if (departures.length > MAX_JOURNAL) departures = departures.slice(-MAX_JOURNAL);
      if (unchecked.length > MAX_JOURNAL) unchecked = unchecked.slice(-MAX_JOURNAL);
    },
    read: () => ({ exchanges, departures: [...departures], unchecked: [...unchecked] }),
    clear() {
      exchanges = 0;
      departures = [];
      unchecked = [];
    },
  };
}

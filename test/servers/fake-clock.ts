// One clock for a server and the suite: it reads 12:00:30 UTC on 1 June 2026 at first, and sleeping
// moves it on at once, so a run that paces itself or waits for Retry-After takes no real time.
import { type ContractOptions, type Report, runContract } from '../../contract-tests/index.js';
import { REFERENCE_KEY } from './reference.js';

export interface FakeClock {
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  /** Moves the clock on without a sleep: a server's time to answer. */
  readonly advance: (ms: number) => void;
  /** Every sleep asked for, in ms. */
  readonly sleeps: number[];
}

/** `phaseMs`: how far into a minute (a rate-limit window) the clock starts; 30 s by default. */
export function fakeClock(phaseMs = 30_000): FakeClock {
  let now = Date.UTC(2026, 5, 1, 12, 0, 0) + phaseMs;
  const sleeps: number[] = [];
  return {
    now: () => now,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
    advance: (ms: number) => {
      now += ms;
    },
    sleeps,
  };
}

/**
 * A contract run against `url` on `clock` (the server shares it), with the reference key and a fixed
 * draw: its report, and the statuses it met in the order they came.
 */
export async function runOnClock(
  url: string,
  clock: FakeClock,
  options: Partial<ContractOptions> = {},
): Promise<{ report: Report; statuses: number[] }> {
  const statuses: number[] = [];
  const report = await runContract({
    baseUrl: url,
    apiKey: REFERENCE_KEY,
    now: clock.now,
    sleep: clock.sleep,
    random: () => 0.5,
    onProgress: ({ exchange }) => {
      if (exchange?.response) statuses.push(exchange.response.status);
    },
    ...options,
  });
  return { report, statuses };
}

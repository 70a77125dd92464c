// One clock for a server and the suite: it reads 12:00:30 UTC on 1 June 2026 at first, and sleeping
// moves it on at once, so a run that paces itself or waits for Retry-After takes no real time.
export interface FakeClock {
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  /** Every sleep asked for, in ms. */
  readonly sleeps: number[];
}

export function fakeClock(): FakeClock {
  let now = Date.UTC(2026, 5, 1, 12, 0, 30);
  const sleeps: number[] = [];
  return {
    now: () => now,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
    sleeps,
  };
}

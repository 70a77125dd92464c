// The seeding of a mock's state as a small state machine: an engine that seeds with a promise makes
// the first calls wait for it; when that fails (its database lost), the next call tries again, and
// the calls meanwhile answer 503 (the failure reaches them through ready()).
import type { Awaitable } from './state.js';

export interface SeedingGate {
  /** What a call waits for before it is answered; undefined once seeded (no promise on the path). */
  ready(): Promise<void> | undefined;
}

export function createSeedingGate(seed: () => Awaitable<unknown>): SeedingGate {
  let seeding: Promise<void> | undefined;
  let seedAgain = false;
  const start = (): void => {
    const done = seed();
    if (!(done instanceof Promise)) return;
    const attempt = done.then(
      () => {
        seeding = undefined;
      },
      (error: unknown) => {
        seedAgain = true;
        throw error;
      },
    );
    attempt.catch(() => undefined);
    seeding = attempt;
  };
  start();
  return {
    ready() {
      if (seeding !== undefined && seedAgain) {
        seedAgain = false;
        start();
      }
      return seeding;
    },
  };
}

// Spends the rate-limit window the target announces, instead of pacing evenly under it: send while
// X-RateLimit-Remaining is above a margin left for the key's other users, then wait for
// X-RateLimit-Reset (plus jitter). Requests in flight are reserved, so creates sent at once cannot
// overshoot. A deadline (the run's time budget) turns a wait that would end past it into OutOfTime;
// a wait longer than the suite ever waits stops the run instead (rate_limit_exhausted, exit 2).
import { ContractAbort } from './errors.js';
import type { WindowReading } from './model/types.js';

/**
 * Whose window a request spends: the key's, or (without a valid key) the address's anonymous one. The
 * anonymous one is spent to 0 (no key's other users to leave room for) and its reset waited for only
 * within the deadline: past it the request goes anyway, and a 429 there is its scenario's to read
 * ("not verified"), never a reason to stop the run.
 */
export type Bucket = 'key' | 'anonymous';

export interface WindowSpender {
  /** Waits until the key's window may take one more request, and reserves it (past the deadline: OutOfTime). */
  acquire(bucket: Bucket): Promise<void>;
  /**
   * A request was answered (with its reading) or got no answer (undefined); `reserved` when it was
   * sent through acquire (the probes send outside it: their readings still teach).
   */
  learn(bucket: Bucket, reading: WindowReading | undefined, reserved?: boolean): void;
  /**
   * Forgets what the window said: after a 429's Retry-After was waited, the server's word on when to
   * come back stands over a Reset the 429 also announced.
   */
  forget(bucket: Bucket): void;
  /** Moves the deadline (the probes lift it: they wait for windows on purpose). */
  setDeadline(deadlineMs: number): void;
}

export interface WindowSpenderOptions {
  now(): number;
  sleep(ms: number): Promise<void>;
  random(): number;
  /** No wait may end past it: OutOfTime instead. */
  deadlineMs: number;
  /** The longest wait for a window: past it the run stops (ContractAbort rate_limit_exhausted). */
  maxWaitMs: number;
  /** The spread of the jitter added to a wait for Reset. */
  backoffBaseMs: number;
  /** The share of the window left to the key's other users. Default 0.05 (at least 2 requests). */
  marginRatio?: number;
  /** A wait for a window's reset begins: whose window, and when the wait ends (the progress line's words). */
  onWait?: (bucket: Bucket, untilMs: number) => void;
}

/**
 * The run's time budget ran out, or would have before the window had room: what it skipped says why.
 * `waitEndsMs`, when the budget did not run out: when the wait not started would have ended at the
 * latest (the window's reset and the most jitter), for the time budget that would wait for it.
 */
export class OutOfTime extends Error {
  override readonly name = 'OutOfTime';
  constructor(
    readonly reason: string,
    readonly waitEndsMs: number | undefined = undefined,
  ) {
    super(reason);
  }
}

/** What is left to the key's other users: max(2, ceil(5% of the limit)), 3 of a 60-a-minute window. */
export function marginOf(limit: number, ratio = 0.05): number {
  return Math.max(2, Math.ceil(ratio * limit));
}

/** The requests a default run may send: two windows less their margins, 114 of a 60-a-minute key. */
export function requestBudgetOf(limit: number, ratio = 0.05): number {
  return Math.max(1, 2 * (limit - marginOf(limit, ratio)));
}

interface BucketState {
  reading: WindowReading | undefined;
  /** Requests sent and not yet answered: they spend the window before it says so. */
  inFlight: number;
}

export function createWindowSpender(options: WindowSpenderOptions): WindowSpender {
  let deadlineMs = options.deadlineMs;
  /** Requests the windows took so far, for the message when time runs out. */
  let sent = 0;
  const buckets = new Map<Bucket, BucketState>();
  const state = (bucket: Bucket): BucketState => {
    let found = buckets.get(bucket);
    if (found === undefined) {
      found = { reading: undefined, inFlight: 0 };
      buckets.set(bucket, found);
    }
    return found;
  };
  const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

  return {
    async acquire(bucket) {
      const mine = state(bucket);
      for (;;) {
        const now = options.now();
        if (now >= deadlineMs) {
          throw new OutOfTime(`${sent} requests sent in it`);
        }
        const reading = mine.reading;
        // A window that ended, or none seen yet: the next answer says what the new one holds.
        if (reading === undefined || now >= reading.resetMs) {
          if (reading !== undefined) mine.reading = undefined;
          break;
        }
        const margin = bucket === 'key' ? marginOf(reading.limit, options.marginRatio) : 0;
        if (reading.remaining - mine.inFlight > margin) break;
        const wait = reading.resetMs - now + Math.floor(options.random() * options.backoffBaseMs);
        if (bucket === 'anonymous' && (wait > options.maxWaitMs || now + wait > deadlineMs)) break;
        if (wait > options.maxWaitMs) {
          throw new ContractAbort(
            'rate_limit_exhausted',
            `The ${bucket === 'key' ? "key's" : 'anonymous'} rate-limit window is used up until ${new Date(reading.resetMs).toISOString()} ` +
              `(X-RateLimit-Remaining: ${reading.remaining}). Stopping rather than risk the key's ban; run again after that time.`,
          );
        }
        if (now + wait > deadlineMs) {
          // Not out of time: the window has no room the run may take, and comes back only after the deadline.
          const inFlight = mine.inFlight > 0 ? `; ${mine.inFlight} of the run's requests in flight` : '';
          throw new OutOfTime(
            `the ${bucket === 'key' ? "key's" : 'anonymous'} window had ${Math.max(0, reading.remaining)} of ${reading.limit} requests left ` +
              `(X-RateLimit-Remaining${inFlight}), no more than the ${margin} the suite keeps for the key's other users, ` +
              `and resets only ${seconds(reading.resetMs - now)} later, after the time budget ends; ${sent} requests sent; ` +
              'another client may be spending it',
            reading.resetMs + options.backoffBaseMs,
          );
        }
        options.onWait?.(bucket, now + wait);
        await options.sleep(wait);
      }
      mine.inFlight += 1;
      sent += 1;
    },
    learn(bucket, reading, reserved = true) {
      const mine = state(bucket);
      if (reserved) mine.inFlight = Math.max(0, mine.inFlight - 1);
      if (reading === undefined) return;
      const known = mine.reading;
      // Answers to requests sent at once come in any order: within one window the lowest count stands.
      if (known !== undefined && known.resetMs === reading.resetMs && known.limit === reading.limit) {
        mine.reading = { ...known, remaining: Math.min(known.remaining, reading.remaining) };
      } else mine.reading = reading;
    },
    forget(bucket) {
      state(bucket).reading = undefined;
    },
    setDeadline(ms) {
      deadlineMs = ms;
    },
  };
}

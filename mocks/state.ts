// What a mock remembers between requests, behind the small interfaces the core sees: a MockState
// of a Store of pets and a RateLimiter. Their methods may answer with a promise (a remote engine
// does), and the core waits for them; the in-memory engine (memory-state.ts, the default) answers at
// once, and the core goes on at once too (`andThen`: no promise made, no microtask waited for). The shared engine (mocks/postgres/, PostgreSQL) is
// one more adapter returning a MockState: replicas on one database behave as one mock. An engine
// that cannot reach its storage now throws StateUnavailableError, which the core answers with 503
// `state_unavailable` (the next request may succeed).
import type { Limits, NewPet, PetStatus } from '../openapi/index.js';
import type { StoredRule } from './rules.js';

/** A value now, or a promise of it. */
export type Awaitable<T> = T | Promise<T>;

/**
 * `next` of the value: at once when it is there, after it when it is a promise. The core's steps are
 * chained with it, so an answer the in-memory engine can give at once is given in the same tick.
 */
export function andThen<T, U>(value: Awaitable<T>, next: (value: T) => Awaitable<U>): Awaitable<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

export interface MockState {
  readonly store: Store;
  /** One limiter for every bucket: a key's and a client address's are kept apart by BucketRef. */
  readonly limiter: RateLimiter;
  /** The armed rules and the mock's clock. */
  readonly control: ControlStore;
  /**
   * At start: the seeded pets and rules (an engine shared by replicas seeds them once, for all). What
   * it answers is the engine's own (the core reads nothing of it).
   */
  seed(pets: readonly NewPet[], rules?: readonly StoredRule[]): Awaitable<unknown>;
  /** Back to these pets, ids from 1, with every rate-limit bucket empty, no rule armed and real time. */
  reset(pets: readonly NewPet[]): Awaitable<void>;
  /**
   * Whether the engine can serve, for /__petkit/health: throws StateUnavailableError when it cannot
   * (a shared engine's tables damaged). Absent: it always can.
   */
  check?(): Awaitable<void>;
  /**
   * An engine shared by replicas: runs `listener` whenever any replica resets the shared state (so
   * each drops what it keeps of its own, such as its journal). Answers the function that removes it.
   */
  onReset?(listener: (event: ResetEvent) => void): () => void;
}

export interface ResetEvent {
  /** 'reset': a replica reset the shared state. 'reconnected': the engine's channel was lost and is back (a reset missed meanwhile is told just before, as a 'reset'). */
  readonly kind: 'reset' | 'reconnected';
  /** True when this replica sent the reset. */
  readonly local: boolean;
}

/** The state's storage cannot be reached now (refused, timed out, connection lost): answer 503. */
export class StateUnavailableError extends Error {
  override readonly name = 'StateUnavailableError';
  readonly code = 'state_unavailable';
  /**
   * What the 503 tells its client in place of "retry shortly", when retrying alone will not help (the
   * state's tables damaged) and the engine can say what will. Never a secret: the message of a lost
   * connection may name the database's address, this is said to whoever asks.
   */
  readonly told: string | undefined;

  constructor(message: string, options?: ErrorOptions & { told?: string }) {
    super(message, options);
    this.told = options?.told;
  }
}

/** The rate-limit bucket of a valid key, or of a client address that sent none (never banned). */
export interface BucketRef {
  readonly kind: 'key' | 'address';
  readonly id: string;
}

/** The mock's clock: its time is `frozenAt ?? real() + offsetMs` (mocks/clock.ts). */
export interface ClockState {
  readonly offsetMs: number;
  readonly frozenAt: number | null;
}

/** An enabled rule, as the request path tries it. */
export interface ActiveRule extends StoredRule {
  readonly id: string;
}

/** What the request path reads of the control store: one object until a change. */
export interface ControlView {
  /** Rises with every change (a shared engine's limiter counts nothing against an older one). */
  readonly version: number;
  readonly clock: ClockState;
  /** Enabled rules only, newest first. */
  readonly rules: readonly ActiveRule[];
}

/** A rule with its switch and its counts. */
export interface ArmedRule extends ActiveRule {
  readonly enabled: boolean;
  readonly matched: number;
  readonly fired: number;
}

/**
 * Thrown by a shared engine's limiter when the view it was given is older than the stored one: it
 * counted nothing, and the core reads the view again (`view(true)`) and takes again.
 */
export class StaleControlError extends Error {
  override readonly name = 'StaleControlError';
}

/** The armed rules and the clock. Every method may answer a promise (a shared engine does). */
export interface ControlStore {
  /** Memory: the same object until a change (no promise). Shared: cached, read again when `fresh`. */
  view(fresh?: boolean): Awaitable<ControlView>;
  /** The view as last read (mock.clock.now() is synchronous). */
  readonly last: ControlView;
  /** Arms a rule (id r1, r2…); undefined when MAX_RULES are armed. */
  arm(rule: StoredRule): Awaitable<ArmedRule | undefined>;
  /** Every armed rule, newest first. */
  list(): Awaitable<readonly ArmedRule[]>;
  enable(id: string, enabled: boolean): Awaitable<ArmedRule | undefined>;
  /** Disarms one rule, or every rule when no id is given; answers how many went. */
  disarm(id?: string): Awaitable<number>;
  /** Counts one match of the rule; answers whether it fires (decideFire, in one atomic step). */
  fire(id: string): Awaitable<boolean>;
  /**
   * Sets the clock if the view is still at `version` (the one the change was computed from), bumping
   * it; answers false, changing nothing, when another change (another replica's) came first.
   */
  setClock(clock: ClockState, version: number): Awaitable<boolean>;
}

export interface StoredPet {
  readonly id: number;
  readonly status: PetStatus | undefined;
  /** The pet as its JSON answer. */
  readonly json: string;
}

/** The pets. */
export interface Store {
  /** How many pets are stored. */
  count(): Awaitable<number>;
  /**
   * The JSON array of at most `limit` pets in ascending id order, optionally of one status, as UTF-8
   * (cached as bytes: a list is encoded once, not once per answer).
   */
  list(limit: number, status: PetStatus | undefined): Awaitable<Uint8Array<ArrayBuffer>>;
  /** The pet's JSON, or undefined. */
  get(id: number): Awaitable<string | undefined>;
  /** Stores a pet exactly as given (no trimming), or answers undefined when the store is full. */
  create(pet: NewPet): Awaitable<StoredPet | undefined>;
  /** Empties the store and restarts ids at 1. */
  clear(): Awaitable<void>;
}

export interface RateDecision {
  /** False when limited or banned: answer 429. */
  readonly allowed: boolean;
  readonly banned: boolean;
  /** The window with fewer requests remaining (the one that limited, when not allowed). */
  readonly window: 'minute' | 'day';
  /** X-RateLimit-Limit: that window's limit. */
  readonly limit: number;
  /** X-RateLimit-Remaining, after this request. */
  readonly remaining: number;
  /** X-RateLimit-Reset: that window's end (or the ban's), Unix seconds. */
  readonly reset: number;
  /** Retry-After in whole seconds, at least 1 (meaningful when not allowed). */
  readonly retryAfter: number;
}

/** A bucket's windows as they stand at `now`, counting nothing. */
export interface WindowsPeek {
  readonly minute: { readonly limit: number; readonly remaining: number; readonly reset: number };
  readonly day: { readonly limit: number; readonly remaining: number; readonly reset: number };
  /** The ban's end (ms), or null. */
  readonly bannedUntil: number | null;
}

/** Per-bucket rate limits (see rate-limiter.ts for the rules); an address's bucket is never banned. */
export interface RateLimiter {
  /**
   * Counts one request of a bucket (a key, or a client address) at `now` (ms, the mock's time); says
   * whether it may pass. A shared engine given the view's `version` throws StaleControlError when the
   * stored one is newer (counting nothing).
   */
  take(bucket: BucketRef, limits: Limits, now: number, version?: number): Awaitable<RateDecision>;
  /** The bucket's windows at `now`, counting nothing. */
  peek(bucket: BucketRef, limits: Limits, now: number): Awaitable<WindowsPeek>;
  /** The start (ms) of the latest minute window any bucket has counted in; undefined: none counted. */
  latestWindow(): Awaitable<number | undefined>;
  /** Forgets every bucket. */
  reset(): Awaitable<void>;
  /** Buckets held now, live or not yet swept. */
  count(): Awaitable<number>;
}

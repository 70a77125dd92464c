// What a mock remembers between requests, behind the small interfaces the core sees: a MockState
// of a Store of pets and a RateLimiter. Their methods may answer with a promise (a remote engine
// does), and the core awaits them; the in-memory engine (memory-state.ts, the default) answers at
// once, so its path costs no more than an await. The shared engine (mocks/postgres/, PostgreSQL) is
// one more adapter returning a MockState: replicas on one database behave as one mock. An engine
// that cannot reach its storage now throws StateUnavailableError, which the core answers with 503
// `state_unavailable` (the next request may succeed).
import type { Limits, NewPet, PetStatus } from '../openapi/index.js';

/** A value now, or a promise of it. */
export type Awaitable<T> = T | Promise<T>;

export interface MockState {
  readonly store: Store;
  /** One limiter for every bucket: a key's and a client address's are kept apart by bucketId. */
  readonly limiter: RateLimiter;
  /**
   * At start: the seeded pets (an engine shared by replicas seeds them once, for all). What it answers
   * is the engine's own (the core reads nothing of it).
   */
  seed(pets: readonly NewPet[]): Awaitable<unknown>;
  /** Back to these pets, ids from 1, with every rate-limit bucket empty. */
  reset(pets: readonly NewPet[]): Awaitable<void>;
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
}

/** The rate-limit bucket of a valid key, or of a client address that sent none. */
export const bucketId = {
  key: (key: string): string => `key ${key}`,
  address: (address: string): string => `address ${address}`,
};

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

/** Per-bucket rate limits (see rate-limiter.ts for the rules); an address's bucket is never banned. */
export interface RateLimiter {
  /** Counts one request of a bucket (a key, or a client address) at `now` (ms); says whether it may pass. */
  take(bucket: string, limits: Limits, now: number): Awaitable<RateDecision>;
  /** Forgets every bucket. */
  reset(): Awaitable<void>;
  /** Buckets held now, live or not yet swept. */
  count(): Awaitable<number>;
}

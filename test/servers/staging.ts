// A shared staging service, as the suite meets it in CI: pets present before the run, and another
// client of the same key that creates pets (with random statuses) and spends the key's window while
// the suite runs. The reference keeps the contract; everything the suite finds here is a false positive.
import type { FakeClock } from './fake-clock.js';
import {
  createReference,
  type Handler,
  type RawRequest,
  type RawResponse,
  REFERENCE_KEY,
} from './reference.js';

export interface StagingOptions {
  readonly clock?: FakeClock;
  /** Pets present before the run. Default 250. */
  readonly pets?: number;
  /** The key's limit per minute. Default 100 000. */
  readonly perMinute?: number;
  /** Seeds the other client's choices. Default 1. */
  readonly seed?: number;
  readonly others?: {
    /** The other client creates a pet before every n-th request of the suite. Default 3. */
    readonly createEvery?: number;
    /** And lists with the key before every n-th, spending its window. Default 4. */
    readonly spendKeyEvery?: number;
  };
}

const STATUSES = ['available', 'pending', 'sold'] as const;

/** A small deterministic generator (mulberry32): the other client's choices, the same for one seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export interface Staging {
  readonly handler: Handler;
  /** What the other client did. */
  readonly others: { created: number; spent: number };
}

export function createStaging(options: StagingOptions = {}): Staging {
  const reference = createReference({
    pets: options.pets ?? 250,
    perMinute: options.perMinute ?? 100_000,
    ...(options.clock === undefined ? {} : { now: options.clock.now }),
  });
  const next = random(options.seed ?? 1);
  const createEvery = options.others?.createEvery ?? 3;
  const spendKeyEvery = options.others?.spendKeyEvery ?? 4;
  const others = { created: 0, spent: 0 };
  let requests = 0;
  /** What the key's last response said was left: a polite client leaves the last few to others. */
  let remaining = Number.POSITIVE_INFINITY;
  const authorization = { authorization: `Bearer ${REFERENCE_KEY}` };
  const other = (request: RawRequest): RawResponse => {
    const response = reference(request);
    const left = Number(response.headers['x-ratelimit-remaining']);
    if (response.status !== 401 && Number.isFinite(left)) remaining = left;
    return response;
  };
  const handler = (request: RawRequest): RawResponse => {
    requests += 1;
    if (remaining > 5 && requests % createEvery === 0) {
      const status = STATUSES[Math.floor(next() * STATUSES.length)] ?? 'available';
      const body = JSON.stringify({
        name: `Other ${others.created + 1}`,
        categoryId: 1 + Math.floor(next() * 9),
        status,
      });
      other({
        method: 'POST',
        pathname: '/v1/pets',
        query: new URLSearchParams(),
        headers: { ...authorization, 'content-type': 'application/json' },
        body,
      });
      others.created += 1;
    }
    if (remaining > 5 && requests % spendKeyEvery === 0) {
      other({
        method: 'GET',
        pathname: '/v1/pets',
        query: new URLSearchParams('limit=1'),
        headers: authorization,
        body: '',
      });
      others.spent += 1;
    }
    const response = reference(request);
    const left = Number(response.headers['x-ratelimit-remaining']);
    if (/^bearer test-key$/i.test(request.headers.authorization ?? '') && Number.isFinite(left))
      remaining = left;
    return response;
  };
  return { handler, others };
}

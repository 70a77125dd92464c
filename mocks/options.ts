// The mock's options, normalised once where they enter (createMock). Every option has a default.
import type { NewPet } from '../openapi/index.js';
import type { RuleInput } from './control-types.js';
import { JOURNAL_LIMIT } from './journal.js';
import { demoKeysFile, type KeysFile, parseKeysFile, type ResolvedKey, resolveKeys } from './keys.js';
import { checkPets } from './pets.js';
import { normalizeRules, type StoredRule } from './rules.js';
import { seedPets } from './seed-pets.js';
import type { MockState } from './state.js';

/** Where the mock writes one line per request and any internal failure. Default: silent. */
export interface Logger {
  info(line: string): void;
  error(line: string): void;
}

/** A fixed delay in ms, or a range each request draws from uniformly. */
export type Latency = number | { readonly min: number; readonly max: number };

export interface MockOptions {
  /** Seed of the faker that makes the pets. Default 42. */
  seed?: number | undefined;
  /**
   * How many pets are seeded (generated from `seed`), or the pets themselves: NewPets of
   * openapi.yaml (a Pet's `id`, if given, must be its place, from 1). Default 50.
   */
  pets?: number | readonly NewPet[] | undefined;
  /** The keys file (format in docs/mock.md), already parsed. Default: the demo keys of fixtures/api-keys.json. */
  keys?: KeysFile | undefined;
  /** The time in ms since the epoch; rate-limit windows and the journal read it. Default `Date.now`. */
  clock?: (() => number) | undefined;
  /** Added before every answer. Default 0. `Prefer: delay=MS` replaces it for one request. */
  latency?: Latency | undefined;
  /** A number in [0, 1) each call: where a latency range is drawn from. Default `Math.random`. */
  random?: (() => number) | undefined;
  /** Default: silent. */
  logger?: Logger | undefined;
  /** Most pets the store holds; createPet answers 507 `store_full` beyond. Default 100,000. */
  maxPets?: number | undefined;
  /**
   * Most requests the journal keeps (it also keeps no more than 2 MiB of them). Default 1,000; 0
   * keeps none, for a load test (the log line and `observe` still see every request).
   */
  journalLimit?: number | undefined;
  /**
   * Where the pets and the rate-limit buckets live. Default: this mock's memory. A state shared by
   * replicas (`await connectState(url)` from `petkit/postgres`) makes every mock on it one mock; the
   * caller closes it. See docs/mock.md.
   */
  state?: MockState | undefined;
  /**
   * Rules armed at start (as `POST /__petkit/rules` arms them; `--rules FILE`). With a shared state,
   * only the replica that seeds it arms them. Default none.
   */
  rules?: readonly RuleInput[] | undefined;
}

export interface NormalizedMockOptions {
  readonly seed: number;
  /** How many pets a reset starts from. */
  readonly pets: number;
  /** The pets given by the `pets` option, checked; undefined when they are generated from `seed`. */
  readonly fixtures: readonly NewPet[] | undefined;
  readonly keys: KeysFile;
  /** The keys file's keys, resolved once (with their limits). */
  readonly resolvedKeys: readonly ResolvedKey[];
  /** The real time (ms): the mock's clock is this moved or frozen (`mock.clock`). */
  readonly clock: () => number;
  readonly latency: { readonly min: number; readonly max: number };
  readonly random: () => number;
  readonly logger: Logger;
  readonly maxPets: number;
  readonly journalLimit: number;
  /** The state given; undefined: the mock's memory. */
  readonly state: MockState | undefined;
  /** The rules armed at seed, checked. */
  readonly rules: readonly StoredRule[];
}

export const DEFAULT_PORT = 4010;
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_SEED = 42;
export const DEFAULT_PETS = 50;
export const DEFAULT_MAX_PETS = 100_000;
/** The largest seed: faker's generator takes a 32-bit one. */
export const MAX_SEED = 2 ** 32 - 1;
/** Most entries a journal may be asked to keep (its 2 MiB bound binds long before). */
export const MAX_JOURNAL_LIMIT = 100_000;
/** Longest latency accepted, in ms. */
export const MAX_LATENCY_MS = 60_000;

/** A MockOptions value that cannot be used. */
export class MockOptionsError extends Error {
  override readonly name = 'MockOptionsError';
}

export const silentLogger: Logger = { info: () => undefined, error: () => undefined };

function wholeNumber(name: string, value: number, min: number, max: number): number {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new MockOptionsError(`Option ${name} must be an integer from ${min} to ${max}, got ${value}.`);
  }
  return value;
}

/** A state option that is a MockState (a URL string is the usual mistake: createMock does not connect). */
function stateOption(state: unknown): MockState | undefined {
  if (state === undefined) return undefined;
  const candidate = state as Partial<MockState> | null;
  if (
    typeof candidate !== 'object' ||
    candidate === null ||
    typeof candidate.store !== 'object' ||
    typeof candidate.limiter !== 'object' ||
    typeof candidate.control !== 'object' ||
    typeof candidate.seed !== 'function' ||
    typeof candidate.reset !== 'function'
  ) {
    const given = typeof state === 'string' ? 'a string' : state === null ? 'null' : typeof state;
    throw new MockOptionsError(
      `Option state must be a state object such as await connectState(url) from petkit/postgres, got ${given}.`,
    );
  }
  return candidate as MockState;
}

/** What a value is, for a message: `a string`, `null`, `an array`. */
export function kindOf(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/**
 * The options' shape, for callers without types: each wrong one was taken, and failed later with
 * no word of the option (`createMock(null)`: "Cannot read properties of null"; a `logger` without
 * `info`, a `clock` or `random` not a function: every request rejected with "logger.info is not a
 * function"; `rules` not an array: "inputs.map is not a function").
 */
function checkShape(options: unknown): asserts options is MockOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new MockOptionsError(`Options must be an object such as { seed: 42 }, got ${kindOf(options)}.`);
  const { logger, clock, random, rules } = options as Record<string, unknown>;
  for (const [name, value] of [
    ['clock', clock],
    ['random', random],
  ] as const) {
    if (value !== undefined && typeof value !== 'function')
      throw new MockOptionsError(`Option ${name} must be a function, got ${kindOf(value)}.`);
  }
  if (logger !== undefined) {
    const { info, error } = (logger ?? {}) as Partial<Record<string, unknown>>;
    if (
      typeof logger !== 'object' ||
      logger === null ||
      typeof info !== 'function' ||
      typeof error !== 'function'
    )
      throw new MockOptionsError(
        `Option logger must be an object with functions info(line) and error(line), such as console; got ${kindOf(logger)}${typeof logger === 'object' && logger !== null ? ` with ${typeof info === 'function' ? 'no error' : 'no info'} function` : ''}.`,
      );
  }
  if (rules !== undefined && !Array.isArray(rules))
    throw new MockOptionsError(`Option rules must be an array of rules, got ${kindOf(rules)}.`);
  checkServerShape(options as Record<string, unknown>);
}

/**
 * startServer's own options, which it hands to createMock with the rest before it listens (unless
 * given a `mock`): checked here, so that nothing listens. A `port` given as a string ("4010", "abc")
 * was taken by node as the path of a Unix socket, created in the working folder, and the server's
 * url was `http://undefined:undefined/v1`; a `host` not a string failed once the port was bound
 * ("listening.host.toLowerCase is not a function"), the server never returned and holding the process
 * open; an empty `host` bound every interface; `control: true` and `timeouts: 'x'` were taken as the
 * defaults.
 */
/**
 * startServer's options when it is given a `mock` (createMock, which checks the rest, is not called
 * then): the object itself, the server's own, and the mock. `startServer({ mock, host: 123 })` bound
 * its port, then threw, and held the process open; `startServer(null)` and `{ mock: {} }` threw
 * TypeErrors.
 */
export function checkServerOptions(options: unknown): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new MockOptionsError(`Options must be an object such as { port: 4010 }, got ${kindOf(options)}.`);
  const fields = options as Record<string, unknown>;
  checkServerShape(fields);
  if ('mock' in fields) {
    const { mock } = fields;
    if (
      typeof mock !== 'object' ||
      mock === null ||
      typeof (mock as { answer?: unknown }).answer !== 'function' ||
      typeof (mock as { clock?: { now?: unknown } }).clock?.now !== 'function'
    )
      throw new MockOptionsError(`Option mock must be a mock made by createMock(), got ${kindOf(mock)}.`);
  }
}

function checkServerShape({ port, host, control, timeouts }: Record<string, unknown>): void {
  if (port !== undefined && (!Number.isSafeInteger(port) || (port as number) < 0 || (port as number) > 65535))
    throw new MockOptionsError(
      `Option port must be an integer from 0 to 65535 (0 picks a free one), got ${typeof port === 'string' ? `"${port}" (a string)` : String(port)}.`,
    );
  if (host !== undefined && (typeof host !== 'string' || host.trim() === ''))
    throw new MockOptionsError(
      `Option host must name an address to bind, such as '127.0.0.1' or '0.0.0.0' (every interface), got ${typeof host === 'string' ? `"${host}"` : kindOf(host)}.`,
    );
  if (control !== undefined && control !== false && (typeof control !== 'object' || control === null))
    throw new MockOptionsError(
      `Option control must be false (off) or an object such as { origins: ['http://localhost:5173'] }, got ${kindOf(control)}.`,
    );
  if (timeouts !== undefined && (typeof timeouts !== 'object' || timeouts === null))
    throw new MockOptionsError(
      `Option timeouts must be an object such as { headersMs: 10000 }, got ${kindOf(timeouts)}.`,
    );
}

/** The latest time a Date holds, in ms since the epoch. */
const MAX_TIME_MS = 8.64e15;

/**
 * A given clock, each reading checked: one that answered a string, NaN or a Date made every answer's
 * Date header "Invalid Date" and X-RateLimit-Reset "NaN", and one before the epoch answered the first
 * request 429. Throws a MockOptionsError naming the option (the answer's 500, or mock.request's
 * rejection). The default clock is not wrapped: an answer reads it several times.
 */
function checkedClock(clock: () => number): () => number {
  return () => {
    const now = clock();
    if (typeof now !== 'number' || !(now >= 0 && now <= MAX_TIME_MS))
      throw new MockOptionsError(
        `Option clock must return the time in ms since the epoch, as Date.now() does; it returned ${typeof now === 'number' ? now : kindOf(now)}.`,
      );
    return now;
  };
}

/** A given random, each draw checked to be in [0, 1): one of 2 drew latencies past the range's maximum. */
function checkedRandom(random: () => number): () => number {
  return () => {
    const drawn = random();
    if (typeof drawn !== 'number' || !(drawn >= 0 && drawn < 1))
      throw new MockOptionsError(
        `Option random must return a number in [0, 1), as Math.random() does; it returned ${typeof drawn === 'number' ? drawn : kindOf(drawn)}.`,
      );
    return drawn;
  };
}

export function normalizeOptions(options: MockOptions = {}): NormalizedMockOptions {
  checkShape(options);
  const maxPets = wholeNumber('maxPets', options.maxPets ?? DEFAULT_MAX_PETS, 1, Number.MAX_SAFE_INTEGER);
  const latency = options.latency ?? 0;
  const [min, max] = typeof latency === 'number' ? [latency, latency] : [latency.min, latency.max];
  wholeNumber('latency.min', min, 0, MAX_LATENCY_MS);
  wholeNumber('latency.max', max, min, MAX_LATENCY_MS);
  const keys =
    options.keys === undefined ? demoKeysFile() : parseKeysFile(options.keys, 'given in the keys option');
  const resolvedKeys = resolveKeys(keys);
  const fixtures =
    options.pets === undefined || typeof options.pets === 'number' ? undefined : petsOption(options.pets);
  if (fixtures !== undefined) fitsStore(fixtures, maxPets);
  const pets = fixtures?.length ?? (options.pets as number | undefined) ?? DEFAULT_PETS;
  const seed = wholeNumber('seed', options.seed ?? DEFAULT_SEED, 0, MAX_SEED);
  return {
    seed,
    pets: wholeNumber('pets', pets, 0, maxPets),
    fixtures,
    keys,
    resolvedKeys,
    clock: options.clock === undefined ? Date.now : checkedClock(options.clock),
    latency: { min, max },
    random: options.random === undefined ? Math.random : checkedRandom(options.random),
    logger: options.logger ?? silentLogger,
    maxPets,
    journalLimit: wholeNumber('journalLimit', options.journalLimit ?? JOURNAL_LIMIT, 0, MAX_JOURNAL_LIMIT),
    state: stateOption(options.state),
    rules: options.rules === undefined ? [] : normalizeRules(options.rules, { seed, keys: resolvedKeys }),
  };
}

/** The pets of a `pets` option given as pets, checked against openapi.yaml's NewPet. */
export function petsOption(value: unknown): NewPet[] {
  const checked = checkPets(value);
  if ('fault' in checked) throw new MockOptionsError(`Option ${checked.fault}.`);
  return checked.pets;
}

/** What a reset starts from; unset fields are the mock's options. */
export interface ResetOptions {
  /** Seed of the generated pets. */
  seed?: number | undefined;
  /** How many pets are generated, or the pets themselves (as the `pets` option). */
  pets?: number | readonly NewPet[] | undefined;
}

/** The pets a reset starts from: the mock's own (`seeded`) unless the options say otherwise. */
export function resetPets(
  options: ResetOptions,
  mock: NormalizedMockOptions,
  seeded: readonly NewPet[],
): readonly NewPet[] {
  // A caller without types: `reset(null)` threw "Cannot destructure property 'seed' of 'options'".
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new MockOptionsError(`Reset options must be an object { seed?, pets? }, got ${kindOf(options)}.`);
  const { seed, pets } = options;
  if (seed === undefined && pets === undefined) return seeded;
  if (pets !== undefined && typeof pets !== 'number') {
    if (seed !== undefined) throw new MockOptionsError('Reset takes a seed or a list of pets, not both.');
    return fitsStore(petsOption(pets), mock.maxPets);
  }
  return seedPets(
    wholeNumber('seed', seed ?? mock.seed, 0, MAX_SEED),
    wholeNumber('pets', pets ?? mock.pets, 0, mock.maxPets),
  );
}

/** Pets given as a list, no more than the store holds. */
function fitsStore(pets: NewPet[], maxPets: number): NewPet[] {
  if (pets.length > maxPets) {
    throw new MockOptionsError(
      `Option pets gives ${pets.length} pets; the store holds ${maxPets} (maxPets).`,
    );
  }
  return pets;
}

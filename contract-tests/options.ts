// The suite's options, normalised once where they enter. Every option and its default.
import { setTimeout as wait } from 'node:timers/promises';
import { type SchemeMissing, withoutScheme } from '../openapi/index.js';
import { apiKeyFault } from './api-key.js';
import { type CheckId, isCheckId } from './checks.js';
import { ContractAbort, interrupted } from './errors.js';
import type { Exchange } from './exchange.js';
import { type Connect, connectTarget } from './http/connect.js';
import { METHOD_IDS, type MethodId } from './model/types.js';
import { createRedactor, type Redactor } from './redaction.js';

export interface Progress {
  readonly phase: string;
  readonly requests: number;
  /** The pace in force, requests a minute (undefined until learnt). */
  readonly maxRpm?: number;
  readonly exchange?: Exchange;
  /**
   * A wait begins for a rate-limit window to reset: the key's, or the anonymous one (requests without a
   * valid key, counted apart by the target); `untilMs` when it ends. The next exchange ends it.
   */
  readonly waiting?: { readonly window: 'key' | 'anonymous'; readonly untilMs: number };
}

export interface ContractOptions {
  /** The target's base URL, with its version prefix: `http://127.0.0.1:4010/v1`. Required. */
  readonly baseUrl: string;
  /**
   * The bearer key. Required; never printed. Visible ASCII only (no white space, no control or
   * non-ASCII character), at most 8192 characters: else the run stops at start (invalid_options).
   */
  readonly apiKey: string;
  /** Send no POST (nor any other write). Default false. */
  readonly readOnly?: boolean;
  /** Only these checks. Default: all but the opt-in ones. */
  readonly checks?: readonly string[];
  /** Not these checks. Default none. */
  readonly skip?: readonly string[];
  /** Only these operations (operationIds of openapi.yaml). Default: all. */
  readonly operations?: readonly string[];
  /** Not these operations. Default none. */
  readonly skipOperations?: readonly string[];
  /** Generated cases per property, on top of the hand-derived ones. Default 20. */
  readonly examples?: number;
  /** fast-check's seed (a 32-bit integer). Default: a random one, printed in the report. */
  readonly seed?: number;
  /** Run rate_limit_behaviour, which exhausts a window on purpose. Default false. */
  readonly probeRateLimit?: boolean;
  /** Run rate_limit_ban, which drives the key into its 5-minute ban on purpose. Default false. */
  readonly probeBan?: boolean;
  /** Requests per minute at most. Default: the lowest X-RateLimit-Limit of the key's responses. */
  readonly maxRpm?: number;
  /** Per request, in milliseconds. Default 10 000. */
  readonly timeoutMs?: number;
  /**
   * The most requests the run sends. Default: two minutes of its pace (2 × the requests per minute in
   * force), so a 60-a-minute key spends at most 120; boundaries are sent first, generated cases as the
   * budget allows.
   */
  readonly budget?: number;
  /**
   * The longest the run takes before its opt-in probes, in ms: no wait for a window may end past it;
   * what it did not reach is reported skipped, and why. Default 75 000 (`--time-budget 75`).
   */
  readonly timeBudgetMs?: number;
  /** Longest wait for a window or a Retry-After before stopping (exit 2). Default 65 000 ms. */
  readonly maxWaitMs?: number;
  /** 429s in a row before stopping rather than risking the key's ban. Default 3. */
  readonly maxRetries?: number;
  /** First step of the exponential backoff, and the spread of the jitter. Default 500 ms. */
  readonly backoffBaseMs?: number;
  /** Injected for tests: default global fetch, Date.now, setTimeout, Math.random. */
  readonly fetch?: typeof fetch;
  /**
   * Opens the raw connection of the few requests whose bytes the suite reads itself (the wire probe,
   * http/wire-probe.ts). Default node:net or node:tls; none when `fetch` is injected without it (a
   * test's fetch has no socket behind it), and then the wire probe sends nothing.
   */
  readonly connect?: Connect;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
  /** Called after every exchange (the CLI draws progress with it on a terminal). */
  readonly onProgress?: (progress: Progress) => void;
  /**
   * Stops the run when aborted (the CLI's on SIGINT and SIGTERM; its reason, a string, is named): the
   * request in flight and any wait end at once, and the report holds what was judged before it, the
   * rest skipped (verdict `aborted`, code `interrupted`, exit 2).
   */
  readonly signal?: AbortSignal;
  /**
   * Internal, for the ablation test (no CLI flag): the ways of judging and sending that are on.
   * Default all. 'baseline' is always on.
   */
  readonly methods?: readonly MethodId[];
}

export interface NormalizedOptions {
  readonly baseUrl: string;
  readonly apiKey: string;
  /** Hides the key in every form in what the run records and says (one per run: it is built from the key). */
  readonly redactor: Redactor;
  readonly readOnly: boolean;
  readonly checks: ReadonlySet<CheckId>;
  /** The operations tested; a request to another one is only ever a helper (listing pets). */
  readonly operations: ReadonlySet<string>;
  readonly examples: number;
  readonly seed: number;
  readonly probeRateLimit: boolean;
  readonly probeBan: boolean;
  /** Explicit budget; when undefined it is learnt from X-RateLimit-Limit (the lowest one seen). */
  readonly maxRpm: number | undefined;
  readonly timeoutMs: number;
  /** Explicit --budget; when undefined, two minutes of the pace once it is known. */
  readonly budget: number | undefined;
  /** The longest the run takes before its opt-in probes (waits for windows stop at it). */
  readonly timeBudgetMs: number;
  /** The longest the client waits for a window or a Retry-After before it stops instead. */
  readonly maxWaitMs: number;
  /** 429s in a row before the client stops rather than risk the key's ban. */
  readonly maxRetries: number;
  readonly backoffBaseMs: number;
  readonly fetch: typeof fetch;
  /** Undefined: the wire probe sends nothing (a test injected a fetch alone). */
  readonly connect: Connect | undefined;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly random: () => number;
  readonly onProgress: (progress: Progress) => void;
  /** Aborted: the run stops (every send and wait throws the `interrupted` ContractAbort). */
  readonly signal: AbortSignal | undefined;
  /** The methods on ('baseline' always among them). */
  readonly methods: ReadonlySet<MethodId>;
}

function invalid(message: string): never {
  throw new ContractAbort('invalid_options', message);
}

/** `unknown check "auth" (did you mean auth_enforced?)`, for each unknown name. */
function unknownNames(what: string, unknown: readonly string[], valid: readonly string[]): string {
  return unknown
    .map((name) => {
      const near = nearest(name, valid);
      return `unknown ${what} "${name}"${near.length > 0 ? ` (did you mean ${near.join(' or ')}?)` : ''}`;
    })
    .join('; ');
}

function checkList(names: readonly string[], flag: string, all: readonly CheckId[]): CheckId[] {
  const unknown = names.filter((name) => !isCheckId(name));
  if (unknown.length > 0)
    invalid(`${flag}: ${unknownNames('check', unknown, all)}. The checks: ${all.join(', ')}.`);
  return names.filter(isCheckId);
}

function operationList(names: readonly string[], flag: string, all: readonly string[]): string[] {
  const unknown = names.filter((name) => !all.includes(name));
  if (unknown.length > 0)
    invalid(`${flag}: ${unknownNames('operation', unknown, all)}. The operations: ${all.join(', ')}.`);
  return [...names];
}

/** The valid names closest to a wrong one: those that contain it or it them, else within a few edits. */
export function nearest(name: string, valid: readonly string[]): string[] {
  const lower = name.toLowerCase();
  const containing = valid.filter(
    (candidate) => candidate.toLowerCase().includes(lower) || lower.includes(candidate.toLowerCase()),
  );
  if (containing.length > 0 && lower.length >= 3) return containing.slice(0, 3);
  const scored = valid
    .map((candidate) => ({ candidate, distance: editDistance(lower, candidate.toLowerCase()) }))
    .filter(({ distance }) => distance <= Math.max(2, Math.floor(lower.length / 3)))
    .sort((a, b) => a.distance - b.distance);
  return scored.slice(0, 3).map(({ candidate }) => candidate);
}

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const next = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      next.push(Math.min((row[j] ?? 0) + 1, (next[j - 1] ?? 0) + 1, (row[j - 1] ?? 0) + cost));
    }
    row = next;
  }
  return row[b.length] ?? 0;
}

function positiveInteger(
  value: number | undefined,
  name: string,
  fallback: number | undefined,
): number | undefined {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) invalid(`${name} must be a positive integer, got ${value}.`);
  return value;
}

export function normalizeOptions(
  options: ContractOptions,
  optIn: readonly CheckId[],
  all: readonly CheckId[],
  operationIds: readonly string[] = [],
): NormalizedOptions {
  if (!options.baseUrl) invalid('A base URL is required (--base-url or CONTRACT_BASE_URL).');
  if (!options.apiKey) invalid('An API key is required (--api-key or CONTRACT_API_KEY).');
  // Before anything that quotes what the user gave: the key is checked in words that never show it,
  // and every later message is shown with the key hidden (a check name, a base URL that is the key).
  const fault = apiKeyFault(options.apiKey);
  if (fault !== undefined) invalid(fault);
  const redactor = createRedactor(options.apiKey);
  try {
    return selection(options, optIn, all, operationIds, redactor);
  } catch (cause) {
    if (!(cause instanceof ContractAbort)) throw cause;
    throw new ContractAbort(cause.code, redactor.response(cause.message));
  }
}

const isHttpUrl = (text: string) => URL.canParse(text) && /^https?:$/.test(new URL(text).protocol);

/** The refusal of a base URL without its scheme, with the URL meant. */
function schemeMissing(given: string, meant: SchemeMissing): never {
  if (meant.credentials)
    invalid(
      'The base URL has no scheme (http:// or https://), and must not carry a user or password (user:password@host; not shown): the suite sends the key from --api-key, as a bearer token.',
    );
  const other = meant.suggested.startsWith('https:') ? ' (http:// for a server without TLS)' : '';
  invalid(`The base URL "${given}" has no scheme: did you mean ${meant.suggested}${other}?`);
}

function selection(
  options: ContractOptions,
  optIn: readonly CheckId[],
  all: readonly CheckId[],
  operationIds: readonly string[],
  redactor: Redactor,
): NormalizedOptions {
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    if (isHttpUrl(options.apiKey))
      invalid(
        '--base-url and --api-key look swapped: the API key is a URL, the base URL is not (neither is shown).',
      );
    const meant = withoutScheme(options.baseUrl);
    if (meant !== undefined) schemeMissing(options.baseUrl, meant);
    invalid(`The base URL "${options.baseUrl}" is not a URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    // `localhost:4010/v1` is a URL, of the scheme `localhost:`: a host and port without http://.
    const meant = withoutScheme(options.baseUrl);
    if (meant !== undefined) schemeMissing(options.baseUrl, meant);
    invalid(`The base URL must be http(s), got ${url.protocol}.`);
  }
  // A password in the URL would be printed in every report and curl line: refused, and not shown.
  if (url.username !== '' || url.password !== '')
    invalid(
      'The base URL must not carry a user or password (user:password@host; not shown): the suite sends the key from --api-key, as a bearer token.',
    );
  // Every request's path is put after it: a query or fragment there would end up in the middle.
  if (/[?#]/.test(options.baseUrl))
    invalid(
      `The base URL must be the API's base path, with no ?query or #fragment: ${url.origin}${url.pathname}, for instance.`,
    );
  const wanted =
    options.checks === undefined
      ? all.filter((id) => !optIn.includes(id))
      : checkList(options.checks, '--checks', all);
  const skipped = checkList(options.skip ?? [], '--skip', all);
  const both = wanted.filter((id) => options.checks !== undefined && skipped.includes(id));
  if (both.length > 0) invalid(`--checks and --skip both name ${both.join(', ')}: give it to one of them.`);
  if (options.probeRateLimit === true && skipped.includes('rate_limit_behaviour'))
    invalid('--probe-rate-limit runs rate_limit_behaviour, which --skip leaves out: give one of them.');
  if (options.probeBan === true && skipped.includes('rate_limit_ban'))
    invalid('--probe-ban runs rate_limit_ban, which --skip leaves out: give one of them.');
  const onlyOperations =
    options.operations === undefined
      ? [...operationIds]
      : operationList(options.operations, '--operations', operationIds);
  const skippedOperations = operationList(options.skipOperations ?? [], '--skip-operations', operationIds);
  const bothOperations = onlyOperations.filter(
    (id) => options.operations !== undefined && skippedOperations.includes(id),
  );
  if (bothOperations.length > 0)
    invalid(
      `--operations and --skip-operations both name ${bothOperations.join(', ')}: give it to one of them.`,
    );
  const operations = new Set(onlyOperations.filter((id) => !skippedOperations.includes(id)));
  if (operations.size === 0)
    invalid('No operation left to test (--operations and --skip-operations exclude them all).');
  const checks = new Set(wanted.filter((id) => !skipped.includes(id)));
  if (options.probeRateLimit === true && !skipped.includes('rate_limit_behaviour'))
    checks.add('rate_limit_behaviour');
  if (options.probeBan === true && !skipped.includes('rate_limit_ban')) checks.add('rate_limit_ban');
  if (checks.size === 0) invalid('No check left to run (--checks and --skip exclude them all).');
  const random = options.random ?? Math.random;
  const seed = options.seed ?? Math.floor(random() * 2 ** 31);
  if (!Number.isInteger(seed) || seed < -(2 ** 31) || seed >= 2 ** 31)
    invalid(`--seed must be a 32-bit integer, got ${seed}.`);
  const examples = options.examples ?? 20;
  if (!Number.isInteger(examples) || examples < 0)
    invalid(`--examples must be an integer ≥ 0, got ${examples}.`);
  return {
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    apiKey: options.apiKey,
    redactor,
    readOnly: options.readOnly ?? false,
    checks,
    operations,
    examples,
    seed,
    probeRateLimit: checks.has('rate_limit_behaviour'),
    probeBan: checks.has('rate_limit_ban'),
    maxRpm: positiveInteger(options.maxRpm, '--max-rpm', undefined),
    timeoutMs: positiveInteger(options.timeoutMs, '--timeout', 10_000) ?? 10_000,
    budget: positiveInteger(options.budget, '--budget', undefined),
    timeBudgetMs: positiveInteger(options.timeBudgetMs, '--time-budget (ms)', 75_000) ?? 75_000,
    maxWaitMs: options.maxWaitMs ?? 65_000,
    maxRetries: options.maxRetries ?? 3,
    backoffBaseMs: options.backoffBaseMs ?? 500,
    fetch: options.fetch ?? globalThis.fetch,
    connect: options.connect ?? (options.fetch === undefined ? connectTarget : undefined),
    now: options.now ?? Date.now,
    sleep: stoppable(options.sleep ?? timer(options.signal), options.signal),
    random,
    onProgress: options.onProgress ?? (() => {}),
    signal: options.signal,
    methods: new Set<MethodId>(['baseline', ...(options.methods ?? METHOD_IDS)]),
  };
}

/** The default wait: a timer, cleared when the signal is aborted (it then holds no process open). */
function timer(signal: AbortSignal | undefined): (ms: number) => Promise<void> {
  return (ms) =>
    wait(ms, undefined, signal === undefined ? {} : { signal }).then(
      () => undefined,
      () => undefined,
    );
}

/**
 * A wait that ends with the `interrupted` ContractAbort as soon as the run's signal is aborted (or at
 * once, if it already is). The wait it wraps should end with the signal too (the default and the
 * CLI's do), or its timer keeps the process alive until it would have ended.
 */
function stoppable(
  sleep: (ms: number) => Promise<void>,
  signal: AbortSignal | undefined,
): (ms: number) => Promise<void> {
  if (signal === undefined) return sleep;
  return (ms) =>
    new Promise<void>((resolve, reject) => {
      if (signal.aborted) {
        reject(interrupted(signal));
        return;
      }
      const stop = () => reject(interrupted(signal));
      signal.addEventListener('abort', stop, { once: true });
      sleep(ms).then(
        () => {
          signal.removeEventListener('abort', stop);
          if (signal.aborted) reject(interrupted(signal));
          else resolve();
        },
        (cause: unknown) => {
          signal.removeEventListener('abort', stop);
          reject(cause);
        },
      );
    });
}

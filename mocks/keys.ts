// The keys file (DESIGN.md, "Demo keys"): its format, its plans' limits, and the check that turns a
// parsed JSON value into keys the mock can use. Pure: reading the file from disk is keys-file.ts.
import demoKeys from '../fixtures/api-keys.json' with { type: 'json' };

export type Plan = 'free' | 'pro' | 'business' | 'enterprise';

export interface KeyEntry {
  key: string;
  plan: Plan;
  /** Overrides the plan's per-minute limit; required for `enterprise`. */
  perMinute?: number;
  /** Overrides the plan's per-day limit; required for `enterprise`. */
  perDay?: number;
}

export interface KeysFile {
  keys: KeyEntry[];
  /**
   * The limits of requests without a valid key, counted per client address. Default: the Free
   * plan's. Raise them for a load test or a CI address that checks 401s often.
   */
  anonymous?: Limits;
}

/** A key with its limits settled. */
export interface ResolvedKey {
  readonly key: string;
  readonly plan: Plan;
  readonly perMinute: number;
  readonly perDay: number;
}

export interface Limits {
  readonly perMinute: number;
  readonly perDay: number;
}

export const PLAN_LIMITS: Readonly<Record<Exclude<Plan, 'enterprise'>, Limits>> = {
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1_000, perDay: 100_000 },
};

/** Requests without a valid key share a bucket per client address, by default with Free limits. */
export const ANONYMOUS_LIMITS: Limits = PLAN_LIMITS.free;

const PLANS: readonly string[] = ['free', 'pro', 'business', 'enterprise'];
/** Longer tokens are rejected unread, so comparing keys costs a bounded time. */
export const MAX_KEY_LENGTH = 512;

/** A keys file that cannot be used; `source` names the file (or "the keys option"). */
export class KeysFileError extends Error {
  override readonly name = 'KeysFileError';
  readonly source: string;
  constructor(source: string, fault: string, options?: ErrorOptions) {
    super(`Keys file ${source}: ${fault}`, options);
    this.source = source;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isLimit(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;
}

/** Checks a parsed keys file; throws KeysFileError naming the source and the first fault. */
export function parseKeysFile(value: unknown, source: string): KeysFile {
  if (!isRecord(value) || !Array.isArray(value.keys)) {
    throw new KeysFileError(
      source,
      'must be an object with a "keys" array, e.g. {"keys":[{"key":"k","plan":"free"}]}.',
    );
  }
  for (const name of Object.keys(value)) {
    if (name !== 'keys' && name !== 'anonymous') {
      throw new KeysFileError(source, `has an unknown property "${name}" (known: "keys", "anonymous").`);
    }
  }
  const seen = new Set<string>();
  const keys = value.keys.map((entry: unknown, i): KeyEntry => {
    const at = `keys[${i}]`;
    if (!isRecord(entry)) throw new KeysFileError(source, `${at} must be an object.`);
    for (const name of Object.keys(entry)) {
      if (!['key', 'plan', 'perMinute', 'perDay'].includes(name)) {
        throw new KeysFileError(source, `${at} has an unknown property "${name}".`);
      }
    }
    const { key, plan, perMinute, perDay } = entry;
    if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH || /\s/.test(key)) {
      throw new KeysFileError(
        source,
        `${at}.key must be a non-empty string without spaces, at most ${MAX_KEY_LENGTH} characters.`,
      );
    }
    if (seen.has(key)) throw new KeysFileError(source, `${at}.key "${key}" appears twice.`);
    seen.add(key);
    if (typeof plan !== 'string' || !PLANS.includes(plan)) {
      throw new KeysFileError(source, `${at}.plan must be one of ${PLANS.join(', ')}.`);
    }
    for (const [name, limit] of [
      ['perMinute', perMinute],
      ['perDay', perDay],
    ] as const) {
      if (limit !== undefined && !isLimit(limit)) {
        throw new KeysFileError(source, `${at}.${name} must be a positive integer.`);
      }
      if (limit === undefined && plan === 'enterprise') {
        throw new KeysFileError(source, `${at}.${name} is required for the enterprise plan.`);
      }
    }
    const parsed: KeyEntry = { key, plan: plan as Plan };
    if (perMinute !== undefined) parsed.perMinute = perMinute as number;
    if (perDay !== undefined) parsed.perDay = perDay as number;
    return parsed;
  });
  if (value.anonymous === undefined) return { keys };
  return { keys, anonymous: parseAnonymous(value.anonymous, source) };
}

function parseAnonymous(value: unknown, source: string): Limits {
  const shape = 'anonymous must be an object with positive integers perMinute and perDay';
  if (!isRecord(value)) throw new KeysFileError(source, `${shape}.`);
  for (const name of Object.keys(value)) {
    if (name !== 'perMinute' && name !== 'perDay') {
      throw new KeysFileError(source, `anonymous has an unknown property "${name}".`);
    }
  }
  const { perMinute, perDay } = value;
  if (!isLimit(perMinute) || !isLimit(perDay)) throw new KeysFileError(source, `${shape}.`);
  return { perMinute, perDay };
}

/** The limits of requests without a valid key: the file's, else the Free plan's. */
export function anonymousLimits(file: KeysFile): Limits {
  return file.anonymous ?? ANONYMOUS_LIMITS;
}

export function resolveKeys(file: KeysFile): ResolvedKey[] {
  return file.keys.map(({ key, plan, perMinute, perDay }) => {
    const base = plan === 'enterprise' ? undefined : PLAN_LIMITS[plan];
    return {
      key,
      plan,
      perMinute: perMinute ?? base?.perMinute ?? 0,
      perDay: perDay ?? base?.perDay ?? 0,
    };
  });
}

/** The demo keys of fixtures/api-keys.json: the mock's default. */
export function demoKeysFile(): KeysFile {
  return parseKeysFile(structuredClone(demoKeys), 'fixtures/api-keys.json');
}

// The keys file: its format (the schema is keys-schema.ts), its plans' limits, and the check that
// turns a parsed JSON value into keys the mock can use. Pure: reading the file from disk is keys-file.ts.
import demoKeys from '../fixtures/api-keys.json' with { type: 'json' };
import { type CompiledValidator, type Limits, PLAN_LIMITS } from '../openapi/index.js';
import { validateKeysFile as generated } from './keys-schema.gen.js';
import { messageOf, type PLANS } from './keys-schema.js';

export type { Limits } from '../openapi/index.js';
export { MAX_KEY_LENGTH } from './keys-schema.js';

export type Plan = (typeof PLANS)[number];

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

/** Requests without a valid key share a bucket per client address, by default with Free limits. */
export const ANONYMOUS_LIMITS: Limits = PLAN_LIMITS.free;

/** A keys file that cannot be used; `source` names the file (or "the keys option"). */
export class KeysFileError extends Error {
  override readonly name = 'KeysFileError';
  readonly source: string;
  constructor(source: string, fault: string, options?: ErrorOptions) {
    super(`Keys file ${source}: ${fault}`, options);
    this.source = source;
  }
}

/**
 * Checks a parsed keys file against its schema (keys-schema.ts) and for keys given twice; throws
 * KeysFileError naming the source and the first fault.
 */
const validateKeysFile = generated as CompiledValidator;

export function parseKeysFile(value: unknown, source: string): KeysFile {
  if (!validateKeysFile(value)) {
    const [error] = validateKeysFile.errors ?? [];
    throw new KeysFileError(source, `${error === undefined ? 'is not valid' : messageOf(error)}.`);
  }
  const file = value as KeysFile;
  // Where each key was first seen: a key given twice is named by its entries, never quoted (keys are
  // credentials, and the message reaches logs).
  const seen = new Map<string, number>();
  const keys = file.keys.map(({ key, plan, perMinute, perDay }, i): KeyEntry => {
    const unsendable = unsendableAt(key);
    if (unsendable !== undefined) throw new KeysFileError(source, `keys[${i}].key ${unsendable}.`);
    const first = seen.get(key);
    if (first !== undefined) throw new KeysFileError(source, `keys[${i}] repeats the key of keys[${first}].`);
    seen.set(key, i);
    const entry: KeyEntry = { key, plan };
    if (perMinute !== undefined) entry.perMinute = perMinute;
    if (perDay !== undefined) entry.perDay = perDay;
    return entry;
  });
  if (file.anonymous === undefined) return { keys };
  return { keys, anonymous: { perMinute: file.anonymous.perMinute, perDay: file.anonymous.perDay } };
}

/**
 * Why a key could never be sent, or undefined: a header's bytes are read as Latin-1 (node:http), a
 * Request refuses a character beyond (fetch, MSW), and a control character (C0, DEL, C1) is refused
 * by both. Such a key was taken, printed raw in the banner (an escape sequence written to the
 * terminal), and every request with it answered 401. Said by its place and code point, never quoting
 * the key.
 */
function unsendableAt(key: string): string | undefined {
  for (let i = 0; i < key.length; i += 1) {
    const unit = key.charCodeAt(i);
    const control = unit < 0x20 || (unit >= 0x7f && unit <= 0x9f);
    if (!control && unit <= 0xff) continue;
    const codePoint = (key.codePointAt(i) as number).toString(16).toUpperCase().padStart(4, '0');
    const kind = control ? 'a control character' : 'a character beyond Latin-1';
    return `has ${kind}, U+${codePoint}, at character ${i + 1}: no Authorization header can carry it (a key is printable ASCII, or Latin-1)`;
  }
  return undefined;
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

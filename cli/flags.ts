// What both commands share in reading their flags: the error for a flag they cannot use, and the one
// parser of integer flags.

/** A flag, or a flag's value, that the command cannot use: a one-line message and exit 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * An integer flag's value, undefined when the flag was not given. Digits only, a minus sign allowed:
 * white space is refused, not trimmed (`--port ' 80'`, a quoting slip in a script, was read as 80,
 * where most commands refuse it), as is a number past what a double holds exactly; and within `range`
 * when one is given. Else a UsageError naming the flag and the value as given.
 */
export function integerFlag(
  flag: string,
  raw: string | undefined,
  range?: { readonly min: number; readonly max: number },
): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  const integer = /^-?\d+$/.test(raw) && Number.isSafeInteger(value);
  if (range === undefined) {
    if (!integer) throw new UsageError(`${flag} must be an integer, got "${raw}".`);
  } else if (!integer || value < range.min || value > range.max) {
    const allowed =
      range.max === Number.MAX_SAFE_INTEGER ? `of ${range.min} or more` : `from ${range.min} to ${range.max}`;
    throw new UsageError(`${flag} must be an integer ${allowed}, got "${raw}".`);
  }
  return value;
}

/** A command's flags, as node:util parseArgs takes them (strings and booleans, `-h` the one short). */
export type FlagsConfig = Record<string, { type: 'string' | 'boolean'; short?: string }>;

/** Edit distance, for the nearest flag to one mistyped. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const next = [i];
    for (let j = 1; j <= b.length; j += 1) {
      next[j] = Math.min(
        (row[j] ?? 0) + 1,
        (next[j - 1] ?? 0) + 1,
        (row[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    row = next;
  }
  return row[b.length] ?? 0;
}

const NUMBER = /^-\d/;

/**
 * Checks argv against a command's flags before parseArgs reads it, so each mistake gets a message
 * of ours (never parseArgs' "argument is ambiguous"): an unknown flag names the nearest ones, a flag
 * without its value says so, a boolean given a value, a stray argument, a flag of `sources` given two
 * values (the same value twice is no conflict). A negative number is a
 * value (`--pets -1` reads as `--pets=-1`, and the flag's own check then refuses it). Answers the
 * argv parseArgs can read.
 */
export function checkedArgv(
  argv: readonly string[],
  flags: FlagsConfig,
  sources: readonly string[] = [],
): string[] {
  const names = Object.keys(flags);
  const out: string[] = [];
  /** The value each flag of `sources` was given. */
  const given = new Map<string, string>();
  /**
   * A flag that names what the command reads or writes (a file, a database), given twice with two
   * values: node's parseArgs keeps the last, so `--keys team.json --keys mine.json` served mine.json's
   * keys alone, without a word. Any other flag keeps its last value, so a script's default can be
   * overridden (`petkit mock --port 0 "$@"`).
   */
  const once = (name: string, value: string) => {
    if (!sources.includes(name)) return;
    const before = given.get(name);
    if (before !== undefined && before !== value)
      throw new UsageError(`--${name} is given twice ("${before}", then "${value}"); give it once.`);
    given.set(name, value);
  };
  for (let i = 0; i < argv.length; i += 1) {
    const token = argv[i] as string;
    const short = names.find(
      (name) => flags[name]?.short !== undefined && token === `-${flags[name]?.short}`,
    );
    if (short !== undefined) {
      out.push(`--${short}`);
      continue;
    }
    if (!token.startsWith('--') || token === '--') {
      throw new UsageError(
        token.startsWith('-')
          ? `unknown option ${token}.`
          : `unexpected argument "${token}"; every option is a --flag.`,
      );
    }
    const equals = token.indexOf('=');
    const name = token.slice(2, equals < 0 ? undefined : equals);
    const flag = flags[name];
    if (flag === undefined) {
      const near = names.filter((n) => distance(n, name) <= Math.max(1, Math.ceil(name.length / 3)));
      const hint = near.length > 0 ? ` Did you mean ${near.map((n) => `--${n}`).join(' or ')}?` : '';
      throw new UsageError(`unknown option --${name}.${hint}`);
    }
    if (flag.type === 'boolean') {
      if (equals >= 0) throw new UsageError(`--${name} takes no value.`);
      out.push(token);
      continue;
    }
    if (equals >= 0) {
      once(name, token.slice(equals + 1));
      out.push(token);
      continue;
    }
    const value = argv[i + 1];
    if (value === undefined || (value.startsWith('-') && !NUMBER.test(value))) {
      throw new UsageError(
        value === undefined
          ? `--${name} needs a value.`
          : `--${name} needs a value, got the option ${value}.`,
      );
    }
    once(name, value);
    out.push(`--${name}=${value}`);
    i += 1;
  }
  return out;
}

/**
 * A --host flag's value, `fallback` when not given. An empty one (`--host "$HOST"`, the variable
 * unset) is refused: node binds an empty host to every interface (`::`), so the mock or the proxy,
 * meant for this machine, was reachable from the whole network, and printed `http://:4011` as its URL.
 */
export function hostFlag(raw: string | undefined, fallback: string): string {
  if (raw === undefined) return fallback;
  if (raw.trim() === '')
    throw new UsageError(
      `--host must name an address to bind, got "${raw}"; e.g. 127.0.0.1, or 0.0.0.0 for every interface.`,
    );
  return raw;
}

/**
 * Why a listen failed, said so a user knows what to do: the port taken (another mock, Prism, a dev
 * server) or one below 1024 without the right to it; otherwise the error's code as it came.
 */
export function cannotListen(host: string, port: number, error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const where = `cannot listen on ${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (code === 'EADDRINUSE')
    return `${where}: the port is taken by another process (EADDRINUSE); --port N for another, --port 0 for any free one.`;
  if (code === 'EACCES')
    return `${where}: this user may not bind that port (EACCES: below 1024, most systems ask for root); --port 1024 or above, or --port 0 for any free one.`;
  return `${where} (${code ?? String(error)}).`;
}

/** The message for a listen that failed because --host names no address of this machine; else undefined. */
export function hostNotHere(host: string, code: string | undefined): string | undefined {
  if (code !== 'ENOTFOUND' && code !== 'EADDRNOTAVAIL' && code !== 'EAI_AGAIN') return undefined;
  return `--host ${host}: not an address of this machine (${code}); e.g. 127.0.0.1, or 0.0.0.0 for every interface.`;
}

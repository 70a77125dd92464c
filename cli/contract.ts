// `petkit contract`: parses flags, runs the engine, hands the report to a reporter. Nothing else.
import { resolve } from 'node:path';
import { setTimeout as wait } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import {
  CHECK_IDS,
  ContractAbort,
  type Progress,
  renderJson,
  renderJunit,
  renderPretty,
  runContract,
} from '../contract-tests/index.js';
import { createRedactor } from '../contract-tests/redaction.js';
import { printable } from '../contract-tests/reporters/printable.js';
import { recordContractHar } from './contract-har.js';
import { integerFlag, UsageError } from './flags.js';
import { petkitVersion } from './mock-har.js';
import { processOutput } from './output.js';
import { codeOf, fileFault, ownStream, writeOut } from './write-whole.js';

const HELP = `petkit contract: check a server against openapi.yaml, check by check

Usage:
  petkit contract --base-url URL --api-key KEY [options]

  --base-url URL       the server, with its version prefix (http://127.0.0.1:4010/v1); or CONTRACT_BASE_URL
  --api-key KEY        a bearer key it accepts (never printed; visible ASCII, no white space);
                       or CONTRACT_API_KEY
  --read-only          send no POST: safe against staging
  --reporter NAME      pretty (default), junit or json
  --output FILE        write the report there instead of to stdout
  --har FILE           also write every exchange of the run to FILE as HAR 1.2 (devtools open it;
                       the key shown as $API_KEY)
  --checks a,b         only these checks
  --skip a,b           not these checks
  --operations a,b     only these operations (listPets, createPet, getPet)
  --skip-operations a,b  not these operations
  --examples N         generated cases per property, besides the hand-derived ones (default 20)
  --seed N             repeat a run's cases (every report prints its seed)
  --probe-rate-limit   also run rate_limit_behaviour: exhaust a window on purpose
  --probe-ban          also run rate_limit_ban: drive the key into its 5-minute ban on purpose
                       (only for a target and a key you can lose for five minutes)
  --max-rpm N          at most N requests a minute, evenly paced (default: spend the key's window as
                       X-RateLimit-Remaining allows, less a margin of 5% for its other users)
  --budget N           at most N requests in all (default: two windows less their margins, 114 for
                       a 60-a-minute key); boundaries first, generated cases as the budget allows
  --time-budget S      at most S seconds before the opt-in probes (default 75); what it did not
                       reach is reported skipped, and why
  --timeout MS         per request (default 10000)

Checks: ${CHECK_IDS.join(', ')}

Exit status: 0 conformant, 1 a check failed, 2 could not run (bad arguments, target
unreachable, key rejected, rate limit would risk the key's ban) or was stopped (SIGINT, SIGTERM:
the reports and --har are written with what was done; a second signal quits at once).
`;

export interface Io {
  readonly stdout: { write(text: string): unknown; readonly isTTY?: boolean };
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean };
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Injected by tests: the run's clock and fetch (default Date.now, setTimeout, global fetch). */
  readonly clock?: { now(): number; sleep(ms: number): Promise<void> };
  readonly fetch?: typeof fetch;
  /** Where SIGINT and SIGTERM are heard (the process; a test's emitter); none: the run is never interrupted. */
  readonly signals?: {
    on(name: 'SIGINT' | 'SIGTERM', listener: (name: string) => void): unknown;
    off(name: 'SIGINT' | 'SIGTERM', listener: (name: string) => void): unknown;
  };
}

/** Off a terminal (a CI log), a progress line at least this often. */
export const PROGRESS_EVERY_MS = 10_000;

/** The flags that take a value, so that `--max-rpm -1` reads as a value, not as an unknown flag. */
const VALUED = [
  '--base-url',
  '--api-key',
  '--reporter',
  '--output',
  '--har',
  '--checks',
  '--skip',
  '--operations',
  '--skip-operations',
  '--examples',
  '--seed',
  '--max-rpm',
  '--budget',
  '--time-budget',
  '--timeout',
];

/** `--flag -1` as `--flag=-1`: a negative number is the flag's value, and gets that flag's own message. */
function joinNegativeValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    const next = argv[i + 1];
    if (VALUED.includes(arg) && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i += 1;
    } else out.push(arg);
  }
  return out;
}

const list = (value: string | undefined) =>
  value === undefined
    ? undefined
    : value
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '');

/**
 * The command as run from a shell: the process's streams, environment and signals. A stream whose
 * reader goes (`petkit contract … | head -3`) is written no more and said once on the other: the
 * run goes on, so its --output and --har files are whole and its exit code is its verdict (an EPIPE
 * stack trace ended it).
 */
function processIo(running: () => boolean): Io {
  // Not said for --help, whose reader may go as it pleases (`petkit contract --help | head -3`).
  const output = processOutput('petkit contract', (name, code) =>
    !running()
      ? undefined
      : name === 'stdout'
        ? `stdout was closed (${code}): the report is no longer written there; the run goes on (--output and --har are still written).`
        : `stderr was closed (${code}): progress and messages are no longer written; the run goes on.`,
  );
  return {
    stdout: { write: (text: string) => output.stdout.write(text), isTTY: process.stdout.isTTY },
    stderr: { write: (text: string) => output.stderr.write(text), isTTY: process.stderr.isTTY },
    env: process.env,
    signals: process,
  };
}

export async function run(argv: string[], given?: Io): Promise<number> {
  let running = false;
  const io = given ?? processIo(() => running);
  let values: ReturnType<typeof parse>['values'];
  let twice: string | undefined;
  try {
    const parsed = parse(joinNegativeValues(argv));
    values = parsed.values;
    twice = givenTwice(parsed.tokens);
  } catch (cause) {
    // node:util quotes the option it did not know as typed: printable, and a key given there hidden.
    const hide = createRedactor(givenKey(argv, io.env)).response;
    io.stderr.write(
      `petkit contract: ${printable(hide(parseMessage(cause as Error, joinNegativeValues(argv))))}\nRun 'petkit contract --help' for the options.\n`,
    );
    return 2;
  }
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  running = true;
  const apiKey = values['api-key'] ?? io.env.CONTRACT_API_KEY ?? '';
  // What the command says on stderr may quote what the user typed (a flag's value): the key hidden in
  // it, should it have gone to the wrong flag. The reports hide it as they are built.
  const hide = createRedactor(apiKey).response;
  // And each of its lines printable: a flag's value or a file's name is what the user (or a script's
  // variable) gave, and `--har $'\e[2J.har'` cleared the terminal the refusal was printed on.
  const shown = (text: string) => hide(text).split('\n').map(printable).join('\n');
  const say = (text: string) => io.stderr.write(shown(text));
  if (twice !== undefined) {
    say(`petkit contract: ${printable(twice)}\n`);
    return 2;
  }
  const reporter = values.reporter ?? 'pretty';
  if (!['pretty', 'junit', 'json'].includes(reporter)) {
    say(`petkit contract: --reporter must be pretty, junit or json, got "${reporter}".\n`);
    return 2;
  }
  // The files it writes at the end are checked now: a run is not spent to find, at its end, that its
  // report or HAR cannot be written, or that one was written over the other.
  if (
    values.output !== undefined &&
    values.har !== undefined &&
    resolve(values.output) === resolve(values.har)
  ) {
    say(`petkit contract: --output and --har both name ${values.har}: give each a file of its own.\n`);
    return 2;
  }
  for (const [flag, file] of [
    ['--output', values.output],
    ['--har', values.har],
  ] as const) {
    const fault = file === undefined ? undefined : fileFault(file, { devices: true });
    if (fault !== undefined) {
      say(`petkit contract: ${flag} ${file === '' ? "''" : file}: ${fault}.\n`);
      return 2;
    }
  }
  const progress = io.stderr.isTTY === true && values.output === undefined ? io.stderr : undefined;
  const now = io.clock?.now ?? Date.now;
  const startedMs = now();
  let lastLineMs = startedMs;
  let current = { phase: 'preflight', requests: 0 };
  let pace = 'learning';
  /** The wait for a window's reset under way, if any: the next exchange ends it. */
  let waiting: Progress['waiting'];
  /** `; waiting for the anonymous (keyless) rate-limit window to reset at …Z, in 20 s`. */
  const waitingFor = () => {
    if (waiting === undefined || now() >= waiting.untilMs) return '';
    const whose = waiting.window === 'key' ? "the key's" : 'the anonymous (keyless)';
    const left = Math.max(1, Math.round((waiting.untilMs - now()) / 1000));
    return `; waiting for ${whose} rate-limit window to reset at ${new Date(waiting.untilMs).toISOString()}, in ${left} s`;
  };
  // Off a terminal, one line at least every 10 s: on each exchange, and between the slices of a wait.
  const line = (force = false) => {
    if (progress !== undefined || (!force && now() - lastLineMs < PROGRESS_EVERY_MS)) return;
    lastLineMs = now();
    io.stderr.write(
      `petkit contract: ${current.phase}, ${current.requests} requests, ${Math.round((now() - startedMs) / 1000)} s elapsed, pacing ${pace}${waitingFor()}\n`,
    );
  };
  // SIGINT or SIGTERM (Ctrl-C, a CI job cancelled): the run stops where it is and its reports are
  // written with what was judged so far; a second signal ends the process at once.
  const stop = new AbortController();
  const interrupt = (name: string) => {
    release();
    say(
      `petkit contract: ${name}: stopping; the report will hold the checks judged so far (again to quit at once)\n`,
    );
    stop.abort(name);
  };
  const release = () => {
    io.signals?.off('SIGINT', interrupt);
    io.signals?.off('SIGTERM', interrupt);
  };
  const baseSleep =
    io.clock?.sleep ??
    ((ms: number) =>
      wait(ms, undefined, { signal: stop.signal }).then(
        () => undefined,
        () => undefined,
      ));
  const sleep = async (ms: number) => {
    let left = ms;
    while (left > 0 && !stop.signal.aborted) {
      const step = Math.min(left, Math.max(1, PROGRESS_EVERY_MS - (now() - lastLineMs)));
      await baseSleep(step);
      left -= step;
      line();
    }
  };
  const har = values.har === undefined ? undefined : recordContractHar(petkitVersion());
  /** Writes the HAR, if asked for; answers false when it could not (said on stderr). */
  const writeHar = (): boolean => {
    if (har === undefined || values.har === undefined) return true;
    try {
      har.write(values.har);
    } catch (error) {
      say(`petkit contract: cannot write --har ${values.har} (${codeOf(error)}); its exchanges are lost.\n`);
      return false;
    }
    say(
      `petkit contract: ${har.count} exchange${har.count === 1 ? '' : 's'} written to ${values.har} (HAR 1.2)\n`,
    );
    return true;
  };
  const ticker =
    progress === undefined && io.clock === undefined ? setInterval(() => line(), 1000) : undefined;
  ticker?.unref();
  io.signals?.on('SIGINT', interrupt);
  io.signals?.on('SIGTERM', interrupt);
  try {
    const report = await runContract({
      baseUrl: values['base-url'] ?? io.env.CONTRACT_BASE_URL ?? '',
      apiKey,
      readOnly: values['read-only'] ?? false,
      probeRateLimit: values['probe-rate-limit'] ?? false,
      probeBan: values['probe-ban'] ?? false,
      ...optional('checks', list(values.checks)),
      ...optional('skip', list(values.skip)),
      ...optional('operations', list(values.operations)),
      ...optional('skipOperations', list(values['skip-operations'])),
      ...optional('budget', integerFlag('--budget', values.budget)),
      ...optional('examples', integerFlag('--examples', values.examples)),
      ...optional('seed', integerFlag('--seed', values.seed)),
      ...optional('maxRpm', integerFlag('--max-rpm', values['max-rpm'])),
      ...optional('timeoutMs', integerFlag('--timeout', values.timeout)),
      ...optional(
        'timeBudgetMs',
        seconds(integerFlag('--time-budget', values['time-budget'], { min: 1, max: 86_400 })),
      ),
      now,
      sleep,
      signal: stop.signal,
      ...(io.fetch === undefined ? {} : { fetch: io.fetch }),
      onProgress: ({ phase, requests, maxRpm, exchange, waiting: wait }) => {
        if (exchange !== undefined) har?.add(exchange, now());
        current = { phase, requests };
        if (maxRpm !== undefined) pace = `${maxRpm}/min`;
        if (wait !== undefined || exchange !== undefined) waiting = wait;
        if (progress !== undefined)
          progress.write(`\r\u001b[2K${phase}: ${requests} requests${waitingFor()}`);
        else line(wait !== undefined);
      },
    });
    release();
    clearInterval(ticker);
    if (progress !== undefined) progress.write('\r\u001b[2K');
    const color = values.output === undefined && io.stdout.isTTY === true && (io.env.NO_COLOR ?? '') === '';
    const text =
      reporter === 'json'
        ? renderJson(report)
        : reporter === 'junit'
          ? renderJunit(report)
          : renderPretty(report, { color });
    let written = true;
    if (values.output === undefined) io.stdout.write(text);
    else {
      try {
        // `--output /dev/stdout` (or stderr): through the stream, which a path may not open.
        const own = ownStream(values.output);
        if (own === 1) io.stdout.write(text);
        else if (own === 2) io.stderr.write(text);
        else writeOut(values.output, text);
        // The one-line verdict on stdout, unless stdout is the report (`> report.xml` stays whole).
        (own === 1 ? io.stderr : io.stdout).write(
          shown(
            `petkit contract: ${report.verdict} (exit ${report.exitCode}), ${report.findings.length} finding${report.findings.length === 1 ? '' : 's'}, seed ${report.seed}; ${reporter} report in ${values.output}\n`,
          ),
        );
      } catch (error) {
        // The folder went, or filled up, during the run: the report is not lost, it goes to stdout.
        written = false;
        say(
          `petkit contract: cannot write the report to ${values.output} (${codeOf(error)}); it follows on stdout.\n`,
        );
        io.stdout.write(text);
      }
    }
    // Its message may quote what the target sent: shown as the pretty report shows it.
    if (report.aborted !== null) say(`petkit contract: ${printable(report.aborted.message)}\n`);
    if (!writeHar()) written = false;
    // Exit 2 when a file asked for could not be written: the run's outputs are not all there.
    return written ? report.exitCode : 2;
  } catch (cause) {
    release();
    clearInterval(ticker);
    if (progress !== undefined) progress.write('\r\u001b[2K');
    if (cause instanceof ContractAbort || cause instanceof UsageError) {
      say(`petkit contract: ${cause.message}\n`);
      writeHar();
      return 2;
    }
    throw cause;
  }
}

/** The key of a command line parseArgs could not read: its --api-key, or CONTRACT_API_KEY. */
function givenKey(argv: readonly string[], env: Io['env']): string {
  let key = env.CONTRACT_API_KEY ?? '';
  argv.forEach((arg, i) => {
    if (arg === '--api-key') key = argv[i + 1] ?? key;
    else if (arg.startsWith('--api-key=')) key = arg.slice('--api-key='.length);
  });
  return key;
}

/**
 * node:util's words for a command line it cannot read, except that an argument it did not expect is
 * not quoted: it may be a key given without --api-key.
 */
function parseMessage(cause: Error, argv: string[]): string {
  if ((cause as { code?: unknown }).code !== 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return cause.message;
  let where = '';
  try {
    const token = parse(argv, true).tokens.find((candidate) => candidate.kind === 'positional');
    if (token !== undefined) where = ` at position ${token.index + 1}`;
  } catch {
    // Another fault besides: the position is left out.
  }
  return `unexpected argument${where} (not shown: it may be a key). Every value follows its flag: --api-key KEY.`;
}

/**
 * The flags that name where the key is sent or what is written, given twice with two values: parseArgs
 * keeps the last, so `petkit contract --base-url "$STAGING" "$@"` with another --base-url in "$@" sent
 * the key and the run there without a word. Any other flag keeps its last value.
 */
const ONCE = new Set(['base-url', 'output', 'har']);

/** What is wrong with `tokens` as to ONCE (a URL's `user:password@` written `***@`), if anything. */
function givenTwice(tokens: ReturnType<typeof parse>['tokens']): string | undefined {
  const given = new Map<string, string>();
  for (const token of tokens) {
    if (token.kind !== 'option' || !ONCE.has(token.name) || token.value === undefined) continue;
    const before = given.get(token.name);
    if (before !== undefined && before !== token.value) {
      const shown = (value: string) => value.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1***@');
      return `--${token.name} is given twice ("${shown(before)}", then "${shown(token.value)}"); give it once.`;
    }
    given.set(token.name, token.value);
  }
  return undefined;
}

/** Seconds given on the command line, as the milliseconds the options take. */
function seconds(value: number | undefined): number | undefined {
  return value === undefined ? undefined : value * 1000;
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** The flags; `positionals` only to find a stray argument for its message. */
function parse(argv: string[], positionals = false) {
  return parseArgs({
    args: argv,
    strict: true,
    allowPositionals: positionals,
    tokens: true,
    options: {
      'base-url': { type: 'string' },
      'api-key': { type: 'string' },
      'read-only': { type: 'boolean' },
      reporter: { type: 'string' },
      output: { type: 'string' },
      har: { type: 'string' },
      checks: { type: 'string' },
      skip: { type: 'string' },
      operations: { type: 'string' },
      'skip-operations': { type: 'string' },
      budget: { type: 'string' },
      'time-budget': { type: 'string' },
      examples: { type: 'string' },
      seed: { type: 'string' },
      'probe-rate-limit': { type: 'boolean' },
      'probe-ban': { type: 'boolean' },
      'max-rpm': { type: 'string' },
      timeout: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

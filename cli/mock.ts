// `petkit mock`: parses flags, starts the server, prints where it is and the keys, logs one line per
// request, and stops cleanly on SIGINT/SIGTERM once in-flight requests are answered.
// fs.promises, not node:fs/promises: loaded only when the mock stops (about 5 ms of its start).
import { promises } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { parseArgs } from 'node:util';
import {
  anonymousLimits,
  type ControlOptions,
  DEFAULT_HOST,
  DEFAULT_MAX_PETS,
  DEFAULT_PETS,
  DEFAULT_PORT,
  DEFAULT_SEED,
  isDemoKey,
  JOURNAL_LIMIT,
  KeysFileError,
  keyLabel,
  type Latency,
  type Limits,
  loadKeysFile,
  loadPetsFile,
  MAX_JOURNAL_LIMIT,
  MAX_SEED,
  type MockOptions,
  MockOptionsError,
  type NormalizedMockOptions,
  resolveKeys,
  startServer,
} from '../mocks/index.js';
import { demoKeysFile } from '../mocks/keys.js';
import { type Logger, MAX_LATENCY_MS } from '../mocks/options.js';
import type { SharedState } from '../mocks/postgres/index.js';
import { loadRulesFile } from '../mocks/rules-file.js';
import { cannotListen, checkedArgv, hostFlag, hostNotHere, integerFlag, UsageError } from './flags.js';
import { batchedLog } from './log-writer.js';
import { recordHar } from './mock-har.js';
import { guardStream, printable, processOutput } from './output.js';
import { startedByNpx, watchParent } from './parent-watch.js';
import { fileFault, writeWhole } from './write-whole.js';

export const HELP = `Usage: petkit mock [options]

Serves a fake Pet Adoption API at http://HOST:PORT/v1, with auth, validation and rate limits.

Options:
  --port N             port to listen on (0 picks a free one)        default ${DEFAULT_PORT}
  --host HOST          address to bind                                default ${DEFAULT_HOST}
  --seed N             seed of the generated pets                     default ${DEFAULT_SEED}
  --pets N             how many pets are seeded                       default ${DEFAULT_PETS}
  --fixtures FILE      start from these pets (a JSON array, as GET /v1/pets answers),
                       in place of --seed and --pets
  --keys FILE          keys file (JSON, see docs/mock.md)             default fixtures/api-keys.json
  --latency MS|MIN-MAX delay added to every answer, fixed or a range  default 0
  --rules FILE         arm these rules at start ({"rules": [rule, …]}, as POST /__petkit/rules
                       takes each; see docs/mock.md)
  --max-pets N         most pets the store holds (then 507)           default ${DEFAULT_MAX_PETS}
  --journal-limit N    most requests the journal keeps (0: none)      default ${JOURNAL_LIMIT}
  --url-file FILE      once listening, write the base URL to FILE (removed as it starts to stop)
  --state URL          keep pets and rate limits in PostgreSQL (postgres://…), shared by
                       every replica on it; default: this process's memory
  --har FILE           on stop, write the exchanges answered to FILE as HAR 1.2 (devtools open it)
  --control-origin URL a web origin allowed to call the control API (repeat for more; * for any)
  --no-control         turn the control API (/__petkit/*) off
  -h, --help           this text

The first line printed is "petkit mock: serving the Pet Adoption API at URL", so a script can wait
for it; with --port 0, the URL shows the port picked.

Per request: "Prefer: code=NNN" forces a documented error, "Prefer: delay=MS" a delay.
Control API: POST /__petkit/reset, GET|DELETE /__petkit/requests, GET /__petkit/health,
GET|POST|DELETE /__petkit/rules, PATCH|DELETE /__petkit/rules/ID, GET|POST /__petkit/clock,
GET /__petkit/limits, and the page GET /__petkit/; it answers only a Host naming the mock and
pages of this machine or of a --control-origin.
`;

function latencyOf(raw: string | undefined): Latency | undefined {
  if (raw === undefined) return undefined;
  const range = /^(\d+)-(\d+)$/.exec(raw);
  if (range !== null) {
    const min = Number(range[1]);
    const max = Number(range[2]);
    if (min > max) throw new UsageError(`--latency ${raw}: the minimum is above the maximum.`);
    if (max > MAX_LATENCY_MS) throw new UsageError(`--latency ${raw}: at most ${MAX_LATENCY_MS} ms.`);
    return { min, max };
  }
  if (/^\d+$/.test(raw)) {
    if (Number(raw) > MAX_LATENCY_MS) throw new UsageError(`--latency ${raw}: at most ${MAX_LATENCY_MS} ms.`);
    return Number(raw);
  }
  throw new UsageError(`--latency must be MS or MIN-MAX (e.g. 50 or 20-200), got "${raw}".`);
}

interface Parsed {
  help: boolean;
  port: number;
  host: string;
  urlFile: string | undefined;
  /** --state: the shared state's URL. */
  state: string | undefined;
  har: string | undefined;
  /** --rules: the rules file, for the banner. */
  rules: string | undefined;
  control: ControlOptions | false;
  options: MockOptions;
}

export function parse(argv: string[]): Parsed {
  let values: ReturnType<typeof parseArgs<{ options: typeof FLAGS }>>['values'];
  try {
    ({ values } = parseArgs({
      args: checkedArgv(argv, FLAGS, SOURCES),
      options: FLAGS,
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError((error as Error).message);
  }
  if (values.fixtures !== undefined) {
    const other = values.pets !== undefined ? '--pets' : values.seed !== undefined ? '--seed' : undefined;
    if (other !== undefined) {
      throw new UsageError(`--fixtures gives the pets, so ${other} has nothing to do; use one or the other.`);
    }
  }
  const options: MockOptions = {};
  const seed = integerFlag('--seed', values.seed, { min: 0, max: MAX_SEED });
  const pets = integerFlag('--pets', values.pets, { min: 0, max: Number.MAX_SAFE_INTEGER });
  const maxPets = integerFlag('--max-pets', values['max-pets'], { min: 1, max: Number.MAX_SAFE_INTEGER });
  const journalLimit = integerFlag('--journal-limit', values['journal-limit'], {
    min: 0,
    max: MAX_JOURNAL_LIMIT,
  });
  const latency = latencyOf(values.latency);
  if (seed !== undefined) options.seed = seed;
  if (journalLimit !== undefined) options.journalLimit = journalLimit;
  if (pets !== undefined) options.pets = pets;
  if (maxPets !== undefined) options.maxPets = maxPets;
  if (latency !== undefined) options.latency = latency;
  if (values.keys !== undefined) options.keys = loadKeysFile(values.keys);
  const store = maxPets ?? DEFAULT_MAX_PETS;
  // The store's size is known here: a count or a file past it is named by its flag, not by the option.
  if (pets !== undefined && pets > store)
    throw new UsageError(
      `--pets must be at most the store's size, ${store} (--max-pets), got "${values.pets ?? ''}".`,
    );
  if (values.fixtures !== undefined) {
    options.pets = loadPetsFile(values.fixtures);
    if (options.pets.length > store)
      throw new UsageError(
        `--fixtures ${values.fixtures} gives ${options.pets.length} pets; the store holds at most ${store} (--max-pets).`,
      );
  }
  // Checked here against the keys and seed the mock will have, so a bad rule is named with its file.
  if (values.rules !== undefined)
    options.rules = loadRulesFile(values.rules, {
      seed: options.seed ?? DEFAULT_SEED,
      keys: resolveKeys(options.keys ?? demoKeysFile()),
    });
  // The files it writes later are checked now: the mock does not start to find it cannot write them.
  for (const [flag, file] of [
    ['--har', values.har],
    ['--url-file', values['url-file']],
  ] as const) {
    const fault = file === undefined ? undefined : fileFault(file);
    if (fault !== undefined) throw new UsageError(`${flag} ${file === '' ? "''" : file}: ${fault}.`);
  }
  return {
    help: values.help === true,
    port: integerFlag('--port', values.port, { min: 0, max: 65535 }) ?? DEFAULT_PORT,
    host: hostFlag(values.host, DEFAULT_HOST),
    urlFile: values['url-file'],
    state: values.state,
    har: values.har,
    rules: values.rules,
    control: controlOf(values['no-control'] === true, values['control-origin']),
    options,
  };
}

/** The flags that name what the mock reads or writes: each given once (see checkedArgv). */
const SOURCES = ['keys', 'fixtures', 'rules', 'har', 'url-file', 'state'];

const FLAGS = {
  port: { type: 'string' },
  host: { type: 'string' },
  seed: { type: 'string' },
  pets: { type: 'string' },
  fixtures: { type: 'string' },
  keys: { type: 'string' },
  latency: { type: 'string' },
  rules: { type: 'string' },
  'max-pets': { type: 'string' },
  'journal-limit': { type: 'string' },
  'url-file': { type: 'string' },
  state: { type: 'string' },
  har: { type: 'string' },
  'control-origin': { type: 'string', multiple: true },
  'no-control': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

function controlOf(off: boolean, origins: string[] | undefined): ControlOptions | false {
  if (off && origins !== undefined)
    throw new UsageError('--no-control and --control-origin conflict: the first turns the control API off.');
  return off ? false : { origins: origins ?? [] };
}

/** The keys as the banner shows them: the demo keys in full, a private file's masked. */
function keysTable(options: NormalizedMockOptions): string {
  const row = (key: string, plan: string, { perMinute, perDay }: Limits) =>
    `  ${key.padEnd(18)} ${plan.padEnd(11)} ${perMinute}/min  ${perDay}/day`;
  return [
    ...resolveKeys(options.keys).map((key) => row(keyLabel(key.key), key.plan, key)),
    row('(no key)', 'per address', anonymousLimits(options.keys)),
  ].join('\n');
}

export async function run(argv: string[]): Promise<number> {
  let parsed: Parsed;
  try {
    parsed = parse(argv);
  } catch (error) {
    if (error instanceof UsageError || error instanceof KeysFileError || error instanceof MockOptionsError) {
      guardStream(process.stderr).write(
        `petkit mock: ${printable(error.message)}\nRun 'petkit mock --help' for the options.\n`,
      );
      return 2;
    }
    throw error;
  }
  if (parsed.help) {
    guardStream(process.stdout).write(HELP);
    return 0;
  }
  // A reader gone (`petkit mock | head -1`): that stream is written no more, and the mock serves on.
  const out = processOutput('petkit mock', (name, code) =>
    name === 'stdout'
      ? `stdout was closed (${code}): the banner and the request log are no longer written; still serving.`
      : `stderr was closed (${code}): errors are no longer written; still serving.`,
  );
  const log = batchedLog(out.stdout);
  const logger: Logger = {
    info: log.info,
    error: (line: string) => out.stderr.write(`${new Date().toISOString()} ${line}\n`),
  };
  let shared: SharedState | undefined;
  if (parsed.state !== undefined) {
    try {
      shared = await connectShared(parsed.state, parsed.options.maxPets, logger);
    } catch (error) {
      // One line: what could not be reached and why (the password hidden), or why the URL is unusable.
      out.stderr.write(`petkit mock: ${printable((error as Error).message)}\n`);
      // The driver may leave a socket open after some failures (a password the server asks for and
      // the URL lacks): the process would wait on it for ever. Exit 2 all the same, if still here.
      setTimeout(() => process.exit(2), 1_000).unref();
      return 2;
    }
  }
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer({
      ...parsed.options,
      logger,
      port: parsed.port,
      host: parsed.host,
      ...(shared === undefined ? {} : { state: shared }),
      control: parsed.control,
    });
  } catch (error) {
    await shared?.close();
    if (error instanceof MockOptionsError) {
      out.stderr.write(`petkit mock: ${printable(error.message)}\n`);
      return 2;
    }
    const code = (error as NodeJS.ErrnoException).code;
    // A --host that names no address of this machine is the flag's fault (exit 2); a port taken is not.
    const notHere = hostNotHere(parsed.host, code);
    if (notHere !== undefined) {
      out.stderr.write(`petkit mock: ${printable(notHere)}\n`);
      return 2;
    }
    out.stderr.write(`petkit mock: ${printable(cannotListen(parsed.host, parsed.port, error))}\n`);
    return 1;
  }
  const { options } = server.mock;
  const { urlFile } = parsed;
  // From here a signal stops the mock cleanly, even one sent the moment its URL file or its banner says
  // it is ready: heard now, acted on once the mock is set up.
  const signal = stopSignal();
  if (urlFile !== undefined) {
    try {
      // A reader that polls for the file never sees it half-written.
      writeWhole(urlFile, `${server.url}\n`);
    } catch (error) {
      signal.release();
      out.stderr.write(
        `petkit mock: ${printable(`cannot write --url-file ${urlFile}: ${(error as Error).message}`)}\n`,
      );
      await server.close();
      await shared?.close();
      return 2;
    }
  }
  const har = parsed.har === undefined ? undefined : recordHar(server.mock, server.origin, parsed.har);
  const demoKey = options.keys.keys.find((entry) => isDemoKey(entry.key))?.key;
  const control =
    parsed.control === false
      ? 'Control: off (--no-control)\n'
      : `Control: POST ${server.origin}/__petkit/reset, GET ${server.origin}/__petkit/requests, GET ${server.origin}/__petkit/health\n` +
        `Page: ${server.origin}/__petkit/ (the journal live, rules, windows, clock)\n`;
  const rules = options.rules.length;
  out.stdout.write(
    `petkit mock: serving the Pet Adoption API at ${server.url}\n` +
      everyInterface(parsed.host, server.listening, server.url.slice(server.origin.length)) +
      `  ${options.pets} pets (${options.fixtures === undefined ? `seed ${options.seed}` : 'from --fixtures'}), store holds up to ${options.maxPets}\n` +
      (shared === undefined ? '' : `  state shared by every replica on ${shared.url}\n`) +
      (rules === 0
        ? ''
        : `  ${rules} ${rules === 1 ? 'rule' : 'rules'} from ${parsed.rules}, ${shared === undefined ? 'armed' : 'armed by the replica that seeds the shared state'}\n`) +
      '\n' +
      `API keys (Authorization: Bearer <key>):\n${keysTable(options)}\n\n` +
      (demoKey === undefined
        ? `Try: curl -H "Authorization: Bearer $API_KEY" ${server.url}/pets   (API_KEY: a key of your file)\n`
        : `Try: curl -H 'Authorization: Bearer ${demoKey}' ${server.url}/pets\n`) +
      control +
      (har === undefined
        ? ''
        : `HAR: the exchanges are written to ${printable(parsed.har ?? '')} when the mock stops.\n`) +
      'Ctrl-C stops it.\n\n',
  );
  const why = await signal.why;
  // A second stop signal while this one waits for in-flight requests (a delay of up to a minute) is
  // someone who will not wait: it stops now, its HAR written with what was answered. The process
  // died of it (the first signal's listener gone, the signal's default), the HAR never written and
  // nothing said.
  const hurry = async (again: string) => {
    for (const name of STOP_SIGNALS) process.off(name, hurry);
    log.flush();
    out.stderr.write(
      `petkit mock: ${again} again, stopping now: ${server.mock.inFlight} in-flight request(s) cut.\n`,
    );
    if (urlFile !== undefined) await promises.rm(urlFile, { force: true }).catch(() => undefined);
    try {
      await har?.write();
      if (har !== undefined)
        out.stdout.write(`petkit mock: wrote ${har.count} exchange(s) to ${printable(parsed.har ?? '')}.\n`);
    } catch (error) {
      out.stderr.write(`petkit mock: ${printable(`cannot write --har ${parsed.har}: ${String(error)}`)}\n`);
    }
    process.exit(1);
  };
  for (const name of STOP_SIGNALS) process.on(name, hurry);
  // The log's lines waiting go first, and those of the requests still in flight before it exits.
  log.flush();
  out.stdout.write(
    `petkit mock: ${why}, finishing ${server.mock.inFlight} in-flight request(s) and stopping.\n`,
  );
  // The URL file goes first: a script that reads it never gets a URL whose port already refuses. One
  // that cannot go (a directory now) is said, and the mock stops all the same.
  let notRemoved: unknown;
  if (urlFile !== undefined)
    await promises.rm(urlFile, { force: true }).catch((error: unknown) => (notRemoved = error));
  try {
    await server.close();
    log.flush();
    await shared?.close();
    if (har !== undefined) {
      await har.write();
      const dropped = har.dropped === 0 ? '' : ` (the oldest ${har.dropped} dropped)`;
      out.stdout.write(
        `petkit mock: wrote ${har.count} exchange(s) to ${printable(parsed.har ?? '')}${dropped}.\n`,
      );
    }
  } catch (error) {
    for (const name of STOP_SIGNALS) process.off(name, hurry);
    log.flush();
    out.stderr.write(`petkit mock: ${printable(`stopping failed: ${String(error)}`)}\n`);
    return 1;
  }
  for (const name of STOP_SIGNALS) process.off(name, hurry);
  if (notRemoved === undefined) return 0;
  out.stderr.write(
    `petkit mock: ${printable(`cannot remove --url-file ${urlFile}: ${(notRemoved as Error).message}`)}\n`,
  );
  return 1;
}

/** The signals that stop the mock cleanly: SIGHUP is its terminal closed. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** A stop signal, or npx gone (see parent-watch.ts): the first of them, once heard. */
function stopSignal(): { readonly why: Promise<string>; release(): void } {
  let unwatch: (() => void) | undefined;
  const stop = (why: string) => {
    release();
    heard(why);
  };
  const release = () => {
    for (const name of STOP_SIGNALS) process.off(name, stop);
    unwatch?.();
  };
  let heard: (why: string) => void = () => undefined;
  const why = new Promise<string>((resolve) => {
    heard = resolve;
  });
  for (const name of STOP_SIGNALS) process.on(name, stop);
  if (startedByNpx(process.env)) unwatch = watchParent(() => stop('npx ended'));
  return { why, release };
}

/**
 * The shared state at `url` (loaded on demand: without --state, pg is never imported). Rejects with a
 * one-line message when the URL is unusable or the database cannot be reached.
 */
async function connectShared(url: string, maxPets: number | undefined, logger: Logger): Promise<SharedState> {
  const { connectState } = await import('../mocks/postgres/index.js');
  return connectState(url, { logger, ...(maxPets === undefined ? {} : { maxPets }) });
}

/** The most addresses of this machine the banner lists for a mock on every interface. */
const MAX_LISTED_ADDRESSES = 4;

/**
 * For a mock bound to every interface (`--host 0.0.0.0` or `::`), whose URL above names loopback: a
 * line saying so, with the URLs other machines reach it at (as Vite's "Network:"); '' otherwise.
 */
function everyInterface(
  host: string,
  listening: { address: string; port: number },
  basePath: string,
): string {
  const v4 = listening.address === '0.0.0.0';
  if (!v4 && !/^[0:]+$/.test(listening.address)) return '';
  const urls: string[] = [];
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) {
      if (entry.internal || (v4 && entry.family !== 'IPv4') || entry.address.startsWith('fe80:')) continue;
      const shown = entry.family === 'IPv6' ? `[${entry.address}]` : entry.address;
      urls.push(`http://${shown}:${listening.port}${basePath}`);
    }
  }
  const listed = urls.slice(0, MAX_LISTED_ADDRESSES).join(', ');
  const more = urls.length > MAX_LISTED_ADDRESSES ? ` (and ${urls.length - MAX_LISTED_ADDRESSES} more)` : '';
  return `  listening on every interface (--host ${printable(host)}): from another machine, ${urls.length === 0 ? `http://<this machine's address>:${listening.port}${basePath}` : `${listed}${more}`}\n`;
}

// `petkit proxy`: reads flags, starts the proxy (proxy/), prints each departure as it happens and one
// line per exchange, and stops on SIGINT/SIGTERM. Never prints a key: the curl lines write the app's
// key, and what is derived from it, from $API_KEY (proxy/credential.ts).
import { hostname as machineName, networkInterfaces } from 'node:os';
import { parseArgs } from 'node:util';
import {
  DEFAULT_UPSTREAM_TIMEOUT_MS,
  type Departure,
  type ExchangeLine,
  MAX_CAPTURE_BYTES,
  startProxy,
  upstreamProblem,
} from '../proxy/index.js';
import { cannotListen, checkedArgv, hostFlag, hostNotHere, integerFlag, UsageError } from './flags.js';
import { guardStream, printable, processOutput } from './output.js';

export const DEFAULT_PROXY_PORT = 4011;

export const HELP = `Usage: petkit proxy --upstream URL [options]

Forwards every request to a real backend, unchanged, and checks each request and response against
openapi.yaml with the contract suite's own response checks. Each departure is printed as it happens,
with a curl line that replays it ($API_KEY in place of the key), and kept in a journal. It goes
only to the upstream: a request target that is not a path under it is refused (400 invalid_target).
A body over ${MAX_CAPTURE_BYTES} bytes (decoded) is forwarded but not checked, and the line says so.

Options:
  --upstream URL          the API's base URL at the backend, e.g. https://staging.example.com/v1 (required)
  --port N                port to listen on (0 picks a free one)        default ${DEFAULT_PROXY_PORT}
  --host HOST             address to bind                                default 127.0.0.1
  --upstream-timeout MS   how long the upstream may say nothing: 504 before its answer, a cut
                          connection within it                           default ${DEFAULT_UPSTREAM_TIMEOUT_MS}
  --api-key KEY           the app's key, never printed (PETKIT_API_KEY works too): with it, a
                          replay line shows a refused credential that is not the key as sent
  -h, --help              this text

Point your app at the printed URL. The journal: GET /__petkit/departures (DELETE clears it).
`;

const FLAGS = {
  upstream: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  'upstream-timeout': { type: 'string' },
  'api-key': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

interface Parsed {
  help: boolean;
  upstream: string;
  port: number;
  host: string;
  upstreamTimeoutMs: number;
  apiKey: string | undefined;
}

/** Longest --upstream-timeout: what a Node timer can wait (about 24.8 days). */
const MAX_TIMEOUT_MS = 2_147_483_647;

export function parse(argv: string[], env: Readonly<Record<string, string | undefined>> = {}): Parsed {
  const args = checkedArgv(argv, FLAGS);
  // parseArgs keeps the last of a flag given twice: `petkit proxy --upstream "$STAGING" "$@"` with
  // another --upstream in "$@" sent the app's traffic, and its key, to that one without a word.
  const upstreams = [
    ...new Set(
      args.filter((arg) => arg.startsWith('--upstream=')).map((arg) => arg.slice('--upstream='.length)),
    ),
  ];
  if (upstreams.length > 1) {
    const [first = '', second = ''] = upstreams.map(withoutCredentials);
    throw new UsageError(
      `--upstream is given twice ("${first}", then "${second}"); give it once: every request goes to one backend.`,
    );
  }
  const { values } = parseArgs({ args, options: FLAGS, strict: true });
  const help = values.help === true;
  const port = integerFlag('--port', values.port, { min: 0, max: 65535 }) ?? DEFAULT_PROXY_PORT;
  const host = hostFlag(values.host, '127.0.0.1');
  const upstreamTimeoutMs =
    integerFlag('--upstream-timeout', values['upstream-timeout'], { min: 1, max: MAX_TIMEOUT_MS }) ??
    DEFAULT_UPSTREAM_TIMEOUT_MS;
  const given = values['api-key'] ?? env.PETKIT_API_KEY;
  const apiKey = given === undefined || given === '' ? undefined : given;
  if (help) return { help, upstream: '', port, host, upstreamTimeoutMs, apiKey };
  if (values.upstream === undefined)
    throw new UsageError("--upstream URL is required: the API's base URL at the backend.");
  const portProblem = upstreamPortProblem(values.upstream);
  if (portProblem !== undefined) throw new UsageError(`--upstream ${portProblem}.`);
  // A host and port typed without http:// (`localhost:4010/v1`): the URL meant, suggested.
  const schemeless = upstreamProblem(values.upstream);
  if (schemeless?.includes('has no scheme') === true) throw new UsageError(`--upstream ${schemeless}`);
  let url: URL;
  try {
    url = new URL(values.upstream);
  } catch {
    throw new UsageError(
      `--upstream must be an http or https URL, got "${withoutCredentials(values.upstream)}".`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(
      `--upstream must be an http or https URL, got "${withoutCredentials(values.upstream)}".`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new UsageError('--upstream must not carry credentials; the app sends its own key.');
  }
  // Every request's path is put after it: a query or fragment there would end up in the middle.
  if (/[?#]/.test(values.upstream)) {
    throw new UsageError(
      `--upstream must be the API's base URL, with no ?query or #fragment: ${url.origin}${url.pathname.replace(/\/+$/, '')}, for instance.`,
    );
  }
  const upstream = url.href.replace(/\/+$/, '');
  if (isThisProxy(url, host, port)) {
    throw new UsageError(
      `--upstream ${upstream} is this proxy's own address (it listens on ${host}:${port}): every request would come back to it without end; give the backend's URL.`,
    );
  }
  return { help, upstream, port, host, upstreamTimeoutMs, apiKey };
}

const ANY_INTERFACE = new Set(['0.0.0.0', '::', '']);
const isLoopbackName = (name: string) =>
  name === 'localhost' || name.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(name) || name === '::1';

/**
 * Whether an http upstream is the proxy itself: its port, and a name of the address the proxy binds
 * (this machine's loopback for a loopback host; any address of this machine for 0.0.0.0). Each request
 * then came back to the proxy, which forwarded it again: one request became thousands of exchanges,
 * their departures printed and their sockets held, until --upstream-timeout. With --port 0 the port
 * is not known yet, and is no port anything listens on.
 */
function isThisProxy(url: URL, host: string, port: number): boolean {
  if (port === 0 || url.protocol !== 'http:' || Number(url.port === '' ? 80 : url.port) !== port)
    return false;
  const bare = (name: string) => name.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  const name = bare(url.hostname);
  const bound = bare(host);
  if (name === bound || ANY_INTERFACE.has(name)) return true;
  if (isLoopbackName(name) && (isLoopbackName(bound) || ANY_INTERFACE.has(bound))) return true;
  if (!ANY_INTERFACE.has(bound)) return false;
  const own = Object.values(networkInterfaces()).flatMap((addresses) =>
    (addresses ?? []).map(({ address }) => address.toLowerCase()),
  );
  return own.includes(name) || name === machineName().toLowerCase();
}

/** A refused --upstream as a message may quote it: what comes before an `@` of its authority is `***`. */
function withoutCredentials(upstream: string): string {
  return upstream.replace(
    /^([a-z][a-z0-9+.-]*:\/\/)?[^/?#]*@/i,
    (_all, scheme: string | undefined) => `${scheme ?? ''}***@`,
  );
}

/**
 * What is wrong with the port of an http(s) URL, if anything, said with the URL (its credentials
 * left out): URL refuses a port past 65535 as it refuses what is no URL at all, and takes port 0,
 * where nothing can be reached.
 */
function upstreamPortProblem(upstream: string): string | undefined {
  const found = /^(https?:\/\/)(?:[^/?#@]*@)?((?:\[[^\]/?#@]*\]|[^/?#@:[\]]*):(\d+)(?:[/?#].*)?)$/is.exec(
    upstream,
  );
  const [, scheme = '', rest = '', port = ''] = found ?? [];
  if (found === null || (Number(port) >= 1 && Number(port) <= 65535)) return undefined;
  return `${scheme}${rest}: port ${port} is out of range (1 to 65535)`;
}

/** The keys given to a run whose flags were refused: --api-key's values and PETKIT_API_KEY. */
export function givenKeys(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): string[] {
  const keys = [env.PETKIT_API_KEY];
  argv.forEach((arg, i) => {
    if (arg === '--api-key') keys.push(argv[i + 1]);
    else if (arg.startsWith('--api-key=')) keys.push(arg.slice('--api-key='.length));
  });
  return keys.filter((key): key is string => key !== undefined && key !== '');
}

/**
 * A refusal as it may be printed: a key given anywhere in it (pasted as --upstream, as --host, or
 * after a flag that needs no value) written `$API_KEY`, whatever its case.
 */
export function withoutKey(message: string, keys: readonly string[]): string {
  return keys.reduce(
    (text, key) =>
      text.replace(new RegExp(key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), () => '$API_KEY'),
    message,
  );
}

/** One line per exchange: what it was, how it went, what was found, and what was not checked. */
export function formatExchange({
  method,
  target,
  status,
  durationMs,
  departures,
  unchecked,
}: ExchangeLine): string {
  const found = departures === 0 ? 'ok' : `${departures} departure${departures === 1 ? '' : 's'}`;
  const notes = unchecked.map(({ side, reason }) => `, ${side} not checked: ${reason}`).join('');
  return `${printable(`${method} ${target} ${status} ${durationMs}ms ${found}${notes}`)}\n`;
}

/**
 * A departure as the terminal shows it: four lines, the key never among them, and no control
 * character of what the app or the upstream sent (an escape sequence, a C1 or bidi control) written
 * as one: each shown as \\uXXXX.
 */
export function formatDeparture(d: Departure): string {
  return (
    `departure ${printable(`${d.check} (${d.operationId ?? 'no operation'}) ${d.method} ${d.target} -> ${d.status}`)}\n` +
    `  expected: ${printable(d.expected)}\n` +
    `  received: ${printable(d.received)}\n` +
    `  replay:   ${printable(d.curl)}\n`
  );
}

/**
 * What it says of an upstream that failed, as stderr shows it: one line, no control character of the
 * error's words (an upstream's, Node's quoting of it) written as one. It went out as it came.
 */
export function formatUpstreamError(message: string): string {
  return `petkit proxy: ${printable(message)}\n`;
}

export async function run(argv: string[]): Promise<number> {
  let parsed: Parsed;
  try {
    parsed = parse(argv, process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    guardStream(process.stderr).write(
      `petkit proxy: ${printable(withoutKey(error.message, givenKeys(argv, process.env)))}\nRun 'petkit proxy --help' for the options.\n`,
    );
    return 2;
  }
  if (parsed.help) {
    guardStream(process.stdout).write(HELP);
    return 0;
  }
  // A reader gone (`petkit proxy … | head -1`): that stream is written no more, and the proxy forwards on.
  const out = processOutput('petkit proxy', (name, code) =>
    name === 'stdout'
      ? `stdout was closed (${code}): departures and exchanges are no longer printed (GET /__petkit/departures has them); still forwarding.`
      : `stderr was closed (${code}): errors are no longer written; still forwarding.`,
  );
  let running: Awaited<ReturnType<typeof startProxy>>;
  try {
    running = await startProxy({
      upstream: parsed.upstream,
      port: parsed.port,
      host: parsed.host,
      upstreamTimeoutMs: parsed.upstreamTimeoutMs,
      ...(parsed.apiKey === undefined ? {} : { apiKey: parsed.apiKey }),
      onDeparture: (departure) => out.stdout.write(formatDeparture(departure)),
      onExchange: (line) => out.stdout.write(formatExchange(line)),
      onUpstreamError: (message) => out.stderr.write(formatUpstreamError(message)),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // As petkit mock: a --host that names no address of this machine is the flag's fault (exit 2).
    const notHere = hostNotHere(parsed.host, code);
    if (notHere !== undefined) {
      out.stderr.write(`petkit proxy: ${printable(notHere)}\n`);
      return 2;
    }
    out.stderr.write(`petkit proxy: ${printable(cannotListen(parsed.host, parsed.port, error))}\n`);
    return 1;
  }
  return new Promise<number>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      running.close().then(
        () => resolve(0),
        () => resolve(1),
      );
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    // Printed once a signal stops it cleanly: a script that sends one as soon as it reads this is heard.
    out.stdout.write(
      `petkit proxy: forwarding ${printable(running.url)} to ${printable(parsed.upstream)}, checking against openapi.yaml\n` +
        `Departures: GET ${printable(running.origin)}/__petkit/departures. Ctrl-C stops it.\n\n`,
    );
  });
}

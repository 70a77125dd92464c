#!/usr/bin/env -S node --max-semi-space-size=8 --heap-growing-percent=50 --no-memory-reducer --max-inlined-bytecode-size=920 --max-inlined-bytecode-size-cumulative=4600
// (V8's young generation capped at 8 MB a semi-space, not 16: the mock's peak memory under load is
// ~20 MB lower; and its old generation let grow by half what a full collection left before the next,
// not up to twice or more: the pets a run of creates adds and a reset drops, with what the young
// generation promoted, took its peak from 94 to 120–130 MB; each within the bench's run-to-run noise
// in CPU per answer. No memory reducer: left idle ten seconds or so after a burst of requests, V8
// collected the heap three times in a row to shrink it, and those collections, which keep no map an
// object no longer has, threw away the optimised code of ~270 functions (node's HTTP path and the
// mock's), so the next burst ran 20 to 30 % dearer while they were compiled again; the heap now stays
// the size the last burst left it. TurboFan's inlining budget twice V8's (a function of up to 920
// bytes of bytecode inlined, not 460; 4,600 bytes in all into one function, not 920): an answer runs
// through a chain of small steps (answer, route, auth, limit, validate, operate, headers, journal,
// log), which the default budget left as calls; 3 to 4 % less CPU an answer on the bench's mixed
// load, 1 to 5 % on its single scenarios, 0 to 1.5 % for the ceilings; more than this gave nothing
// more. `npm start` passes the same flags, the bench runs this file as an
// executable, so it gets them too, and runs its ceilings with them (docs/performance.md).)
// The `petkit` command: picks the subcommand and hands it the rest of the arguments. Nothing else.
import { readFileSync } from 'node:fs';
import { guardStream, printable } from './output.js';

const HELP = `petkit: a mock server and contract-testing kit for the Pet Adoption API (openapi.yaml)

Usage:
  petkit mock [options]       serve a fake Pet Adoption API at http://127.0.0.1:4010/v1
  petkit contract [options]   check a server against openapi.yaml, check by check
  petkit proxy --upstream URL forward to a real backend, checking its traffic against openapi.yaml
  petkit help [command]       this text, or a command's options
  petkit --version

Run 'petkit <command> --help' for a command's options.
`;

interface Command {
  run(argv: string[]): Promise<number>;
}

const COMMANDS: Record<string, () => Promise<Command>> = {
  mock: () => import('./mock.js'),
  contract: () => import('./contract.js'),
  proxy: () => import('./proxy.js'),
};

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  // `petkit --help | head -0`: a reader gone before the text is written is no failure of petkit's (it
  // was an EPIPE stack trace and exit 1). Only what this file writes: a command guards its own.
  const stdout = { write: (text: string) => guardStream(process.stdout).write(text) };
  const stderr = { write: (text: string) => guardStream(process.stderr).write(text) };
  if (
    name === undefined ||
    name === '--help' ||
    name === '-h' ||
    (name === 'help' && (rest.length === 0 || rest[0] === 'help'))
  ) {
    stdout.write(HELP);
    return 0;
  }
  if (name === '--version' || name === '-v') {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    stdout.write(`${pkg.version}\n`);
    return 0;
  }
  const wanted = name === 'help' ? rest[0] : name;
  const load = wanted === undefined ? undefined : COMMANDS[wanted];
  if (load === undefined) {
    // Quoted as the terminal may show it: `petkit $'\e[2J'` cleared the screen it was refused on.
    stderr.write(`petkit: unknown command "${printable(wanted ?? '')}".\n\n${HELP}`);
    return 2;
  }
  const command = await load();
  return command.run(name === 'help' ? ['--help'] : rest);
}

// Not a top-level await: the bundled command (dist/bin) is CommonJS, which has none.
void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});

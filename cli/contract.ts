// `petkit contract`: parses flags, runs the engine, hands the report to a reporter. Nothing else.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  CHECK_IDS,
  ContractAbort,
  renderJson,
  renderJunit,
  renderPretty,
  runContract,
} from '../contract-tests/index.js';
import { integerFlag, UsageError } from './flags.js';

const HELP = `petkit contract: check a server against openapi.yaml, check by check

Usage:
  petkit contract --base-url URL --api-key KEY [options]

  --base-url URL       the server, with its version prefix (http://127.0.0.1:4010/v1); or CONTRACT_BASE_URL
  --api-key KEY        a bearer key it accepts (never printed); or CONTRACT_API_KEY
  --read-only          send no POST: safe against staging
  --reporter NAME      pretty (default), junit or json
  --output FILE        write the report there instead of to stdout
  --checks a,b         only these checks
  --skip a,b           not these checks
  --examples N         generated cases per property, besides the hand-derived ones (default 20)
  --seed N             repeat a run's cases (every report prints its seed)
  --probe-rate-limit   also run rate_limit_behaviour: exhaust a window on purpose
  --probe-ban          also run rate_limit_ban: drive the key into its 5-minute ban on purpose
                       (only for a target and a key you can lose for five minutes)
  --max-rpm N          at most N requests a minute (default: the first X-RateLimit-Limit seen)
  --timeout MS         per request (default 10000)

Checks: ${CHECK_IDS.join(', ')}

Exit status: 0 conformant, 1 a check failed, 2 could not run (bad arguments, target
unreachable, key rejected, rate limit would risk the key's ban).
`;

export interface Io {
  readonly stdout: { write(text: string): unknown; readonly isTTY?: boolean };
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean };
  readonly env: Readonly<Record<string, string | undefined>>;
}

const list = (value: string | undefined) =>
  value === undefined
    ? undefined
    : value
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '');

export async function run(argv: string[], io: Io = process): Promise<number> {
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(argv).values;
  } catch (cause) {
    io.stderr.write(
      `petkit contract: ${(cause as Error).message}\nRun 'petkit contract --help' for the options.\n`,
    );
    return 2;
  }
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  const reporter = values.reporter ?? 'pretty';
  if (!['pretty', 'junit', 'json'].includes(reporter)) {
    io.stderr.write(`petkit contract: --reporter must be pretty, junit or json, got "${reporter}".\n`);
    return 2;
  }
  const progress = io.stderr.isTTY === true && values.output === undefined ? io.stderr : undefined;
  try {
    const report = await runContract({
      baseUrl: values['base-url'] ?? io.env.CONTRACT_BASE_URL ?? '',
      apiKey: values['api-key'] ?? io.env.CONTRACT_API_KEY ?? '',
      readOnly: values['read-only'] ?? false,
      probeRateLimit: values['probe-rate-limit'] ?? false,
      probeBan: values['probe-ban'] ?? false,
      ...optional('checks', list(values.checks)),
      ...optional('skip', list(values.skip)),
      ...optional('examples', integerFlag('--examples', values.examples)),
      ...optional('seed', integerFlag('--seed', values.seed)),
      ...optional('maxRpm', integerFlag('--max-rpm', values['max-rpm'])),
      ...optional('timeoutMs', integerFlag('--timeout', values.timeout)),
      ...(progress === undefined
        ? {}
        : {
            onProgress: ({ phase, requests }) => {
              progress.write(`\r\u001b[2K${phase}: ${requests} requests`);
            },
          }),
    });
    if (progress !== undefined) progress.write('\r\u001b[2K');
    const color = values.output === undefined && io.stdout.isTTY === true && (io.env.NO_COLOR ?? '') === '';
    const text =
      reporter === 'json'
        ? renderJson(report)
        : reporter === 'junit'
          ? renderJunit(report)
          : renderPretty(report, { color });
    if (values.output === undefined) io.stdout.write(text);
    else {
      writeFileSync(values.output, text);
      io.stdout.write(
        `petkit contract: ${report.verdict} (exit ${report.exitCode}), ${report.findings.length} finding${report.findings.length === 1 ? '' : 's'}, seed ${report.seed}; ${reporter} report in ${values.output}\n`,
      );
    }
    if (report.aborted !== null) io.stderr.write(`petkit contract: ${report.aborted.message}\n`);
    return report.exitCode;
  } catch (cause) {
    if (progress !== undefined) progress.write('\r\u001b[2K');
    if (cause instanceof ContractAbort || cause instanceof UsageError) {
      io.stderr.write(`petkit contract: ${cause.message}\n`);
      return 2;
    }
    throw cause;
  }
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      'base-url': { type: 'string' },
      'api-key': { type: 'string' },
      'read-only': { type: 'boolean' },
      reporter: { type: 'string' },
      output: { type: 'string' },
      checks: { type: 'string' },
      skip: { type: 'string' },
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

// The vitest front: the same engine as `petkit contract`, one test per check × operation.
//   CONTRACT_BASE_URL=http://127.0.0.1:4010/v1 CONTRACT_API_KEY=demo-enterprise npx vitest run contract-tests
// vitest.config.ts includes this file only when CONTRACT_BASE_URL is set, so a plain `npm test` never
// collects it. The other flags have environment twins: CONTRACT_READ_ONLY=1, CONTRACT_SEED,
// CONTRACT_EXAMPLES, CONTRACT_CHECKS, CONTRACT_SKIP, CONTRACT_PROBE_RATE_LIMIT=1, CONTRACT_MAX_RPM,
// CONTRACT_TIMEOUT. Failures read as in the pretty reporter; JUnit comes from vitest's own reporter.
import { describe, test } from 'vitest';
import type { ContractOptions } from './options.js';
import { describeFinding } from './reporters/text.js';
import { runContract } from './run.js';

const env = process.env;
const int = (value: string | undefined) => (value === undefined || value === '' ? undefined : Number(value));
const list = (value: string | undefined) =>
  value === undefined || value === '' ? undefined : value.split(',');
const flag = (value: string | undefined) =>
  value !== undefined && value !== '' && value !== '0' && value !== 'false';

/** A key only when its value is set (the options are exactOptionalPropertyTypes-strict). */
function optional<K extends keyof ContractOptions>(
  key: K,
  value: ContractOptions[K] | undefined,
): Partial<ContractOptions> {
  return value === undefined ? {} : { [key]: value };
}

const report = await runContract({
  baseUrl: env.CONTRACT_BASE_URL ?? '',
  apiKey: env.CONTRACT_API_KEY ?? '',
  readOnly: flag(env.CONTRACT_READ_ONLY),
  probeRateLimit: flag(env.CONTRACT_PROBE_RATE_LIMIT),
  probeBan: flag(env.CONTRACT_PROBE_BAN),
  ...optional('seed', int(env.CONTRACT_SEED)),
  ...optional('examples', int(env.CONTRACT_EXAMPLES)),
  ...optional('maxRpm', int(env.CONTRACT_MAX_RPM)),
  ...optional('timeoutMs', int(env.CONTRACT_TIMEOUT)),
  ...optional('checks', list(env.CONTRACT_CHECKS)),
  ...optional('skip', list(env.CONTRACT_SKIP)),
  ...optional('operations', list(env.CONTRACT_OPERATIONS)),
  ...optional('skipOperations', list(env.CONTRACT_SKIP_OPERATIONS)),
  ...optional('budget', int(env.CONTRACT_BUDGET)),
});

describe(`petkit contract ${report.baseUrl} (seed ${report.seed})`, () => {
  test('the run went to the end', () => {
    if (report.aborted !== null) throw new Error(`${report.aborted.code}: ${report.aborted.message}`);
  });
  for (const result of report.results) {
    const name = `${result.check} × ${result.operationId}`;
    if (result.outcome === 'skipped') {
      test.skip(`${name} (${result.reason ?? 'skipped'})`, () => {});
      continue;
    }
    const findings = report.findings.filter(
      (finding) => finding.check === result.check && finding.operationId === result.operationId,
    );
    test(result.outcome === 'warning' ? `${name} (warning)` : name, () => {
      if (result.outcome === 'failed') throw new Error(findings.map(describeFinding).join('\n\n'));
    });
  }
});

// The vitest front (contract-tests/contract.live.ts) run for real: a child vitest against a server
// started here. It passes against the mock and fails, by name, against a broken one.
import { execFile } from 'node:child_process';
import { afterEach, expect, test } from 'vitest';
import { CHECKS } from '../contract-tests/checks.js';
import { type RunningServer, startServer } from '../mocks/node-server.js';
import { loadSpec } from '../openapi/index.js';
import { BROKEN_SERVERS } from './servers/broken.js';
import { createReference, REFERENCE_KEY, type Served, serve } from './servers/reference.js';

let served: Served | RunningServer | undefined;

// One test per check × operation it applies to, counted from the registry; the opt-in ones skipped.
const pairs = loadSpec().operations.flatMap((operation) =>
  CHECKS.filter((check) => check.appliesTo(operation)),
);
const optIn = pairs.filter((check) => check.optIn !== false).length;
// The child's first test says the run went to the end.
const total = pairs.length + 1;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

async function vitestAgainst(url: string, key: string): Promise<{ code: number; output: string }> {
  // The child is a vitest of its own: none of this run's VITEST* variables.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [
        'node_modules/vitest/vitest.mjs',
        'run',
        'contract-tests/contract.live.ts',
        '--reporter=verbose',
        '--no-color',
      ],
      {
        env: {
          ...env,
          CONTRACT_BASE_URL: url,
          CONTRACT_API_KEY: key,
          CONTRACT_SEED: '4',
          NO_COLOR: '1',
        },
        timeout: 90_000,
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, output: stdout + stderr }),
    );
  });
}

test('CONTRACT_BASE_URL=… npx vitest run contract-tests against the mock: one passing test per check × operation', async () => {
  served = await startServer({ port: 0, host: '127.0.0.1' });
  const { code, output } = await vitestAgainst(served.url, 'demo-enterprise');
  expect(code).toBe(0);
  expect(output).toMatch(
    /✓ .*petkit contract http:\/\/127\.0\.0\.1:\d+\/v1 \(seed 4\) > auth_enforced × getPet/,
  );
  expect(output).toContain(`Tests  ${total - optIn} passed | ${optIn} skipped (${total})`);
  expect(output).not.toContain('demo-enterprise');
}, 90_000);

test('against a broken server the check that exists for it fails, by name, with its curl', async () => {
  const broken = BROKEN_SERVERS.find((server) => server.name === 'unknown-id-400');
  served = await serve(broken?.handler() ?? createReference());
  const { code, output } = await vitestAgainst(served.url, REFERENCE_KEY);
  expect(code).toBe(1);
  expect(output).toMatch(/× .*> not_found × getPet/);
  expect(output).toContain(`Tests  1 failed | ${total - optIn - 1} passed | ${optIn} skipped (${total})`);
  expect(output).toMatch(/curl -i '.*\/v1\/pets\/9007199254740991'/);
}, 90_000);

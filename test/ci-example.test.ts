// examples/ci/petkit.yml, run: every `run:` command of both jobs, as written, in a small app with
// petkit installed, as GitHub Actions would run it (bash -eo pipefail, the step's env, GITHUB_ENV
// carried to later steps). The secrets become a local mock's URL and a demo key. Not run: `npm ci`
// (the app here is installed already) and the `uses:` steps (checked for what they must say).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { Report } from '../contract-tests/index.js';
import { type RunningServer, startServer } from '../mocks/index.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Workflow {
  jobs: Record<string, { 'runs-on': string; steps: Step[] }>;
}

const workflow = parse(await readFile(join(ROOT, 'examples/ci/petkit.yml'), 'utf8')) as Workflow;

/** The stand-in for an app's own tests: they call the API at PETS_API_URL with PETS_API_KEY. */
const APP_TEST = `import assert from 'node:assert/strict';
import { test } from 'node:test';

test('lists pets from the API', async () => {
  const res = await fetch(\`\${process.env.PETS_API_URL}/pets?limit=5\`, {
    headers: { Authorization: \`Bearer \${process.env.PETS_API_KEY}\` },
  });
  assert.equal(res.status, 200);
  assert.equal((await res.json()).length, 5);
});
`;

let app: string;
let staging: RunningServer;
const started: ChildProcess[] = [];

beforeAll(async () => {
  app = await mkdtemp(join(tmpdir(), 'petkit-ci-'));
  await writeFile(
    join(app, 'package.json'),
    JSON.stringify({ name: 'my-app', private: true, type: 'module', scripts: { test: 'node --test' } }),
  );
  await writeFile(join(app, 'pets.test.js'), APP_TEST);
  // petkit as `npm ci` would leave it: the package, and its bin.
  await mkdir(join(app, 'node_modules/.bin'), { recursive: true });
  await symlink(ROOT, join(app, 'node_modules/petkit'), 'dir');
  await symlink(join(ROOT, 'dist/bin/petkit.js'), join(app, 'node_modules/.bin/petkit'));
  staging = await startServer({ port: 0, host: '127.0.0.1', seed: 42 });
});

afterAll(async () => {
  // Each step ran in a process group of its own; what it left in the background ends with it.
  for (const child of started) {
    if (child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // the group is gone already
      }
    }
  }
  await staging?.close();
  if (app) await rm(app, { recursive: true, force: true });
});

const secrets = () => ({ STAGING_API_URL: staging.url, STAGING_API_KEY: 'demo-enterprise' });

function expand(value: string): string {
  return value.replace(/\$\{\{\s*secrets\.(\w+)\s*\}\}/g, (_, name: string) => {
    const secret = (secrets() as Record<string, string>)[name];
    if (secret === undefined) throw new Error(`the workflow uses an unknown secret ${name}`);
    return secret;
  });
}

/** Runs a job's `run:` steps in order, as the runner would; returns each step's output and exit. */
async function runJob(name: string): Promise<{ step: string; code: number | null; output: string }[]> {
  const job = workflow.jobs[name];
  if (job === undefined) throw new Error(`no job ${name}`);
  const githubEnv = join(app, `github-env-${name}`);
  const carried: Record<string, string> = {};
  const results = [];
  for (const step of job.steps) {
    if (step.run === undefined || step.run.trim() === 'npm ci') continue;
    await writeFile(githubEnv, '');
    const env = {
      ...process.env,
      ...carried,
      ...Object.fromEntries(
        Object.entries(step.env ?? {}).map(([key, value]) => [key, expand(String(value))]),
      ),
      GITHUB_ENV: githubEnv,
      CI: 'true',
    };
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run], {
      cwd: app,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.push(child);
    let output = '';
    child.stdout.on('data', (data: Buffer) => (output += data.toString()));
    child.stderr.on('data', (data: Buffer) => (output += data.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    results.push({ step: step.name ?? step.run, code, output });
    for (const line of (await readFile(githubEnv, 'utf8')).split('\n')) {
      const eq = line.indexOf('=');
      if (eq > 0) carried[line.slice(0, eq)] = line.slice(eq + 1);
    }
  }
  return results;
}

/** `probe`'s first truthy answer, polled every 50 ms; its last answer when `ms` run out. */
async function until<T>(ms: number, probe: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const answer = await probe();
    if (answer || Date.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  isArray: (name) => name === 'testcase' || name === 'property',
});

interface JunitCase {
  classname: string;
  name: string;
  failure?: unknown;
  skipped?: unknown;
}

describe('examples/ci/petkit.yml', () => {
  it('keeps the JUnit report whatever the verdict, and reads staging from secrets', () => {
    const steps = workflow.jobs.contract?.steps ?? [];
    const contract = steps.find((step) => step.run?.includes('petkit contract'));
    expect(contract?.run).toMatch(/--read-only/);
    expect(contract?.run).toMatch(/--reporter junit --output contract-results\.xml/);
    // GitHub's expression syntax, not a template string.
    const secret = (name: string) => ['$', `{{ secrets.${name} }}`].join('');
    expect(contract?.env).toEqual({
      CONTRACT_BASE_URL: secret('STAGING_API_URL'),
      CONTRACT_API_KEY: secret('STAGING_API_KEY'),
    });
    const upload = steps.find((step) => step.uses?.startsWith('actions/upload-artifact@'));
    expect(upload?.if).toBe('always()');
    expect(upload?.with?.path).toBe('contract-results.xml');
  });

  it('runs the contract job against a local mock standing in for staging: exit 0, a JUnit file', async () => {
    const results = await runJob('contract');
    expect(results.map((result) => [result.step, result.code])).toEqual([
      ['Contract suite against staging', 0],
    ]);
    expect(results[0]?.output).toMatch(
      /^petkit contract: conformant \(exit 0\), 0 findings, seed \d+; junit report in contract-results\.xml$/m,
    );
  }, 60_000);

  it('wrote a JUnit report whose counts and names are the json report’s of a run with the same seed', async () => {
    const parsed = xml.parse(await readFile(join(app, 'contract-results.xml'), 'utf8')) as {
      testsuites: {
        tests: string;
        failures: string;
        testsuite: {
          tests: string;
          failures: string;
          skipped: string;
          properties: { property: { name: string; value: string }[] };
          testcase: JunitCase[];
        };
      };
    };
    const suite = parsed.testsuites.testsuite;
    const property = (name: string) => suite.properties.property.find((entry) => entry.name === name)?.value;
    const seed = property('seed') ?? '';
    expect(seed).toMatch(/^\d+$/);

    // The same command, with the json reporter and that seed, against the same fresh mock.
    staging.mock.reset();
    const step = workflow.jobs.contract?.steps.find((candidate) =>
      candidate.run?.includes('petkit contract'),
    );
    const command = `${step?.run?.replace('--reporter junit --output contract-results.xml', '--reporter json --output contract.json')} --seed ${seed}`;
    const child = spawn('bash', ['-eo', 'pipefail', '-c', command], {
      cwd: app,
      env: { ...process.env, CONTRACT_BASE_URL: staging.url, CONTRACT_API_KEY: 'demo-enterprise' },
      stdio: 'ignore',
    });
    expect(await new Promise((resolve) => child.on('close', resolve))).toBe(0);
    const report = JSON.parse(await readFile(join(app, 'contract.json'), 'utf8')) as Report;

    expect(String(report.seed)).toBe(seed);
    expect(property('requests')).toBe(String(report.requests));
    const cases = suite.testcase;
    expect(cases.map((testCase) => testCase.name)).toEqual(
      report.results.map((result) => `${result.check} × ${result.operationId}`),
    );
    expect(cases.map((testCase) => testCase.classname)).toEqual(report.results.map((result) => result.check));
    expect(Number(suite.tests)).toBe(report.results.length);
    expect(Number(suite.failures)).toBe(
      report.results.filter((result) => result.outcome === 'failed').length,
    );
    expect(Number(suite.skipped)).toBe(
      report.results.filter((result) => result.outcome === 'skipped').length,
    );
    expect(
      cases.filter((testCase) => testCase.skipped !== undefined).map((testCase) => testCase.name),
    ).toEqual(
      report.results
        .filter((result) => result.outcome === 'skipped')
        .map((result) => `${result.check} × ${result.operationId}`),
    );
    // Read-only: the checks that need a created pet are skipped, and said so.
    expect(Number(suite.skipped)).toBeGreaterThan(0);
  }, 60_000);

  it('stops the mock that `npx petkit mock &` started when the script kills it with `kill $!`, freeing its port', async () => {
    // $! is npx's pid, and npm runs the bin under `sh -c`: SIGTERM reaches npm and that shell, and
    // used to leave the mock running, its port held, for the rest of the job.
    const script =
      'npx petkit mock --port 0 --url-file kill-url.txt > kill-mock.log 2>&1 &\necho "$!"\nwait "$!"\n';
    const shell = spawn('bash', ['--noprofile', '--norc', '-c', script], {
      cwd: app,
      detached: true,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    started.push(shell);
    let printed = '';
    shell.stdout.on('data', (data: Buffer) => (printed += data.toString()));
    const urlFile = join(app, 'kill-url.txt');
    const url = await until(10_000, async () => (await readFile(urlFile, 'utf8').catch(() => '')).trim());
    const npx = Number(printed.trim());
    expect(npx).toBeGreaterThan(0);
    const health = `${new URL(url).origin}/__petkit/health`;
    expect((await fetch(health)).status).toBe(200);

    process.kill(npx, 'SIGTERM');
    // Within a few seconds the port is free and the mock has stopped as on SIGTERM (its URL file gone).
    const refused = await until(5_000, () =>
      fetch(health).then(
        () => false,
        () => true,
      ),
    );
    expect(refused).toBe(true);
    // Its URL file went first, as it began to stop: gone by the time the port refuses.
    await expect(readFile(urlFile, 'utf8')).rejects.toThrow(/ENOENT/);
    expect(await readFile(join(app, 'kill-mock.log'), 'utf8')).toMatch(
      /^petkit mock: npx ended, finishing 0 in-flight request\(s\) and stopping\.$/m,
    );
  }, 30_000);

  it('runs the app-tests job: the mock in the background, its URL handed on, the app’s tests green', async () => {
    const results = await runJob('app-tests');
    expect(results.map((result) => [result.step, result.code])).toEqual([
      ['Start petkit mock', 0],
      ["The app's tests, against the mock", 0],
      ["The mock's log (one line per request)", 0],
    ]);
    expect(results[1]?.output).toMatch(/# pass 1\n# fail 0/);
    // The log shows the mock served the app's request.
    expect(results[2]?.output).toMatch(
      /^petkit mock: serving the Pet Adoption API at http:\/\/127\.0\.0\.1:\d+\/v1$/m,
    );
    expect(results[2]?.output).toMatch(/ GET \/v1\/pets\?limit=5 200 \d+ms$/m);
  }, 60_000);
});

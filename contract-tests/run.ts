// The engine behind both fronts (the CLI and the vitest file): runs every selected check against a
// base URL and returns a Report. It prints nothing.
import type { Pet, Spec } from '../openapi/index.js';
import { checkResponse, loadSpec } from '../openapi/index.js';
import { CHECK_IDS, CHECKS, type CheckId } from './checks.js';
import { createClient } from './client.js';
import { type Context, conformingBody } from './context.js';
import { ContractAbort, TargetSilent } from './errors.js';
import { type Exchange, toCurl } from './exchange.js';
import { type Finding, findingKey, findingOf } from './finding.js';
import { locationFinding } from './location.js';
import { type ContractOptions, normalizeOptions } from './options.js';
import { createRateLimitModel } from './rate-limit-model.js';
import type { CheckResult, CoverageEntry, Report } from './report.js';
import { validRequest } from './requests.js';
import { authScenario } from './scenarios/auth.js';
import { banScenario } from './scenarios/ban.js';
import { createScenario } from './scenarios/create.js';
import { listScenario } from './scenarios/list.js';
import { negativeScenario } from './scenarios/negative.js';
import { rateLimitScenario } from './scenarios/rate-limit.js';
import { afterCreatesScenario, notFoundScenario, useAfterCreateScenario } from './scenarios/stateful.js';

type Scenario = (context: Context) => Promise<void>;

/** First every boundary and every kind of case, once each: what must not be lost to a tight budget. */
const FIRST_PASS: readonly (readonly [string, Scenario])[] = [
  ['auth', authScenario],
  ['list', listScenario],
  ['create', createScenario],
  ['negative', negativeScenario],
  ['use after create', useAfterCreateScenario],
  ['not found', notFoundScenario],
];
/** Then the other cases of each kind and the generated ones, as the budget allows. */
const SECOND_PASS: readonly (readonly [string, Scenario])[] = [
  ['list (more cases)', listScenario],
  ['create (more cases)', createScenario],
  ['negative (more cases)', negativeScenario],
];
/** The properties of the second pass: the generated cases share what the budget leaves. */
const SECOND_PASS_PROPERTIES = 7;
/** Requests kept for the end of the run (the list read back after the creates). */
const END_RESERVE = 2;
const PROBES: readonly (readonly [string, Scenario])[] = [
  ['rate limit probe', rateLimitScenario],
  ['ban probe', banScenario],
];
/** Without --budget, a run is held to two minutes of its pace: 120 requests for a 60-a-minute key. */
const DEFAULT_BUDGET_MINUTES = 2;

/** The budget is spent: the scenarios stop, and what they did not reach is reported skipped. */
class BudgetSpent extends Error {
  override readonly name = 'BudgetSpent';
}

const OPT_IN = CHECKS.filter((check) => check.optIn !== false).map((check) => check.id);

export async function runContract(input: ContractOptions, spec: Spec = loadSpec()): Promise<Report> {
  const options = normalizeOptions(
    input,
    OPT_IN,
    CHECK_IDS,
    spec.operations.map((operation) => operation.id),
  );
  const startedMs = options.now();
  const findings = new Map<string, Finding>();
  const passes = new Map<string, number>();
  const notes = new Map<string, string>();
  const unverified = new Map<string, string>();
  const seen = new Set<string>();
  const key = (check: CheckId, operationId: string) => `${check}|${operationId}`;
  let phase = 'preflight';

  const addFinding = (finding: Finding) => {
    if (!options.checks.has(finding.check) || !options.operations.has(finding.operationId)) return;
    const existing = findings.get(findingKey(finding));
    if (existing === undefined) findings.set(findingKey(finding), finding);
    else {
      existing.occurrences += 1;
      if (!existing.instancePaths.includes(finding.instancePath))
        existing.instancePaths.push(finding.instancePath);
    }
  };
  const model = createRateLimitModel();
  const createdPets: Pet[] = [];
  const onExchange = (exchange: Exchange) => {
    options.onProgress({
      phase,
      requests: client.requests,
      exchange,
      ...(client.maxRpm === undefined ? {} : { maxRpm: client.maxRpm }),
    });
    if (exchange.response === null) return;
    // A helper request to an operation left out (--operations) is not judged.
    if (!options.operations.has(exchange.operationId)) return;
    const contradiction = model.observe(exchange, exchange.overlapped === true, options.now());
    if (contradiction !== undefined) {
      addFinding(findingOf(exchange, { check: 'response_headers_conformance', ...contradiction }));
    }
    seen.add(`${exchange.operationId}|${exchange.response.status}`);
    if (exchange.operationId === 'createPet' && exchange.response.status === 201) {
      const created = conformingBody(spec, exchange)?.value as Pet | undefined;
      if (created !== undefined) createdPets.push(created);
      // Where the Location points (a missing one is the header checks' below); the id is use_after_create's.
      const requestUrl = `${options.baseUrl}${spec.operation('createPet').path}`;
      const placed = locationFinding(
        exchange.response.headers.location,
        requestUrl,
        options.baseUrl,
        created?.id,
      );
      if (placed !== undefined) addFinding(findingOf(exchange, placed));
    }
    const operation = spec.operation(exchange.operationId);
    for (const verdict of checkResponse(spec, operation, exchange.response, { nowMs: options.now() })) {
      if (!options.checks.has(verdict.check)) continue;
      if (verdict.finding === undefined) {
        const k = key(verdict.check, exchange.operationId);
        passes.set(k, (passes.get(k) ?? 0) + 1);
      } else {
        addFinding(findingOf(exchange, { check: verdict.check, ...verdict.finding }));
      }
    }
  };
  const client = createClient({ ...options, onExchange });

  let knownPets: Pet[] = [];
  let pass: Context['pass'] = 'boundaries';
  /** The cap in force: --budget, or two minutes of the learnt pace (learnt by the preflight). */
  let budget = options.budget ?? Number.POSITIVE_INFINITY;
  let budgetSpent = false;
  let share = Number.POSITIVE_INFINITY;
  const failedKinds = new Map<string, Set<string>>();
  let reserve = 0;
  const budgetLeft = () => budget - reserve - client.requests;
  const context: Context = {
    spec,
    baseUrl: options.baseUrl,
    seed: options.seed,
    examples: options.examples,
    readOnly: options.readOnly,
    keyHasLetters: /[a-z]/i.test(options.apiKey),
    get knownPets() {
      return knownPets;
    },
    createdPets,
    get pass() {
      return pass;
    },
    budgetLeft,
    generatedShare: () => share,
    failedKinds(property) {
      let kinds = failedKinds.get(property);
      if (kinds === undefined) {
        kinds = new Set();
        failedKinds.set(property, kinds);
      }
      return kinds;
    },
    send: (outgoing, sendOptions) => {
      if (budgetLeft() < 1) throw new BudgetSpent();
      return client.send(outgoing, sendOptions);
    },
    selected: (check) => options.checks.has(check),
    tested: (operationId) => options.operations.has(operationId),
    passed(check, operationId) {
      passes.set(key(check, operationId), (passes.get(key(check, operationId)) ?? 0) + 1);
    },
    failed(check, exchange, finding) {
      addFinding(findingOf(exchange, { check, severity: 'error', ...finding }));
    },
    note(check, operationId, reason) {
      notes.set(key(check, operationId), reason);
    },
    unverified(check, operationId, reason) {
      unverified.set(key(check, operationId), reason);
    },
    now: options.now,
    sleep: options.sleep,
  };

  let aborted: Report['aborted'] = null;
  /** Set when the target stopped answering: nothing after it is judged. */
  let silence: TargetSilent | undefined;
  try {
    knownPets = await preflight(context);
    if (options.budget === undefined && client.maxRpm !== undefined) {
      budget = DEFAULT_BUDGET_MINUTES * client.maxRpm;
    }
    try {
      for (const [name, scenario] of FIRST_PASS) {
        phase = name;
        await scenario(context);
      }
      pass = 'more';
      reserve = END_RESERVE;
      share = Math.max(0, Math.floor(budgetLeft() / SECOND_PASS_PROPERTIES));
      for (const [name, scenario] of SECOND_PASS) {
        phase = name;
        await scenario(context);
      }
      reserve = 0;
      phase = 'after creates';
      await afterCreatesScenario(context);
    } catch (cause) {
      if (!(cause instanceof BudgetSpent)) throw cause;
      budgetSpent = true;
    }
    // The probes spend a window on purpose, when asked: only an explicit --budget holds them.
    if (options.budget === undefined) budget = Number.POSITIVE_INFINITY;
    for (const [name, scenario] of PROBES) {
      phase = name;
      await scenario(context);
    }
  } catch (cause) {
    if (cause instanceof BudgetSpent) budgetSpent = true;
    else if (cause instanceof TargetSilent) {
      silence = cause;
      // Whatever was selected: a target that stopped answering is the run's finding, exit 1.
      const finding = findingOf(cause.exchange, {
        check: 'not_a_server_error',
        severity: 'error',
        message: cause.message,
        expected: `an answer to every request within the --timeout (${options.timeoutMs} ms)`,
      });
      findings.set(findingKey(finding), finding);
    } else if (!(cause instanceof ContractAbort)) throw cause;
    else
      aborted = {
        code: cause.code,
        message: cause.message,
        curl: cause.request === undefined ? null : toCurl(cause.request),
      };
  }

  const all = [...findings.values()];
  const results: CheckResult[] = [];
  for (const check of CHECKS) {
    for (const operation of spec.operations) {
      if (!check.appliesTo(operation)) continue;
      const k = key(check.id, operation.id);
      const mine = all.filter(
        (finding) => finding.check === check.id && finding.operationId === operation.id,
      );
      const passed = passes.get(k) ?? 0;
      const base = { check: check.id, operationId: operation.id, passes: passed, findings: mine.length };
      if (!options.operations.has(operation.id)) {
        results.push({
          ...base,
          outcome: 'skipped',
          reason: 'not selected (--operations/--skip-operations)',
        });
      } else if (!options.checks.has(check.id)) {
        const reason =
          check.optIn !== false ? `opt-in: run with ${check.optIn}` : 'not selected (--checks/--skip)';
        results.push({ ...base, outcome: 'skipped', reason });
      } else if (mine.some((finding) => finding.severity === 'error')) {
        results.push({ ...base, outcome: 'failed' });
      } else if (silence !== undefined) {
        const answered = `${silence.answered} answered request${silence.answered === 1 ? '' : 's'}`;
        results.push({
          ...base,
          outcome: 'skipped',
          reason: `not judged: the target stopped answering after ${answered}`,
        });
      } else if (unverified.has(k)) {
        results.push({ ...base, outcome: 'skipped', reason: unverified.get(k) ?? '' });
      } else if (mine.length > 0) {
        results.push({ ...base, outcome: 'warning' });
      } else if (passed > 0) {
        results.push({ ...base, outcome: 'passed' });
      } else {
        const reason =
          notes.get(k) ??
          (options.readOnly && operation.method !== 'GET'
            ? '--read-only: no request sent'
            : aborted !== null
              ? 'the run stopped before it'
              : budgetSpent
                ? `the budget of ${budget} requests was spent before it (--budget)`
                : 'no conclusive case (see the other findings)');
        results.push({ ...base, outcome: 'skipped', reason });
      }
    }
  }
  const coverage: CoverageEntry[] = spec.operations.flatMap((operation) =>
    [...operation.responses.keys()].map((status) => ({
      operationId: operation.id,
      status,
      exercised: seen.has(`${operation.id}|${status}`),
    })),
  );
  const failed = results.some((result) => result.outcome === 'failed') || silence !== undefined;
  return {
    tool: 'petkit contract',
    schemaVersion: 1,
    // The key hidden should the user have put it in the URL.
    baseUrl: options.redactor.response(options.baseUrl),
    seed: options.seed,
    examples: options.examples,
    readOnly: options.readOnly,
    startedAt: new Date(startedMs).toISOString(),
    durationMs: options.now() - startedMs,
    requests: client.requests,
    maxRpm: client.maxRpm ?? null,
    budget: options.budget ?? (client.maxRpm === undefined ? null : DEFAULT_BUDGET_MINUTES * client.maxRpm),
    results,
    findings: all,
    coverage,
    verdict: aborted !== null ? 'aborted' : failed ? 'nonconformant' : 'conformant',
    aborted,
    exitCode: aborted !== null ? 2 : failed ? 1 : 0,
  };
}

/** One request to see that the target answers and takes the key; also learns the rate limit. */
async function preflight(context: Context): Promise<Pet[]> {
  const listPets = context.spec.operation('listPets');
  const exchange = await context.send(validRequest(context, listPets));
  const response = exchange.response;
  if (response === null) {
    throw new ContractAbort(
      'unreachable',
      `Cannot reach ${exchange.request.url}: ${exchange.failure?.message ?? 'no response'}. ${unreachableHint(exchange.failure?.code, exchange.failure?.message)}`,
      { request: exchange.request },
    );
  }
  if (response.status === 404) {
    throw new ContractAbort(
      'unreachable',
      `${exchange.request.url} answered 404: no listPets there. Is this the Pet Adoption API, and does --base-url include its version prefix (…/v1)?`,
      { request: exchange.request },
    );
  }
  if (response.status === 401) {
    const getPet = context.spec.operation('getPet');
    const again = await context.send(validRequest(context, getPet));
    if (again.response?.status === 401) {
      throw new ContractAbort(
        'key_rejected',
        'The target answered 401 to the API key on every call: is --api-key right?',
        { request: again.request },
      );
    }
  }
  const body = response.status === 200 ? conformingBody(context.spec, exchange) : undefined;
  return body === undefined ? [] : (body.value as Pet[]);
}

/** What to try, by why the target could not be reached. */
function unreachableHint(code: string | undefined, message: string | undefined): string {
  // undici's fetch refuses the Fetch standard's blocked ports with no code, only this message.
  if (code === undefined && message?.endsWith('bad port') === true)
    return 'fetch refuses this port (one the Fetch standard blocks, such as 6000 or 6665 to 6669): serve the target on another.';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'Is the host name in --base-url right?';
  if (code !== undefined && TLS_TRUST_CODES.has(code))
    return "Node does not trust the server's TLS certificate: to trust its CA, run with NODE_EXTRA_CA_CERTS=/path/to/ca.pem.";
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code === 'CERT_HAS_EXPIRED')
    return "The server's TLS certificate does not hold for this name or this date.";
  return 'Is the server running, and is --base-url right?';
}

/** OpenSSL's codes for a certificate chain that ends in no CA Node trusts. */
const TLS_TRUST_CODES: ReadonlySet<string> = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
]);

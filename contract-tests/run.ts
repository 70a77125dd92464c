// The engine behind both fronts (the CLI and the vitest file): runs every selected check against a
// base URL and returns a Report. It prints nothing.
import type { Spec } from '../openapi/index.js';
import { loadSpec } from '../openapi/index.js';
import { CHECK_IDS, CHECKS } from './checks.js';
import { createClient } from './client.js';
import { type Context, conformingBody } from './context.js';
import { credentialSpellings } from './derive/credentials.js';
import { derivedScenario } from './derive/phase.js';
import { ContractAbort, TargetSilent } from './errors.js';
import { type Exchange, toCurl } from './exchange.js';
import { findingOf } from './finding.js';
import { methodProbe } from './http/probe.js';
import { wireProbe } from './http/wire-probe.js';
import { createJudge } from './judge.js';
import { createJudges } from './judges.js';
import { createContractModel } from './model/index.js';
import { GROUNDLESS_BAN } from './model/window.js';
import { type ContractOptions, normalizeOptions } from './options.js';
import type { Pet } from './pet-id.js';
import type { Report } from './report.js';
import { validRequest } from './requests.js';
import { createResults, skippedByChoice } from './results.js';
import { authScenario } from './scenarios/auth.js';
import { banScenario } from './scenarios/ban.js';
import { createScenario } from './scenarios/create.js';
import { listScenario } from './scenarios/list.js';
import { negativeScenario } from './scenarios/negative.js';
import { rateLimitScenario } from './scenarios/rate-limit.js';
import { afterCreatesScenario, notFoundScenario, useAfterCreateScenario } from './scenarios/stateful.js';
import { sequencesScenario } from './sequences/run-sequences.js';
import { OutOfTime } from './window-spender.js';

type Scenario = (context: Context) => Promise<void>;

/** First every boundary and every kind of case, once each: what must not be lost to a tight budget. */
const FIRST_PASS: readonly (readonly [string, Scenario])[] = [
  ['auth', authScenario],
  ['list', listScenario],
  ['create', createScenario],
  ['negative', negativeScenario],
  ['use after create', useAfterCreateScenario],
  ['not found', notFoundScenario],
  [
    'sequences',
    (context) => (context.methodOn('sequences') ? sequencesScenario(context) : Promise.resolve()),
  ],
  ['derived spellings', derivedScenario],
  ['method probe', methodProbe],
];
/** Then the other cases of each kind and the generated ones, as the budget allows. */
const SECOND_PASS: readonly (readonly [string, Scenario])[] = [
  // Two requests on the wire, first of what the budget allows: before the first pass they took two of
  // the cases every check needs once (at 60 a minute the first pass spends the whole budget of 114).
  ['wire probe', wireProbe],
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
  let phase = 'preflight';
  const results = createResults(spec, options, () => phase);
  const model = createContractModel(spec, options.baseUrl);
  const judge = createJudge({
    spec,
    options,
    judges: createJudges(spec, options.baseUrl, model),
    results,
  });
  const onExchange = (exchange: Exchange) => {
    options.onProgress({
      phase,
      requests: client.requests,
      exchange,
      ...(client.maxRpm === undefined ? {} : { maxRpm: client.maxRpm }),
    });
    results.sent(exchange.operationId);
    judge.judge(exchange);
  };
  const onWait = (window: 'key' | 'anonymous', untilMs: number) =>
    options.onProgress({
      phase,
      requests: client.requests,
      waiting: { window, untilMs },
      ...(client.maxRpm === undefined ? {} : { maxRpm: client.maxRpm }),
    });
  const client = createClient({
    ...options,
    onExchange,
    onWait,
    deadlineMs: startedMs + options.timeBudgetMs,
  });

  let knownPets: Pet[] = [];
  let pass: Context['pass'] = 'boundaries';
  /** The cap in force: --budget, or two windows less their margins (learnt by the preflight). */
  let budget = options.budget ?? Number.POSITIVE_INFINITY;
  let budgetSpent = false;
  /** The budget the run was held to before the probes (which only an explicit --budget holds). */
  let runBudget = budget;
  let share = Number.POSITIVE_INFINITY;
  const failedKinds = new Map<string, Set<string>>();
  let reserve = 0;
  const budgetLeft = () => budget - reserve - client.requests;
  /** Verdicts that wait for the run's requests to be over (context.atEnd). */
  const atEnd: (() => void)[] = [];
  const context: Context = {
    spec,
    baseUrl: options.baseUrl,
    seed: options.seed,
    examples: options.examples,
    readOnly: options.readOnly,
    keyHasLetters: /[a-z]/i.test(options.apiKey),
    credentials: credentialSpellings(options.apiKey),
    get knownPets() {
      return knownPets;
    },
    get createdPets() {
      return model.view.createdPets();
    },
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
    sendOnWire: (outgoings) => {
      // Each request counts as any other; a retry on a connection the target closed, one more.
      if (budgetLeft() < outgoings.length + 1) throw new BudgetSpent();
      return client.sendOnWire(outgoings);
    },
    refusedByFetch: (operationId) => client.refused.has(operationId),
    atEnd: (settle) => {
      atEnd.push(settle);
    },
    selected: (check) => options.checks.has(check),
    tested: (operationId) => options.operations.has(operationId),
    passed: results.passed,
    failed(check, exchange, finding) {
      // Its operation is no longer sent (client.ts): the table says why its pairs were not judged.
      if (exchange.failure?.kind === 'not_sent') return;
      results.add(findingOf(exchange, { check, severity: 'error', ...finding }), {
        sentSeq: exchange.sentSeq,
        by: 'scenario',
      });
    },
    note: results.note,
    unverified: results.unverified,
    now: options.now,
    sleep: options.sleep,
    methodOn: (method) => options.methods.has(method),
    view: model.view,
    judgementsOf: (exchange) => judge.judgementsOf(exchange.sentSeq),
  };

  let aborted: Report['aborted'] = null;
  /** The run stopped on a ban its own window shows to be groundless: a finding, not an abort. */
  let bannedWithoutCause = false;
  /** Set when the target stopped answering: nothing after it is judged. */
  let silence: TargetSilent | undefined;
  /** Why the time budget stopped the run, when it did. */
  let outOfTime: OutOfTime | undefined;
  /** A phase runs, then its passes stand (results.completed) even if the run stops later. */
  const run = async (name: string, scenario: Scenario) => {
    phase = name;
    await scenario(context);
    results.completed(name);
  };
  try {
    await run('preflight', async () => {
      knownPets = await preflight(context);
    });
    // Without --budget: two windows less their margins, 2 × (R − max(2, ⌈5% of R⌉)), of R = --max-rpm
    // when given (11400 at 6000), else the lowest X-RateLimit-Limit the key's answers gave (114 at 60);
    // with neither, no count (the time budget alone bounds the run).
    if (options.budget === undefined) budget = client.requestBudget() ?? budget;
    runBudget = budget;
    try {
      for (const [name, scenario] of FIRST_PASS) await run(name, scenario);
      pass = 'more';
      reserve = END_RESERVE;
      share = Math.max(0, Math.floor(budgetLeft() / SECOND_PASS_PROPERTIES));
      for (const [name, scenario] of SECOND_PASS) await run(name, scenario);
      reserve = 0;
      await run('after creates', afterCreatesScenario);
    } catch (cause) {
      if (cause instanceof BudgetSpent) budgetSpent = true;
      else if (cause instanceof OutOfTime) outOfTime = cause;
      else throw cause;
    }
    // The probes spend a window on purpose, when asked: only an explicit --budget holds them, and
    // they wait for windows past the time budget.
    runBudget = budget;
    if (options.budget === undefined) budget = Number.POSITIVE_INFINITY;
    client.setDeadline(Number.POSITIVE_INFINITY);
    for (const [name, scenario] of PROBES) await run(name, scenario);
  } catch (cause) {
    if (cause instanceof BudgetSpent) budgetSpent = true;
    else if (cause instanceof OutOfTime) outOfTime = cause;
    else if (cause instanceof TargetSilent) {
      silence = cause;
      // Whatever was selected: a target that stopped answering is the run's finding, exit 1.
      const finding = findingOf(cause.exchange, {
        check: 'not_a_server_error',
        severity: 'error',
        message: cause.message,
        expected: `an answer to every request within the --timeout (${options.timeoutMs} ms)`,
      });
      results.force(finding);
    } else if (!(cause instanceof ContractAbort)) throw cause;
    else if (
      cause.code === 'rate_limit_exhausted' &&
      results.findings().some((finding) => finding.cause === GROUNDLESS_BAN)
    )
      // The key is banned, so nothing more can be sent; but the window showed the ban groundless
      // (model/window.ts): the run ends on that finding, exit 1, not as a run that could not go on.
      bannedWithoutCause = true;
    else
      aborted = {
        code: cause.code,
        message: cause.message,
        curl: cause.request === undefined ? null : toCurl(cause.request, cause.encoded),
      };
  }

  for (const settle of atEnd.splice(0)) settle();
  judge.settle();
  const table = results.table({
    silentAfter: silence?.answered,
    muted: client.muted,
    aborted: aborted !== null || bannedWithoutCause,
    budgetSpent: budgetSpent ? runBudget : undefined,
    outOfTime:
      outOfTime === undefined
        ? undefined
        : {
            seconds: Math.round(options.timeBudgetMs / 1000),
            reason: outOfTime.reason,
            waitsFor:
              outOfTime.waitEndsMs === undefined
                ? undefined
                : Math.ceil((outOfTime.waitEndsMs - startedMs) / 1000),
          },
  });
  const failed = table.some((result) => result.outcome === 'failed') || silence !== undefined;
  // A run that judged no pair at all has nothing to call conformant (a key whose window never had
  // more than the other users' margin left, options that leave every pair out): "✓ conformant
  // (exit 0); 39 of 39 pairs not judged" let a CI job pass on a run that checked nothing.
  if (
    aborted === null &&
    !failed &&
    table.length > 0 &&
    table.every((result) => result.outcome === 'skipped')
  ) {
    aborted = { code: 'nothing_judged', message: nothingJudged(table), curl: null };
  }
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
    budget: Number.isFinite(runBudget) ? runBudget : null,
    results: table,
    findings: results.findings(),
    coverage: results.coverage(),
    verdict: aborted !== null ? 'aborted' : failed ? 'nonconformant' : 'conformant',
    aborted,
    exitCode: aborted !== null ? 2 : failed ? 1 : 0,
  };
}

/**
 * Why a run judged nothing: the reasons its pairs were skipped, those the options did not choose first
 * (what kept the run from judging), the most common first.
 */
function nothingJudged(table: Report['results']): string {
  const counts = new Map<string, number>();
  for (const result of table) {
    const reason = result.reason ?? 'no reason given';
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
  }
  const [first, ...others] = [...counts].sort(
    (a, b) => Number(skippedByChoice(a[0])) - Number(skippedByChoice(b[0])) || b[1] - a[1],
  );
  const more =
    others.length === 0 ? '' : ` (and ${others.length} other reason${others.length === 1 ? '' : 's'}, above)`;
  return (
    `Nothing was judged: every one of the ${table.length} check × operation pairs was skipped, so the run cannot ` +
    `call the target conformant. ${first === undefined ? '' : `${first[1]} of them: ${first[0]}`}${more}.`
  );
}

/** One request to see that the target answers and takes the key; also learns the rate limit. */
async function preflight(context: Context): Promise<Pet[]> {
  const listPets = context.spec.operation('listPets');
  const exchange = await context.send(validRequest(context, listPets));
  const response = exchange.response;
  if (response === null) {
    const failure = exchange.failure;
    throw new ContractAbort(
      'unreachable',
      failure?.status !== undefined
        ? // It is there, and answers: what it sent cannot be read, so nothing can be judged.
          `${exchange.request.url} ${failure.message}. The suite reads a body as sent, decoded by its Content-Encoding (gzip, deflate, br), up to 4 MiB.`
        : failure?.refused === true
          ? // It is there: it answered what Node's HTTP client will not take (client.ts refusedAnswer).
            `${exchange.request.url} answered, but Node's HTTP client refuses the answer: ${failure.message.replace(/^an answer Node's HTTP client refuses: /, '')}. Nothing of the run can be judged.`
          : failure?.code?.startsWith('HPE_') === true
            ? // It is there too: bytes came, but no HTTP/1.1 response Node's parser (llhttp) would take.
              `${exchange.request.url} answered, but not in valid HTTP/1.1: ${parserReason(failure.message)} (${failure.code}). ${malformedHint(failure.code)}`
            : `Cannot reach ${exchange.request.url}: ${failure?.message ?? 'no response'}. ${unreachableHint(failure?.code, failure?.message, exchange.request.url)}`,
      { request: exchange.request, encoded: failure?.encoded === true },
    );
  }
  if (response.status === 404) {
    throw new ContractAbort(
      'unreachable',
      `${exchange.request.url} answered 404: no listPets there. Is this the Pet Adoption API, and does --base-url include its version prefix (…/v1)?`,
      { request: exchange.request },
    );
  }
  if (REDIRECTS.has(response.status)) {
    // The run would be a finding on every request, each about a 3xx, while the API is likely elsewhere
    // (http:// to a server that sends every client to https://). No redirect is followed, the key with it.
    throw new ContractAbort('unreachable', redirected(exchange.request.url, response), {
      request: exchange.request,
    });
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

/** The statuses that send a client elsewhere with a Location (RFC 9110 §15.4; not 300, 304, 305, 306). */
const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/**
 * Where the first answer's redirect points, and the --base-url to try when it points to a listPets
 * (`…/pets`, its query aside): the address the user meant, on https:// or another host.
 */
function redirected(url: string, response: { status: number; headers: Record<string, string> }): string {
  const location = response.headers.location;
  const said = `${url} answered ${response.status}`;
  const follows = 'The suite follows no redirect (it would send the key wherever one points)';
  if (location === undefined)
    return `${said}, a redirect without a Location. ${follows}: is --base-url the API's address?`;
  let target: URL | undefined;
  try {
    target = new URL(location, url);
  } catch {
    target = undefined;
  }
  const shown = target?.href ?? location;
  const base = target !== undefined && /\/pets\/?$/.test(target.pathname) ? target : undefined;
  return base === undefined
    ? `${said}, redirecting to ${shown}. ${follows}: is --base-url the API's address?`
    : `${said}, redirecting to ${shown}. ${follows}: if the API is there, run with --base-url ${base.origin}${base.pathname.replace(/\/pets\/?$/, '')}.`;
}

/** undici's words for a parse error, without its preamble: `no response: Response does not match the HTTP/1.1 protocol (Expected HTTP/)`. */
function parserReason(message: string): string {
  const reason = message
    .replace(/^no response: /, '')
    .replace(/^an answer Node's HTTP client refuses, not valid HTTP\/1\.1: /, '');
  return /^Response does not match the HTTP\/1\.1 protocol \((.*)\)$/.exec(reason)?.[1] ?? reason;
}

/** What to try when the target answered bytes that are not HTTP/1.1, by llhttp's code. */
function malformedHint(code: string): string {
  // Not even a status line: something else listens there.
  if (code === 'HPE_INVALID_CONSTANT')
    return 'The answer does not begin with HTTP/1.x: does the port speak another protocol (HTTP/2 alone, TLS: then https:// in --base-url)?';
  return (
    "Node's fetch refuses such a response whole, as RFC 9112 lets it: lines end in CRLF, a header value holds no " +
    'control character (RFC 9110 §5.5), and a body is framed by Content-Length or Transfer-Encoding, never both. ' +
    'Fix what the server (or a proxy in front of it) writes.'
  );
}

/** What to try, by why the target could not be reached. */
function unreachableHint(code: string | undefined, message: string | undefined, url: string): string {
  // undici's fetch refuses the Fetch standard's blocked ports with no code, only this message.
  if (code === undefined && message?.endsWith('bad port') === true)
    return 'fetch refuses this port (one the Fetch standard blocks, such as 6000 or 6665 to 6669): serve the target on another.';
  // The TLS handshake got back bytes that are no TLS record: an HTTP server's answer to them.
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER')
    return 'The server on that port answers in plain HTTP, not TLS: use http:// in --base-url.';
  // A TLS server closes a connection that begins in plain HTTP, without a word.
  if (code === 'UND_ERR_SOCKET' && url.startsWith('http:'))
    return 'The server closed the connection without an answer, as a TLS server does to plain HTTP: if it serves TLS on that port, try https:// in --base-url; if not, is the server running, and is --base-url right?';
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

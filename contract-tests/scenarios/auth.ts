// auth_enforced: every operation answers 401 without a key, with a wrong key, with a non-Bearer scheme,
// with the key's case changed (RFC 6750: the key is compared exactly), and without a key even when the
// request is invalid or names an unknown id: auth comes before validation and lookup, so a 401 leaks
// nothing. Every 401 challenges with `Bearer` (RFC 6750 §3); the scheme itself is case-insensitive
// (RFC 9110 §11.1), so the key under `bearer` is not a 401. With the 'derived' method on, the wrong key
// and the case-changed key give way to near-misses derived from the key, one per class dealt round the
// operations, and `bearer` to each accepted spelling in turn (derive/credentials.ts).
import type { OperationSpec } from '../../openapi/index.js';
import type { Auth, Authorization, Outgoing } from '../client.js';
import { type Context, expectStatus, PASS, type Verdict } from '../context.js';
import { type DerivedCredential, tierZeroNearMisses } from '../derive/credentials.js';
import type { Exchange } from '../exchange.js';
import { hasBearerChallenge } from '../http/grammar.js';
import { record, validRequest } from '../requests.js';
import { invalidExamples, invalidParameterExamples } from '../schema-arbitraries.js';
import { UNKNOWN_ID } from './stateful.js';

interface AuthCase {
  readonly outgoing: Outgoing;
  readonly what: string;
}

const CASES: readonly [Auth, string][] = [
  ['none', 'without an API key'],
  ['wrong', 'with a wrong API key'],
  ['scheme', 'with the key under a non-Bearer scheme (Token)'],
  ['key-case', 'with the key, the case of its letters changed'],
];
/** The fixed wrong keys that derived near-misses replace when the 'derived' method is on. */
const REPLACED_BY_DERIVED: ReadonlySet<Auth> = new Set(['wrong', 'key-case']);

const asAuthorization = (c: DerivedCredential): Authorization => ({
  header: c.header,
  credential: c.valid ? 'key' : 'invalid',
  shell: c.shell,
  what: c.what,
});

/**
 * The derived credentials an operation gets (the `index`-th tested one): the tier-0 near-misses, one per
 * class, dealt round the operations, and one valid spelling of Bearer in turn.
 */
function derivedFor(
  credentials: readonly DerivedCredential[],
  index: number,
  count: number,
): { nearMisses: DerivedCredential[]; valid: DerivedCredential | undefined } {
  const nearMisses = tierZeroNearMisses(credentials).filter((_, i) => i % count === index % count);
  const valids = credentials.filter((c) => c.valid && c.tier === 0);
  return { nearMisses, valid: valids[index % valids.length] };
}

/** A 401 offers a Bearer challenge (RFC 6750 §3), first or not; a missing header is another check's. */
function challenge(exchange: Exchange, what: string): Verdict | null {
  const raw = exchange.response?.headers['www-authenticate'];
  if (exchange.response?.status !== 401 || raw === undefined || hasBearerChallenge(raw)) return null;
  return {
    kind: 'fail',
    exchange,
    message: `the 401 (${what}) challenges with WWW-Authenticate: ${raw}`,
    expected: 'WWW-Authenticate: Bearer … (RFC 6750 §3)',
    instancePath: '/headers/WWW-Authenticate',
  };
}

/** Requests that would be a 400 or a 404 with the key: without one they must still be a 401. */
function invalidWithoutKey(context: Context, operation: OperationSpec): AuthCase[] {
  const base = validRequest(context, operation);
  const cases: AuthCase[] = [];
  for (const parameter of operation.parameters) {
    const [raw] = invalidParameterExamples(parameter);
    if (parameter.in === 'query' && raw !== undefined) {
      cases.push({
        outgoing: { ...base, auth: 'none', query: { [parameter.name]: raw } },
        what: `without an API key, with an invalid ${parameter.name}=${JSON.stringify(raw)}`,
      });
    }
    if (parameter.in === 'path') {
      cases.push({
        outgoing: { ...base, auth: 'none', path: operation.expand({ [parameter.name]: UNKNOWN_ID }) },
        what: `without an API key, for an unknown ${parameter.name} (${UNKNOWN_ID})`,
      });
      if (raw !== undefined) {
        cases.push({
          outgoing: { ...base, auth: 'none', path: operation.expand({ [parameter.name]: raw }) },
          what: `without an API key, with an invalid ${parameter.name} ${JSON.stringify(raw)}`,
        });
      }
    }
  }
  const body = operation.requestBody?.content.get('application/json');
  if (body !== undefined) {
    const [invalid] = invalidExamples(context.spec.document, body.schema, body.validate);
    if (invalid !== undefined) {
      cases.push({
        outgoing: {
          ...base,
          auth: 'none',
          contentType: 'application/json',
          body: JSON.stringify(invalid.value),
        },
        what: `without an API key, with an invalid body (${invalid.what})`,
      });
    }
  }
  return cases;
}

export async function authScenario(context: Context): Promise<void> {
  if (!context.selected('auth_enforced')) return;
  let throttled: string | undefined;
  const derived = context.methodOn('derived');
  const operations = context.spec.operations.filter(
    (operation) =>
      operation.requiresAuth &&
      context.tested(operation.id) &&
      !(context.readOnly && operation.method !== 'GET'),
  );
  for (const [index, operation] of operations.entries()) {
    if (throttled !== undefined) {
      context.unverified('auth_enforced', operation.id, throttled);
      continue;
    }
    const request = validRequest(context, operation);
    const keyHasCase = context.keyHasLetters;
    const own = derivedFor(context.credentials, index, operations.length);
    const cases: AuthCase[] = [
      ...CASES.filter(
        ([auth]) => (auth !== 'key-case' || keyHasCase) && !(derived && REPLACED_BY_DERIVED.has(auth)),
      ).map(([auth, what]) => ({ outgoing: { ...request, auth }, what })),
      ...(derived
        ? own.nearMisses.map((c) => ({
            outgoing: { ...request, authorization: asAuthorization(c) },
            what: `with ${c.what}`,
          }))
        : []),
      ...invalidWithoutKey(context, operation),
    ];
    for (const { outgoing, what } of cases) {
      const exchange = await context.send(outgoing);
      const response = exchange.response;
      if (exchange.credential !== 'key' && response?.status === 429) {
        // Not the key's fault, nor this check's verdict: the probes without a (valid) key share the
        // target's anonymous bucket for this address, and it is used up. Send no more of them.
        throttled =
          'not verified: the target throttles unauthenticated requests from this address ' +
          `(429, Retry-After: ${response.headers['retry-after'] ?? 'none'})`;
        context.unverified('auth_enforced', operation.id, throttled);
        break;
      }
      record(
        context,
        'auth_enforced',
        operation.id,
        expectStatus(exchange, 401, what) ?? challenge(exchange, what) ?? PASS,
      );
    }
    // The scheme is case-insensitive and may be followed by more than one space (RFC 9110 §11.4): the
    // key under `bearer`, or after two spaces, is the key.
    const spelling = derived ? own.valid : undefined;
    const lower = await context.send(
      spelling === undefined
        ? { ...request, auth: 'lower-scheme' }
        : { ...request, authorization: asAuthorization(spelling) },
    );
    const status = lower.response?.status;
    const verdict: Verdict =
      lower.response === null || (status !== undefined && status >= 500)
        ? { kind: 'inconclusive' }
        : status === 401
          ? {
              kind: 'fail',
              exchange: lower,
              message: `${spelling?.what ?? 'the key under a lower-case scheme (Authorization: bearer …)'} got 401`,
              expected:
                'the key accepted: the auth scheme is case-insensitive (RFC 9110 §11.1) and 1*SP may precede the key (RFC 9110 §11.4)',
            }
          : PASS;
    record(context, 'auth_enforced', operation.id, verdict);
  }
}

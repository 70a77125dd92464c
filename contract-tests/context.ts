// What a scenario is given: a way to send, to record verdicts, and the run's settings.
import type { Spec } from '../openapi/index.js';
import type { CheckId } from './checks.js';
import type { Outgoing, WireOutgoing, WireStep } from './client.js';
import type { DerivedCredential } from './derive/credentials.js';
import type { Exchange } from './exchange.js';
import type { FindingInput } from './finding.js';
import type { Judgement, MethodId, ModelView } from './model/types.js';
import type { Pet } from './pet-id.js';

export interface Context {
  readonly spec: Spec;
  /** The target's base URL, with its version prefix (no trailing slash). */
  readonly baseUrl: string;
  readonly seed: number;
  readonly examples: number;
  readonly readOnly: boolean;
  /** Whether the key has letters, so that changing their case makes another key. */
  readonly keyHasLetters: boolean;
  /** Credentials derived from the key at start (derive/credentials.ts): made of it at send time, shown only as sh over $API_KEY. */
  readonly credentials: readonly DerivedCredential[];
  /** Pets the target listed at the start (for read-only runs and for ids that exist). */
  readonly knownPets: readonly Pet[];
  /** Every pet createPet answered 201 with during the run, in the order they came. */
  readonly createdPets: readonly Pet[];
  /**
   * The pass of the run: `boundaries` sends the first case of each kind, `more` the other cases and
   * the generated ones, as the budget allows (property.ts).
   */
  readonly pass: 'boundaries' | 'more';
  /** Requests the budget still allows (Infinity without one). */
  budgetLeft(): number;
  /** Generated cases each property may send in the `more` pass: its share of the budget left. */
  generatedShare(): number;
  /** The kinds of case that failed so far in a property (by its check, operation and salt). */
  failedKinds(property: string): Set<string>;
  send(outgoing: Outgoing, options?: { retry?: boolean; pace?: boolean }): Promise<Exchange>;
  /** GETs on one raw connection, their answers' bytes read by the suite (client.ts sendOnWire). */
  sendOnWire(outgoings: readonly WireOutgoing[]): Promise<readonly WireStep[]>;
  /** Whether Node's fetch refused an answer of an operation as not HTTP/1.1 (client.ts `refused`). */
  refusedByFetch(operationId: string): boolean;
  /** Runs `settle` when the run's requests are over, before its findings are: a verdict that waits for them. */
  atEnd(settle: () => void): void;
  selected(check: CheckId): boolean;
  /** Whether an operation is tested (--operations, --skip-operations); others get helper requests only. */
  tested(operationId: string): boolean;
  /** One conclusive evaluation of a check on an operation that found nothing wrong. */
  passed(check: CheckId, operationId: string): void;
  failed(check: CheckId, exchange: Exchange, input: Omit<FindingInput, 'check' | 'severity'>): void;
  /** Why a check could not be evaluated on an operation (shown when it never was). */
  note(check: CheckId, operationId: string, reason: string): void;
  /**
   * The check could not be fully verified on an operation: shown as skipped with the reason even when
   * some of its cases passed (a failure still shows as one).
   */
  unverified(check: CheckId, operationId: string, reason: string): void;
  now(): number;
  sleep(ms: number): Promise<void>;
  /** Whether a method is on (ContractOptions.methods): a phase of an ablated method does not run. */
  methodOn(method: MethodId): boolean;
  /** What the model knows of the target so far. */
  readonly view: ModelView;
  /** What the judges that are on said of an exchange (empty for one not judged). */
  judgementsOf(exchange: Exchange): readonly Judgement[];
}

/** A scenario's judgement of one case. */
export type Verdict =
  | { readonly kind: 'pass' }
  /** Nothing to say: the response is another check's business (a 5xx, a body off its schema). */
  | { readonly kind: 'inconclusive' }
  | {
      readonly kind: 'fail';
      readonly exchange: Exchange;
      readonly message: string;
      readonly expected: string;
      readonly instancePath?: string;
      /** The fault in stable words, without the case's detail: the same fault of one kind is one finding. */
      readonly cause?: string;
    };

export const PASS: Verdict = { kind: 'pass' };
export const INCONCLUSIVE: Verdict = { kind: 'inconclusive' };

export { conformingBody } from './observe.js';

/**
 * The common first judgement: no response is this check's failure; a 5xx is not_a_server_error's
 * business; otherwise the status must be the expected one.
 */
export function expectStatus(exchange: Exchange, expected: number, what: string): Verdict | null {
  const response = exchange.response;
  if (response === null) {
    return {
      kind: 'fail',
      exchange,
      message: `${exchange.failure?.message ?? 'no response'} (${what})`,
      expected: `${expected}`,
    };
  }
  if (response.status >= 500) return INCONCLUSIVE;
  if (response.status !== expected) {
    return { kind: 'fail', exchange, message: `${what}: got ${response.status}`, expected: `${expected}` };
  }
  return null;
}

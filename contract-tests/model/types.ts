// The seam every way of judging a response plugs into: what one exchange is made into (Observed), what a
// judge says of it (Judgement, each with why: Because), and what the model of the target knows
// (ModelView). Types only.
import type { OperationSpec } from '../../openapi/index.js';
import type { CheckId } from '../checks.js';
import type { Exchange } from '../exchange.js';
import type { Pet, PetId } from '../pet-id.js';

/** The ways of finding a departure; each but the baseline can be switched off (the ablation test). */
export type MethodId = 'baseline' | 'model' | 'sequences' | 'derived' | 'http';
export type Ablatable = Exclude<MethodId, 'baseline'>;
export const METHOD_IDS: readonly MethodId[] = ['baseline', 'model', 'sequences', 'derived', 'http'];

/** What the Authorization sent means (RFC 9110 §11.4, RFC 6750 §2.1), decided by whoever built it. */
export type CredentialClass = 'key' | 'none' | 'invalid' | 'other-scheme';

/** One exchange as the judges read it: its body parsed and validated once (observe.ts). */
export interface Observed {
  readonly exchange: Exchange;
  /** undefined: a path or method the document lacks. */
  readonly operation: OperationSpec | undefined;
  /** When it was judged, on the run's clock. */
  readonly atMs: number;
  /** undefined when no response came. */
  readonly response:
    | {
        readonly status: number;
        /** Lower-case names. */
        readonly headers: Readonly<Record<string, string>>;
        /** The body as JSON; undefined when it is not JSON (or empty). */
        readonly json: { readonly value: unknown } | undefined;
        /** Whether the JSON body validates against the schema of its status (false without one). */
        readonly conforms: boolean;
      }
    | undefined;
}

/** Why a judgement holds: the document's sentence, an RFC's, or what an earlier exchange showed. */
export type Because =
  | { readonly kind: 'document'; readonly pointer: string; readonly sentence: string }
  /** `cite`: 'RFC 9110 §15.5.6'. */
  | { readonly kind: 'rfc'; readonly cite: string; readonly sentence: string }
  | { readonly kind: 'exchange'; readonly sentSeq: number; readonly summary: string };

/** What a judge says of one exchange under one check: a pass without `cause`, a finding with one. */
export interface Judgement {
  readonly check: CheckId;
  /** Stable words without the case's detail (`401 → 403`): groups findings. Absent: a pass. */
  readonly cause?: string;
  /** Capped by the registry entry's severity. Default error. */
  readonly severity?: 'error' | 'warning';
  readonly message?: string;
  readonly expected?: string;
  readonly instancePath?: string;
  readonly schemaPath?: string;
  readonly because?: readonly Because[];
  /** The case in a few words (`limit=20.0`), listed under a grouped finding. */
  readonly case?: string;
  /**
   * A finding whose check later exchanges decide (a created pet missing from a list: lost, or the list
   * wrong): the judgement as it stands at the end of the run.
   */
  readonly settle?: () => Judgement;
}

/** One way of judging every exchange: `method` is the switch it answers to. */
export interface JudgeEntry {
  readonly id: string;
  readonly method: MethodId;
  judge(observed: Observed): readonly Judgement[];
}

/** A rate-limit window as X-RateLimit-* showed it. */
export interface WindowReading {
  readonly limit: number;
  readonly remaining: number;
  /** The window's end, ms since the epoch. */
  readonly resetMs: number;
}

/** A pet the run knows of: one it created, or one a response showed. */
export interface KnownPet {
  readonly pet: Pet;
  readonly origin: 'created' | 'seen';
  /** The exchange that showed it. */
  readonly since: Because;
}

/** What the model knows of the target, for scenarios and sequences to choose what to send. */
export interface ModelView {
  knownPets(): readonly KnownPet[];
  createdPets(): readonly Pet[];
  maxKnownId(): PetId | undefined;
  /** The pet with that id as known from responses answered before request `sentSeq` left. */
  knownBefore(id: PetId, sentSeq: number): KnownPet | undefined;
  /** Why no pet has that id when request `sentSeq` left, when the run knows beyond doubt (absent.ts). */
  knownAbsent(
    id: PetId,
    sentSeq: number,
  ): { readonly why: string; readonly because: readonly Because[] } | undefined;
  window(): WindowReading | undefined;
}

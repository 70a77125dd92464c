// The sequences phase: operations drawn and interleaved at random (fast-check's `fc.commands`, run with
// `fc.asyncModelRun`), each answer judged step by step by the model; a failing sequence is shrunk to
// the shortest that still fails, within a cap of requests, and becomes one finding whose `script`
// replays it as POSIX sh. The target only grows between sequences (pets are never deleted), which the
// model takes as a shared store's case: it only ever holds the target to the pets the run created.
import fc from 'fast-check';
import type { CheckId } from '../checks.js';
import type { Context } from '../context.js';
import { toShScript } from '../replay/sh-script.js';
import { MAX_COMMANDS, REQUESTS_PER_RUN, SHRINK_REQUESTS, sequenceRuns } from './budget.js';
import { type CommandEnv, commandArbitraries, type SeqModel, SequenceFailure } from './commands.js';
import { origin } from './model.js';
import { type SentStep, Steps } from './steps.js';

export interface SequenceOptions {
  readonly maxCommands: number;
  /** Runs of the budget: the phase sends at most runs × REQUESTS_PER_RUN requests before a failure. */
  readonly runs: number;
  /** Requests shrinking may spend past the first failure. */
  readonly shrinkRequests: number;
}

/** Ends a sequence without a verdict: its requests would pass a cap. The sequence counts as passed. */
class CapReached extends Error {
  override readonly name = 'CapReached';
}

/**
 * The checks about state that the sequences judge (model.ts): with none of them selected, the phase
 * sends nothing (a create's status, positive_data_acceptance's, is judged only along the way).
 */
const JUDGED: readonly CheckId[] = ['use_after_create', 'list_semantics'];

/** Draws per run of the budget: sequences come out shorter than MAX_COMMANDS, or empty; the cap ends them. */
const DRAWS_PER_RUN = 10;

/** Distinguishes the sequences' draws from the other properties' under one seed. */
const SALT = 0x5e9;

export async function runSequences(context: Context, o: SequenceOptions): Promise<void> {
  const listPets = context.spec.operation('listPets');
  const limit = listPets.parameters.find((p) => p.name === 'limit');
  const env: CommandEnv = {
    context,
    defaultLimit: typeof limit?.schema.default === 'number' ? limit.schema.default : 20,
  };
  let spent = 0;
  let failedAt: number | undefined;
  let failure: { error: SequenceFailure; steps: readonly SentStep[]; commands: string } | undefined;
  let firstLength = 0;
  let aborted: unknown;
  const cap = o.runs * REQUESTS_PER_RUN;
  const spender = {
    send: async (outgoing: Parameters<Context['send']>[0]) => {
      const over = failedAt === undefined ? spent >= cap : spent - failedAt >= o.shrinkRequests;
      if (over || context.budgetLeft() < 1) throw new CapReached();
      spent += 1;
      return context.send(outgoing);
    },
  };
  const created = () => context.createdPets.map((pet) => ({ pet, step: undefined }));

  await fc.check(
    fc.asyncProperty(
      fc.commands(commandArbitraries(env), { maxCommands: o.maxCommands, size: 'max' }),
      async (commands) => {
        // Past the phase's requests, a draw is not run (a short or empty draw leaves more for the others).
        if (aborted !== undefined || (failedAt === undefined && spent >= cap)) return true;
        const steps = new Steps(spender);
        const setup = () => ({
          model: {
            created: created(),
            variables: new Map(),
            listed: [],
            lookups: [],
            lists: [],
          } satisfies SeqModel,
          real: steps,
        });
        try {
          await fc.asyncModelRun(setup, commands);
          return true;
        } catch (cause) {
          if (cause instanceof CapReached) return true;
          if (!(cause instanceof SequenceFailure)) {
            aborted = cause;
            return true;
          }
          if (failedAt === undefined) {
            failedAt = spent;
            firstLength = steps.sent.length;
          }
          failure = { error: cause, steps: [...steps.sent], commands: String(commands) };
          return false;
        }
      },
    ),
    { seed: (context.seed + SALT * 7919) | 0, numRuns: o.runs * DRAWS_PER_RUN },
  );
  if (aborted !== undefined) throw aborted;
  if (failure === undefined) return;

  const { error, steps } = failure;
  const departure = error.departure;
  const shrunk = firstLength > steps.length ? `, shrunk from ${firstLength}` : '';
  const { clash } = departure;
  // A create that gave an earlier pet's id shows a 201 like any other: the script checks the id it gets
  // against that pet's (a literal id when the pet is older than the sequence: the store still holds it).
  const idOtherThan =
    clash === undefined
      ? undefined
      : { id: clash.step === undefined ? clash.pet.id : `id${clash.step}`, what: origin(clash) };
  const replays =
    clash === undefined
      ? 'the script replays it'
      : `the script replays it, and checks that the id its create gets is not ${clash.step === undefined ? clash.pet.id : `that of its step ${clash.step}`}`;
  context.failed(departure.check, error.step.exchange, {
    message: `${departure.message}, at step ${error.step.number} of a sequence of ${steps.length} request${steps.length === 1 ? '' : 's'}${shrunk} (${replays})`,
    expected: departure.expected,
    script: toShScript({
      baseUrl: context.baseUrl,
      title: `petkit contract, seed ${context.seed}: ${departure.check}: ${departure.message}`,
      steps: steps.map((step) =>
        step.number === error.step.number && idOtherThan !== undefined ? { ...step, idOtherThan } : step,
      ),
    }),
  });
}

/** The phase as run.ts runs it: the budget's share, the phase's constants. */
export async function sequencesScenario(context: Context): Promise<void> {
  if (!JUDGED.some((check) => context.selected(check))) return;
  await runSequences(context, {
    maxCommands: MAX_COMMANDS,
    runs: sequenceRuns(context.budgetLeft()),
    shrinkRequests: SHRINK_REQUESTS,
  });
}

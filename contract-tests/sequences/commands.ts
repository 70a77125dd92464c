// The commands a sequence is drawn from (fast-check's model-based testing): create with each kind of
// valid body, create several at once, look up an id (one the run created, one a list showed, the next
// ones before they exist, one no store reaches), list with each filter and limit, and do a lookup or a
// list of the same sequence again. Each command sends through the Steps it is given, and judges the
// answer with the model (model.ts); a departure ends the sequence as its failure.
import fc from 'fast-check';
import { type Context, conformingBody } from '../context.js';
import type { Exchange } from '../exchange.js';
import { isPetId, type Pet, type PetId, petId } from '../pet-id.js';
import { exampleBody, pageMaximum } from '../requests.js';
import { UNKNOWN_ID } from '../scenarios/stateful.js';
import { boundaryValues } from '../schema-arbitraries.js';
import {
  attributeMissing,
  type CreatedPet,
  type Departure,
  type Expectation,
  expectCreate,
  expectList,
  expectLookup,
  judgeCreate,
  judgeList,
  judgeLookup,
  type ListQuery,
} from './model.js';
import type { SentStep, Steps } from './steps.js';

export type PetRef =
  | { readonly kind: 'created'; readonly index: number }
  | { readonly kind: 'listed'; readonly index: number }
  /** The newest id the run created, plus `ahead`: an id before it exists. */
  | { readonly kind: 'next'; readonly ahead: 1 | 2 | 3 }
  | { readonly kind: 'unknown' };

/** A lookup done, to do again: its id, and the path the script writes for it. */
interface Lookup {
  readonly id: PetId;
  readonly shellPath: string | undefined;
  readonly what: string;
  /** Whether a pet the run created had the id when it was first looked up. */
  readonly existed: boolean;
}

/** What one sequence knows as it runs (fast-check's model): a fresh one per sequence. */
export interface SeqModel {
  /** The pets the run created, those of earlier phases first, then this sequence's. */
  readonly created: CreatedPet[];
  /** The script variable of each pet this sequence created, by id. */
  readonly variables: Map<PetId, string>;
  /** Ids the lists of this sequence showed. */
  readonly listed: PetId[];
  readonly lookups: Lookup[];
  readonly lists: ListQuery[];
}

type Command = fc.AsyncCommand<SeqModel, Steps>;

/** What the commands need of the run: its context and the defaults read from the document. */
export interface CommandEnv {
  readonly context: Context;
  readonly defaultLimit: number;
}

/** A departure found at a step: ends the sequence. */
export class SequenceFailure extends Error {
  override readonly name = 'SequenceFailure';
  constructor(
    readonly departure: Departure,
    readonly step: SentStep,
  ) {
    super(departure.message);
  }
}

/**
 * The body of a step's answer when it keeps its schema: a body off it is response_schema_conformance's
 * to report, so a sequence judges nothing by it (undefined, as for no body).
 */
const json = (env: CommandEnv, exchange: Exchange): unknown =>
  conformingBody(env.context.spec, exchange)?.value;

const asPet = (value: unknown): Pet | undefined =>
  typeof value === 'object' && value !== null && isPetId((value as Pet).id) ? (value as Pet) : undefined;

function fail(env: CommandEnv, departure: Departure | undefined, step: SentStep): void {
  if (departure === undefined || !env.context.selected(departure.check)) return;
  throw new SequenceFailure(departure, step);
}

const canCreate = (env: CommandEnv) => !env.context.readOnly && env.context.tested('createPet');

/** Sends one create, judges it, and learns the pet it made. */
async function create(
  env: CommandEnv,
  model: SeqModel,
  steps: Steps,
  body: Readonly<Record<string, unknown>>,
  why: string,
  expectation: Expectation = expectCreate(),
): Promise<SentStep> {
  const step = await steps.send(
    {
      operationId: 'createPet',
      method: 'POST',
      path: '/pets',
      contentType: 'application/json',
      body: JSON.stringify(body),
    },
    { what: why, expectation, capture: true },
  );
  return learnCreate(env, model, body, step);
}

function learnCreate(
  env: CommandEnv,
  model: SeqModel,
  body: Readonly<Record<string, unknown>>,
  step: SentStep,
): SentStep {
  const status = step.exchange.response?.status;
  if (status === undefined) return step;
  const pet = status === 201 ? asPet(json(env, step.exchange)) : undefined;
  fail(env, judgeCreate(body, status, pet, model.created), step);
  if (pet !== undefined) {
    model.created.push({ pet, step: step.number });
    if (step.variable !== undefined) model.variables.set(pet.id, step.variable);
  }
  return step;
}

/** The path of getPet for an id, and the script's form of it when the id is a captured one. */
function lookupPath(env: CommandEnv, id: PetId, expression: string | undefined) {
  const getPet = env.context.spec.operation('getPet');
  return {
    path: getPet.expand({ petId: String(id) }),
    shellPath: expression === undefined ? undefined : getPet.path.replace(/\{[^}]+\}/, expression),
  };
}

async function lookUp(
  env: CommandEnv,
  model: SeqModel,
  steps: Steps,
  lookup: Omit<Lookup, 'existed'>,
): Promise<void> {
  const expectation = expectLookup(lookup.id, model.created);
  const { path } = lookupPath(env, lookup.id, undefined);
  const step = await steps.send(
    { operationId: 'getPet', method: 'GET', path },
    {
      what: `getPet of ${lookup.what}`,
      expectation,
      ...(lookup.shellPath === undefined ? {} : { shellPath: lookup.shellPath }),
    },
  );
  const status = step.exchange.response?.status;
  if (status === undefined) return;
  fail(env, judgeLookup(lookup.id, status, asPet(json(env, step.exchange)), model.created), step);
  if (expectation.statuses.length === 1) env.context.passed('use_after_create', 'getPet');
}

/** The newest pet the run created, to count the next ids from (created now when there is none). */
async function newest(env: CommandEnv, model: SeqModel, steps: Steps): Promise<Pet | undefined> {
  // Counted from a pet this sequence created, the script's ids follow the store it replays on.
  if (!model.created.some((known) => known.step !== undefined) && canCreate(env)) {
    const body = exampleBody(env.context.spec.operation('createPet')) as Record<string, unknown>;
    await create(
      env,
      model,
      steps,
      body,
      'createPet of the example body, to learn the newest id (the next ids count from it)',
    );
  }
  let best: Pet | undefined;
  for (const known of model.created) if (best === undefined || known.pet.id > best.id) best = known.pet;
  return best;
}

async function resolve(
  env: CommandEnv,
  model: SeqModel,
  steps: Steps,
  ref: PetRef,
): Promise<Omit<Lookup, 'existed'> | undefined> {
  switch (ref.kind) {
    case 'created': {
      const known = model.created[ref.index % Math.max(1, model.created.length)];
      if (known === undefined) return undefined;
      const variable = model.variables.get(known.pet.id);
      return {
        id: known.pet.id,
        shellPath: lookupPath(env, known.pet.id, variable === undefined ? undefined : `\${${variable}}`)
          .shellPath,
        what:
          known.step === undefined
            ? `pet ${known.pet.id}, created earlier in the run`
            : `the pet created at step ${known.step}`,
      };
    }
    case 'listed': {
      const id = model.listed[ref.index % Math.max(1, model.listed.length)];
      return id === undefined ? undefined : { id, shellPath: undefined, what: `pet ${id}, listed earlier` };
    }
    case 'next': {
      const base = await newest(env, model, steps);
      if (base === undefined) return undefined;
      const id = petId(BigInt(base.id) + BigInt(ref.ahead));
      const variable = model.variables.get(base.id);
      return {
        id,
        shellPath: lookupPath(env, id, variable === undefined ? undefined : `$((${variable} + ${ref.ahead}))`)
          .shellPath,
        what: `id ${id}, the newest pet's id (${base.id}) + ${ref.ahead}, before any pet has it`,
      };
    }
    case 'unknown':
      return { id: UNKNOWN_ID, shellPath: undefined, what: `id ${UNKNOWN_ID}, which no store reaches` };
  }
}

async function list(
  env: CommandEnv,
  model: SeqModel,
  steps: Steps,
  query: ListQuery,
  again: boolean,
): Promise<void> {
  const values: Record<string, string> = {};
  if (query.status !== undefined) values.status = query.status;
  if (query.limit !== undefined) values.limit = String(query.limit);
  const step = await steps.send(
    { operationId: 'listPets', method: 'GET', path: '/pets', query: values },
    {
      what: `listPets${again ? ' again' : ''} ${Object.keys(values).length === 0 ? 'with no parameters' : new URLSearchParams(values).toString()}`,
      expectation: expectList(query, env.defaultLimit),
    },
  );
  const status = step.exchange.response?.status;
  if (status === undefined) return;
  const body = json(env, step.exchange);
  const pets =
    Array.isArray(body) && body.every((item) => asPet(item) !== undefined) ? (body as Pet[]) : undefined;
  let departure = judgeList(query, env.defaultLimit, status, pets, model.created);
  if (departure?.missing !== undefined) {
    // One lookup tells a list that lacks the pet from a store that lost it (not a step of the script).
    const getPet = env.context.spec.operation('getPet');
    const looked = await steps.spender.send({
      operationId: getPet.id,
      method: 'GET',
      path: getPet.expand({ petId: String(departure.missing.pet.id) }),
    });
    departure = attributeMissing(
      departure,
      looked.response === null ? undefined : { status: looked.response.status, body: json(env, looked) },
    );
  }
  fail(env, departure, step);
  if (pets !== undefined && status === 200) {
    env.context.passed('list_semantics', 'listPets');
    for (const pet of pets) if (!model.listed.includes(pet.id)) model.listed.push(pet.id);
  }
}

/** The arbitraries of the commands, from the document: the bodies, the filters and the limits. */
export function commandArbitraries(env: CommandEnv): fc.Arbitrary<Command>[] {
  const { spec } = env.context;
  const bodies = boundaryValues(spec.document, { $ref: '#/components/schemas/NewPet' }) as Record<
    string,
    unknown
  >[];
  const example = exampleBody(spec.operation('createPet')) as Record<string, unknown>;
  const body = fc.constantFrom(example, ...bodies);
  const listPets = spec.operation('listPets');
  const statusParameter = listPets.parameters.find((p) => p.name === 'status');
  const statuses = Array.isArray(statusParameter?.schema.enum)
    ? (statusParameter.schema.enum as string[])
    : [];
  const max = pageMaximum(listPets);
  const limits = [
    ...new Set([1, 2, env.defaultLimit - 1, env.defaultLimit, ...(max === undefined ? [] : [max])]),
  ];
  const query = fc.record(
    { status: fc.constantFrom(...statuses), limit: fc.constantFrom(...limits) },
    { requiredKeys: [] },
  ) as fc.Arbitrary<ListQuery>;
  const ref: fc.Arbitrary<PetRef> = fc.oneof(
    { weight: 3, arbitrary: fc.nat(7).map((index) => ({ kind: 'created', index }) as const) },
    { weight: 1, arbitrary: fc.nat(7).map((index) => ({ kind: 'listed', index }) as const) },
    {
      weight: 3,
      arbitrary: fc
        .constantFrom(1, 1, 2, 3)
        .map((ahead) => ({ kind: 'next', ahead: ahead as 1 | 2 | 3 }) as const),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'unknown' } as const) },
  );
  const index = fc.nat(7);
  // What came before is what a sequence can show wrong: the commands that look again weigh more (a
  // command whose check fails where it is drawn, with nothing to look at again, is skipped).
  const arbitraries: fc.Arbitrary<Command>[] = [
    ref.map((r) => new GetPet(env, r)),
    ref.map((r) => new GetPet(env, r)),
    query.map((q) => new ListPets(env, q)),
    index.map((i) => new GetAgain(env, i)),
    index.map((i) => new ListAgain(env, i)),
    index.map((i) => new ListWhereCreated(env, i, max)),
    index.map((i) => new GetNowCreated(env, i)),
    index.map((i) => new GetNowCreated(env, i)),
    index.map((i) => new GetNowCreated(env, i)),
  ];
  if (canCreate(env)) {
    arbitraries.push(
      body.map((b) => new Create(env, b)),
      fc.array(body, { minLength: 2, maxLength: 3 }).map((b) => new CreateConcurrently(env, b)),
    );
  }
  return arbitraries;
}

class Create implements Command {
  constructor(
    private readonly env: CommandEnv,
    private readonly body: Readonly<Record<string, unknown>>,
  ) {}
  check = () => canCreate(this.env);
  async run(model: SeqModel, steps: Steps): Promise<void> {
    await create(this.env, model, steps, this.body, 'createPet');
  }
  toString = () => `Create(${JSON.stringify(this.body)})`;
}

class CreateConcurrently implements Command {
  constructor(
    private readonly env: CommandEnv,
    private readonly bodies: readonly Readonly<Record<string, unknown>>[],
  ) {}
  check = () => canCreate(this.env);
  async run(model: SeqModel, steps: Steps): Promise<void> {
    const sent = await steps.sendAtOnce(
      this.bodies.map((body, i) => ({
        outgoing: {
          operationId: 'createPet',
          method: 'POST',
          path: '/pets',
          contentType: 'application/json',
          body: JSON.stringify(body),
        },
        note: {
          what: `createPet ${i + 1} of ${this.bodies.length} sent at once`,
          expectation: expectCreate(),
          capture: true,
        },
      })),
    );
    for (const [i, step] of sent.entries()) learnCreate(this.env, model, this.bodies[i] ?? {}, step);
  }
  toString = () => `CreateConcurrently(${this.bodies.length})`;
}

class GetPet implements Command {
  constructor(
    private readonly env: CommandEnv,
    private readonly ref: PetRef,
  ) {}
  check = (model: Readonly<SeqModel>) =>
    this.env.context.tested('getPet') &&
    (this.ref.kind !== 'created' || model.created.length > 0) &&
    (this.ref.kind !== 'listed' || model.listed.length > 0) &&
    (this.ref.kind !== 'next' || model.created.length > 0 || canCreate(this.env));
  async run(model: SeqModel, steps: Steps): Promise<void> {
    const lookup = await resolve(this.env, model, steps, this.ref);
    if (lookup === undefined) return;
    model.lookups.push({ ...lookup, existed: model.created.some((known) => known.pet.id === lookup.id) });
    await lookUp(this.env, model, steps, lookup);
  }
  toString = () => `GetPet(${JSON.stringify(this.ref)})`;
}

class GetAgain implements Command {
  constructor(
    private readonly env: CommandEnv,
    private readonly index: number,
  ) {}
  check = (model: Readonly<SeqModel>) => model.lookups.length > 0;
  async run(model: SeqModel, steps: Steps): Promise<void> {
    // An id that a pet has come to have since its lookup first, when there is one: before and after.
    const changed = model.lookups.filter(
      (lookup) => !lookup.existed && model.created.some((known) => known.pet.id === lookup.id),
    );
    const from = changed.length > 0 ? changed : model.lookups;
    const lookup = from[this.index % from.length];
    if (lookup !== undefined)
      await lookUp(this.env, model, steps, { ...lookup, what: `${lookup.what}, again` });
  }
  toString = () => `GetAgain(${this.index})`;
}

class ListPets implements Command {
  constructor(
    private readonly env: CommandEnv,
    private readonly query: ListQuery,
  ) {}
  check = () => true;
  async run(model: SeqModel, steps: Steps): Promise<void> {
    model.lists.push(this.query);
    await list(this.env, model, steps, this.query, false);
  }
  toString = () => `ListPets(${JSON.stringify(this.query)})`;
}

class ListAgain implements Command {
  constructor(
    private readonly env: CommandEnv,
    private readonly index: number,
  ) {}
  check = (model: Readonly<SeqModel>) => model.lists.length > 0;
  async run(model: SeqModel, steps: Steps): Promise<void> {
    const query = model.lists[this.index % model.lists.length];
    if (query !== undefined) await list(this.env, model, steps, query, true);
  }
  toString = () => `ListAgain(${this.index})`;
}

/** The page where a created pet must be: filtered by its status, as long a page as the document allows. */
class ListWhereCreated implements Command {
  constructor(
    private readonly env: CommandEnv,
    private readonly index: number,
    private readonly max: number | undefined,
  ) {}
  check = (model: Readonly<SeqModel>) => model.created.some((known) => known.step !== undefined);
  async run(model: SeqModel, steps: Steps): Promise<void> {
    const mine = model.created.filter((known) => known.step !== undefined);
    const known = mine[this.index % mine.length];
    if (known === undefined) return;
    const query: ListQuery = {
      ...(known.pet.status === undefined ? {} : { status: known.pet.status }),
      ...(this.max === undefined ? {} : { limit: this.max }),
    };
    model.lists.push(query);
    await list(this.env, model, steps, query, false);
  }
  toString = () => `ListWhereCreated(${this.index})`;
}

/** Looks up again an id that no pet had when it was first looked up, and that a pet created since has. */
class GetNowCreated implements Command {
  constructor(
    private readonly env: CommandEnv,
    private readonly index: number,
  ) {}
  private candidates = (model: Readonly<SeqModel>) =>
    model.lookups.filter(
      (lookup) => !lookup.existed && model.created.some((known) => known.pet.id === lookup.id),
    );
  check = (model: Readonly<SeqModel>) => this.candidates(model).length > 0;
  async run(model: SeqModel, steps: Steps): Promise<void> {
    const found = this.candidates(model);
    const lookup = found[this.index % found.length];
    if (lookup !== undefined)
      await lookUp(this.env, model, steps, {
        ...lookup,
        what: `${lookup.what}, again now that a pet has it`,
      });
  }
  toString = () => `GetNowCreated(${this.index})`;
}

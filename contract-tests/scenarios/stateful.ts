// use_after_create: a created pet comes back from getPet equal, with the same id, and the status
// filter of listPets includes it. not_found: an unknown id gives 404.
import type { OperationSpec } from '../../openapi/index.js';
import { type Context, conformingBody, expectStatus, INCONCLUSIVE, PASS, type Verdict } from '../context.js';
import type { Exchange } from '../exchange.js';
import { locationFault } from '../location.js';
import { differingFields } from '../model/pets.js';
import { jsonText, type Pet, type PetId, petId } from '../pet-id.js';
import { exampleBody, pageMaximum, record } from '../requests.js';

/** The largest id JSON carries exactly: no real store reaches it. */
export const UNKNOWN_ID = Number.MAX_SAFE_INTEGER;

/** A filtered list, a page as long as the schema's `limit` allows. */
function pageQuery(listPets: OperationSpec, status: string): Record<string, string> {
  const page = pageMaximum(listPets);
  return page === undefined ? { status } : { status, limit: String(page) };
}

/** Whether a listed page had room for more: fewer pets than its maximum. */
const roomIn = (listPets: OperationSpec, pets: readonly unknown[]) =>
  pets.length < (pageMaximum(listPets) ?? Number.POSITIVE_INFINITY);

/**
 * The status whose filtered page has room for one more pet, the emptiest first: on a long-lived
 * store, a pet created with a status that already fills a page could never be seen in it. Undefined
 * when every status fills a page (or the target will not list them).
 */
async function roomyStatus(context: Context): Promise<string | undefined> {
  const listPets = context.spec.operation('listPets');
  const filter = listPets.parameters.find((p) => p.name === 'status');
  const values = Array.isArray(filter?.schema.enum) ? (filter.schema.enum as unknown[]) : [];
  let best: { status: string; count: number } | undefined;
  for (const status of values.filter((v): v is string => typeof v === 'string')) {
    const listed = await context.send({
      operationId: listPets.id,
      method: 'GET',
      path: listPets.path,
      query: pageQuery(listPets, status),
    });
    const pets = listed.response?.status === 200 ? conformingBody(context.spec, listed)?.value : undefined;
    if (!Array.isArray(pets)) return undefined;
    if (roomIn(listPets, pets) && (best === undefined || pets.length < best.count)) {
      best = { status, count: pets.length };
    }
  }
  return best?.status;
}

/** Whether `got` shows the pet as known: a field absent in one view is not compared (model/pets.ts). */
const samePet = (known: Pet, got: Pet) => differingFields(known, got).length === 0;

function compare(exchange: Exchange, expected: Pet, got: Pet, where: string): Verdict {
  if (samePet(expected, got)) return PASS;
  return {
    kind: 'fail',
    exchange,
    message: `${where} gave ${jsonText(got)}`,
    expected: jsonText(expected),
  };
}

/** Creates sent at once. */
export const CONCURRENT_CREATES = 4;

/**
 * Creates sent at once get distinct ids (use_after_create × createPet). They are made with a status
 * whose filtered page has room for them; the first of them is the pet the rest of the scenario follows.
 */
async function concurrentCreates(context: Context): Promise<Pet | undefined> {
  const operation = context.spec.operation('createPet');
  const example = exampleBody(operation) as Record<string, unknown>;
  const status = await roomyStatus(context);
  const exchanges = await Promise.all(
    Array.from({ length: CONCURRENT_CREATES }, (_, i) =>
      context.send({
        operationId: operation.id,
        method: 'POST',
        path: operation.path,
        contentType: 'application/json',
        body: JSON.stringify({
          ...example,
          name: `petkit contract ${context.seed} ${i + 1}`,
          ...(status === undefined ? {} : { status }),
        }),
      }),
    ),
  );
  const pets = exchanges.map((exchange) =>
    exchange.response?.status === 201
      ? (conformingBody(context.spec, exchange)?.value as Pet | undefined)
      : undefined,
  );
  const created = pets.filter((pet): pet is Pet => pet !== undefined);
  if (created.length < 2) {
    context.note(
      'use_after_create',
      operation.id,
      'fewer than two of the concurrent creates answered 201 with a Pet',
    );
    return;
  }
  const byId = new Map<PetId, number>();
  for (const pet of created) byId.set(pet.id, (byId.get(pet.id) ?? 0) + 1);
  const shared = [...byId].find(([, count]) => count > 1);
  const last = exchanges[exchanges.length - 1];
  if (shared !== undefined && last !== undefined) {
    record(context, 'use_after_create', operation.id, {
      kind: 'fail',
      exchange: last,
      message: `${shared[1]} of ${created.length} creates sent at once got the same id ${shared[0]} (ids ${created.map((pet) => pet.id).join(', ')})`,
      expected: 'a distinct id for each created pet',
      instancePath: '/id',
    });
  } else context.passed('use_after_create', operation.id);
  // What a 201 states about the created pet is followed: its Location names the pet's own path (where
  // it points, another origin or off the API, is response_headers_conformance's: run.ts).
  for (const exchange of exchanges) {
    const pet = exchange.response?.status === 201 ? conformingBody(context.spec, exchange)?.value : undefined;
    const location = exchange.response?.headers.location;
    if (pet === undefined || location === undefined) continue;
    const requestUrl = `${context.baseUrl}${operation.path}`;
    const fault = locationFault(location, requestUrl, context.baseUrl, (pet as Pet).id);
    if (fault?.kind === 'form') continue;
    record(
      context,
      'use_after_create',
      operation.id,
      fault === undefined
        ? PASS
        : {
            kind: 'fail',
            exchange,
            message: fault.message,
            expected: fault.expected,
            instancePath: '/headers/Location',
          },
    );
  }
  return created[0];
}

/**
 * At the end of the run: every pet created during it is still readable and unchanged (getPet), and
 * the whole list is still in ascending id order now that it holds them (list_semantics).
 */
export async function afterCreatesScenario(context: Context): Promise<void> {
  if (context.readOnly || context.createdPets.length === 0) return;
  const listTested = context.tested('listPets');
  if (!context.selected('list_semantics') && !context.selected('use_after_create')) return;
  const listPets = context.spec.operation('listPets');
  const page = pageMaximum(listPets);
  const listed = await context.send({
    operationId: listPets.id,
    method: 'GET',
    path: listPets.path,
    ...(page === undefined ? {} : { query: { limit: String(page) } }),
  });
  const body = listed.response?.status === 200 ? conformingBody(context.spec, listed) : undefined;
  const pets = (body?.value as Pet[] | undefined) ?? [];
  if (body !== undefined && context.selected('list_semantics') && listTested) {
    const at = pets.findIndex((pet, i) => i > 0 && pet.id <= (pets[i - 1]?.id ?? 0));
    record(
      context,
      'list_semantics',
      listPets.id,
      at === -1
        ? PASS
        : {
            kind: 'fail',
            exchange: listed,
            message: `after ${context.createdPets.length} creates, ids are not ascending: ${pets[at - 1]?.id} then ${pets[at]?.id}`,
            expected: 'pets in ascending id order, created ones included',
          },
    );
  }
  if (!context.selected('use_after_create')) return;
  // Each created pet, as it came back from createPet: on the list's page when it is there (one request
  // for all of them), else from getPet. The pets the list lacks or shows changed are one finding each.
  const complete = body !== undefined && page !== undefined && pets.length < page;
  const getPet = context.spec.operation('getPet');
  const missing: PetId[] = [];
  const changed: { pet: Pet; got: Pet }[] = [];
  for (const pet of context.createdPets) {
    const onPage = pets.find((candidate) => candidate.id === pet.id);
    if (onPage !== undefined && listTested) {
      if (samePet(pet, onPage)) context.passed('use_after_create', listPets.id);
      else changed.push({ pet, got: onPage });
      continue;
    }
    if (complete && listTested) {
      missing.push(pet.id);
      continue;
    }
    if (!context.tested(getPet.id)) continue;
    await fetchAgain(
      context,
      pet,
      `getPet, at the end of the run, of pet ${pet.id} created during it`,
      'getPet at the end of the run',
    );
  }
  const some = (ids: readonly PetId[]) =>
    ids.length > 5 ? `${ids.slice(0, 5).join(', ')}, …` : ids.join(', ');
  if (missing.length > 0) {
    // Which is wrong, the store or the list: one getPet of the first pet missing tells (as the
    // sequences do). A store that has it, as created, is a list that leaves pets out (a page cut
    // short of its limit), list_semantics's; one that lost it, use_after_create's.
    const first = context.createdPets.find((pet) => pet.id === missing[0]);
    const stored =
      first !== undefined &&
      context.tested(getPet.id) &&
      context.selected('list_semantics') &&
      context.budgetLeft() >= 1
        ? await storedAsCreated(context, first)
        : false;
    record(context, stored ? 'list_semantics' : 'use_after_create', listPets.id, {
      kind: 'fail',
      exchange: listed,
      message: `${missing.length} of the ${context.createdPets.length} pets created during the run are not in the whole list (${pets.length} pets) at its end: ${some(missing)}${stored ? `; getPet answers pet ${first?.id} as created` : ''}`,
      expected: stored
        ? `every pet created during the run among them: fewer than ${page} came, so the list is whole`
        : 'every pet created during the run among them',
    });
  }
  const [first] = changed;
  if (first !== undefined) {
    record(context, 'use_after_create', listPets.id, {
      kind: 'fail',
      exchange: listed,
      message: `${changed.length} of the ${context.createdPets.length} pets created during the run are listed changed at its end: pet ${first.pet.id} is ${jsonText(first.got)}`,
      expected: `as createPet answered: ${jsonText(first.pet)}`,
    });
  }
}

/** Whether getPet answers the pet as created (200, the same fields): the store has it. */
async function storedAsCreated(context: Context, pet: Pet): Promise<boolean> {
  const getPet = context.spec.operation('getPet');
  const fetched = await context.send({
    operationId: getPet.id,
    method: 'GET',
    path: getPet.expand({ petId: String(pet.id) }),
  });
  const body = fetched.response?.status === 200 ? conformingBody(context.spec, fetched) : undefined;
  return body !== undefined && samePet(pet, body.value as Pet);
}

/**
 * The pet, fetched again by getPet, is the pet: same id, same fields. `request` names the request in
 * a finding about its status, `label` in one about its body.
 */
async function fetchAgain(context: Context, pet: Pet, request: string, label: string): Promise<void> {
  const getPet = context.spec.operation('getPet');
  const fetched = await context.send({
    operationId: getPet.id,
    method: 'GET',
    path: getPet.expand({ petId: String(pet.id) }),
  });
  const fetchedStatus = expectStatus(fetched, 200, request);
  const fetchedBody = conformingBody(context.spec, fetched);
  record(
    context,
    'use_after_create',
    getPet.id,
    fetchedStatus ??
      (fetchedBody === undefined ? INCONCLUSIVE : compare(fetched, pet, fetchedBody.value as Pet, label)),
  );
}

export async function useAfterCreateScenario(context: Context): Promise<void> {
  if (!context.selected('use_after_create')) return;
  const getPet = context.spec.operation('getPet');
  const listPets = context.spec.operation('listPets');
  // Without createPet (--read-only, or not among --operations), a pet the target listed is followed.
  const listedOnly = context.readOnly || !context.tested('createPet');
  const source = listedOnly ? 'listPets' : 'createPet';
  const pet = listedOnly ? context.knownPets[0] : await concurrentCreates(context);
  if (pet === undefined) {
    const reason = listedOnly
      ? 'the target listed no pet to fetch again'
      : 'createPet did not answer 201 with a Pet (see positive_data_acceptance)';
    context.note('use_after_create', getPet.id, reason);
    context.note('use_after_create', listPets.id, reason);
    return;
  }

  if (context.tested(getPet.id))
    await fetchAgain(context, pet, `getPet of the pet that ${source} returned (id ${pet.id})`, 'getPet');
  if (pet.status === undefined || !context.tested(listPets.id)) return;
  const listed = await context.send({
    operationId: listPets.id,
    method: 'GET',
    path: listPets.path,
    query: pageQuery(listPets, pet.status),
  });
  const listStatus = expectStatus(listed, 200, `listPets filtered by the pet's status "${pet.status}"`);
  const listBody = conformingBody(context.spec, listed);
  if (listStatus !== null || listBody === undefined) {
    record(context, 'use_after_create', listPets.id, listStatus ?? { kind: 'inconclusive' });
    return;
  }
  const pets = listBody.value as Pet[];
  const found = pets.find((candidate) => candidate.id === pet.id);
  if (found !== undefined) {
    record(
      context,
      'use_after_create',
      listPets.id,
      compare(listed, pet, found, `listPets?status=${pet.status}`),
    );
  } else if (roomIn(listPets, pets)) {
    record(context, 'use_after_create', listPets.id, {
      kind: 'fail',
      exchange: listed,
      message: `pet ${pet.id} (from ${source}) is not in the ${pets.length} pets listed with status "${pet.status}"`,
      expected: `pet ${pet.id} among them`,
    });
  } else {
    context.note(
      'use_after_create',
      listPets.id,
      `the filtered page of ${pets.length} is full without the pet: no status had room for a new one`,
    );
  }
}

/**
 * Ids no store is likely to hold yet that the petId schema accepts: the largest id JSON carries
 * exactly, and the schema's own edges (for an int64 with no minimum: 0, -1, -2^63 and 2^63-1). A
 * server must answer 404 to each, not 400: they are valid ids.
 */
export function unknownIds(context: Context): string[] {
  const parameter = context.spec.operation('getPet').parameters.find((p) => p.in === 'path');
  if (parameter === undefined) return [String(UNKNOWN_ID)];
  const schema = parameter.schema;
  const int64 = schema.format === 'int64';
  const min = typeof schema.minimum === 'number' ? BigInt(schema.minimum) : int64 ? -(2n ** 63n) : undefined;
  const max =
    typeof schema.maximum === 'number' ? BigInt(schema.maximum) : int64 ? 2n ** 63n - 1n : undefined;
  const known = new Set(context.knownPets.map((pet) => String(pet.id)));
  const candidates = [
    BigInt(UNKNOWN_ID),
    0n,
    -1n,
    ...(max === undefined ? [] : [max]),
    ...(min === undefined ? [] : [min]),
  ];
  return [...new Set(candidates.map(String))].filter(
    (raw) => parameter.parse(raw).faults.length === 0 && !known.has(raw),
  );
}

export async function notFoundScenario(context: Context): Promise<void> {
  if (!context.selected('not_found') || !context.tested('getPet')) return;
  const getPet = context.spec.operation('getPet');
  for (const id of unknownIds(context)) {
    const exchange = await context.send({
      operationId: getPet.id,
      method: 'GET',
      path: getPet.expand({ petId: id }),
    });
    if (exchange.response?.status === 200) inventedPet(context, exchange, id);
    else
      record(
        context,
        'not_found',
        getPet.id,
        expectStatus(exchange, 404, `an unknown but valid id (${id})`) ?? PASS,
      );
  }
}

/**
 * A 200 to an unknown id: inconclusive while another client may have created a pet with it since; a
 * made-up pet when none can have (the model tells: model/absent.ts).
 */
function inventedPet(context: Context, exchange: Exchange, id: string): void {
  const absent = context.view.knownAbsent(petId(BigInt(id)), exchange.sentSeq);
  if (absent === undefined) return;
  // In the model's words (model/predict.ts), so that its judgement of the same lookup elsewhere (a
  // sequence's) is counted with this one.
  context.failed('not_found', exchange, {
    message: `an id no pet has (${id}): got 200`,
    expected: `404: ${absent.why}`,
    case: `an id no pet has (${id})`,
  });
}

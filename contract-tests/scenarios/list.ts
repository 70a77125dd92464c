// positive_data_acceptance and list_semantics on listPets: valid parameters (every bound, every enum
// value, generated ones) give 200; the list respects `limit` (default 20), the status filter and
// ascending ids.
import fc from 'fast-check';
import { type Context, conformingBody, expectStatus, INCONCLUSIVE, PASS, type Verdict } from '../context.js';
import type { Exchange } from '../exchange.js';
import { idDistance, jsonText, type Pet, type PetId } from '../pet-id.js';
import { runCases, runProperty } from '../property.js';
import { pageMaximum, queryString } from '../requests.js';
import { validParameterArbitrary, validParameterExamples } from '../schema-arbitraries.js';

type Query = Partial<Record<string, string>>;

function clean(query: Query): Record<string, string> {
  return Object.fromEntries(
    Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

export async function listScenario(context: Context): Promise<void> {
  const positive = context.selected('positive_data_acceptance');
  const semantics = context.selected('list_semantics');
  if ((!positive && !semantics) || !context.tested('listPets')) return;
  const operation = context.spec.operation('listPets');
  const query = operation.parameters.filter((parameter) => parameter.in === 'query');
  const limit = query.find((parameter) => parameter.name === 'limit');
  const status = query.find((parameter) => parameter.name === 'status');
  const defaultLimit = typeof limit?.schema.default === 'number' ? limit.schema.default : undefined;
  const maxLimit = pageMaximum(operation);

  const examples: Query[] = [{}];
  for (const parameter of query) {
    for (const raw of validParameterExamples(context.spec.document, parameter))
      examples.push({ [parameter.name]: raw });
  }
  // Every limit at an edge, the default's included, always sent whatever the seed: a page one pet too
  // long just above the default is seen only there.
  const limits = limitBoundaries(limit, defaultLimit, maxLimit);
  for (const raw of limits) examples.push({ limit: raw });
  if (status !== undefined) {
    for (const raw of validParameterExamples(context.spec.document, status)) {
      examples.push({ status: raw });
      for (const bound of limit === undefined ? [] : ['1', ...limits.filter((l) => l !== '1').slice(0, 2)])
        examples.push({ limit: bound, status: raw });
    }
  }
  const seenExample = new Set<string>();
  const uniqueExamples = examples.filter((value) => {
    const key = JSON.stringify(Object.entries(clean(value)).sort());
    if (seenExample.has(key)) return false;
    seenExample.add(key);
    return true;
  });
  const record: Record<string, fc.Arbitrary<string>> = {};
  for (const parameter of query)
    record[parameter.name] = validParameterArbitrary(context.spec.document, parameter);
  const arbitrary = fc.record(record, { requiredKeys: [] }) as fc.Arbitrary<Query>;

  // The whole list, as far as one page goes: what a limited list must be a prefix of.
  let everything: Pet[] | undefined;
  // Nothing is created while this scenario runs, so one answer per query serves both checks: a query
  // that positive_data_acceptance sent is judged by list_semantics without being sent again.
  const answers = new Map<string, Promise<Exchange>>();
  const send = (value: Query) => {
    const query = clean(value);
    const key = JSON.stringify(Object.entries(query).sort());
    let answer = answers.get(key);
    if (answer === undefined) {
      answer = context.send({ operationId: operation.id, method: 'GET', path: operation.path, query });
      answers.set(key, answer);
    }
    return answer;
  };

  if (semantics && maxLimit !== undefined) {
    const exchange = await send({ limit: String(maxLimit) });
    const body = conformingBody(context.spec, exchange);
    const pets = body?.value as Pet[] | undefined;
    // A whole list out of order (a pet repeated, ids descending) is its own finding, and the measure of
    // no other: cut to a limit, it would blame the lists that are right.
    if (exchange.response?.status === 200 && pets !== undefined && ascending(pets)) everything = pets;
  }

  const judgePositive = async (value: Query) =>
    expectStatus(await send(value), 200, 'valid query parameters') ?? PASS;
  const judgeList = async (value: Query): Promise<Verdict> => {
    const exchange = await send(value);
    if (exchange.response?.status !== 200) return INCONCLUSIVE;
    const body = conformingBody(context.spec, exchange);
    if (body === undefined) return INCONCLUSIVE;
    const pets = body.value as Pet[];
    const fail = (cause: string, message: string, expected: string): Verdict => ({
      kind: 'fail',
      exchange,
      message,
      expected,
      cause,
    });
    const wanted = value.limit === undefined ? defaultLimit : Number(value.limit);
    if (wanted !== undefined && pets.length > wanted) {
      return fail(
        'more pets than limit',
        `${pets.length} pets came back`,
        value.limit === undefined ? `at most ${wanted} (the default limit)` : `at most ${wanted} (limit)`,
      );
    }
    for (let i = 1; i < pets.length; i += 1) {
      if ((pets[i]?.id ?? 0) <= (pets[i - 1]?.id ?? 0)) {
        return fail(
          'ids not ascending',
          `ids are not ascending: ${pets[i - 1]?.id} then ${pets[i]?.id}`,
          'pets in ascending id order',
        );
      }
    }
    const other = value.status === undefined ? undefined : pets.find((pet) => pet.status !== value.status);
    if (other !== undefined) {
      return fail(
        'a pet off the filter',
        `pet ${other.id} has status ${JSON.stringify(other.status)}`,
        `only pets with status "${value.status}"`,
      );
    }
    if (wanted !== undefined && everything !== undefined && maxLimit !== undefined) {
      const verdict = againstEverything(everything, maxLimit, value.status, wanted, pets);
      if (verdict !== null)
        return fail('not the whole list filtered, then cut to limit', verdict.message, verdict.expected);
    }
    return PASS;
  };
  const describe = (value: Query) => queryString(clean(value));

  // Every fixed case sent and judged on its own (a failing one hides none after it), by both checks
  // before the next is sent: a list_semantics finding on an answer stands in for what the model said
  // of the same answer (a pet "missing" from a list cut before it was filtered), as soon as it came.
  for (const value of uniqueExamples) {
    if (positive)
      await runCases(context, {
        check: 'positive_data_acceptance',
        operationId: operation.id,
        cases: [value],
        salt: 1,
        generated: 'valid query parameters',
        kind: () => 'valid query parameters',
        describe,
        run: judgePositive,
      });
    if (semantics)
      await runCases(context, {
        check: 'list_semantics',
        operationId: operation.id,
        cases: [value],
        salt: 2,
        generated: 'a list',
        kind: () => 'a list',
        describe,
        run: judgeList,
      });
  }
  // Then cases generated from the seed, the first failing one shrunk (none once a fixed case failed).
  if (positive)
    await runProperty(context, {
      check: 'positive_data_acceptance',
      operationId: operation.id,
      examples: [],
      arbitrary,
      salt: 1,
      describe,
      run: judgePositive,
    });
  if (semantics)
    await runProperty(context, {
      check: 'list_semantics',
      operationId: operation.id,
      examples: [],
      arbitrary,
      salt: 2,
      describe,
      run: judgeList,
    });
}

/** The limits at the edges: the bounds, each side of them, and the default with its neighbours. */
function limitBoundaries(
  limit: { parse(raw: string): { faults: unknown[] } } | undefined,
  defaultLimit: number | undefined,
  maxLimit: number | undefined,
): string[] {
  if (limit === undefined) return [];
  const candidates = [1, 2];
  if (defaultLimit !== undefined) candidates.push(defaultLimit - 1, defaultLimit, defaultLimit + 1);
  if (maxLimit !== undefined) candidates.push(maxLimit - 1, maxLimit);
  return [...new Set(candidates)].map(String).filter((raw) => limit.parse(raw).faults.length === 0);
}

const ids = (pets: readonly Pet[]) => pets.map((pet) => pet.id);

/** Whether a list's ids ascend strictly: no pet twice, none out of order. */
const ascending = (pets: readonly Pet[]) =>
  pets.every((pet, at) => at === 0 || idDistance(pet.id, pets[at - 1]?.id ?? pet.id) > 0n);

/**
 * A list against the whole list seen at the start (one page of the maximum): a filtered list is the
 * whole list filtered, then cut to `limit`, so its length is min(limit, matching). When the whole list
 * filled its page, the store may hold more: only what that page decides is compared.
 */
export function againstEverything(
  everything: readonly Pet[],
  page: number,
  status: string | undefined,
  wanted: number,
  pets: readonly Pet[],
): { message: string; expected: string } | null {
  const complete = everything.length < page;
  const matching = status === undefined ? everything : everything.filter((pet) => pet.status === status);
  if (!complete && matching.length < wanted) return null;
  const expected = matching.slice(0, wanted);
  if (jsonText(ids(pets)) === jsonText(ids(expected))) return null;
  const what = status === undefined ? 'the list' : `the list filtered by status "${status}"`;
  const shown = (list: readonly PetId[]) =>
    list.length > 12 ? `[${list.slice(0, 12).join(', ')}, …] (${list.length})` : `[${list.join(', ')}]`;
  return {
    message: `${pets.length} pets came back, ids ${shown(ids(pets))}, where ${what} has ${complete ? matching.length : `at least ${matching.length}`}`,
    expected: `${expected.length} pets (min(limit ${wanted}, ${complete ? matching.length : `≥ ${matching.length}`} matching)), ids ${shown(ids(expected))}: ${what}, cut to limit`,
  };
}

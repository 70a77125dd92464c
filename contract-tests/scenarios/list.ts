// positive_data_acceptance and list_semantics on listPets: valid parameters (every bound, every enum
// value, generated ones) give 200; the list respects `limit` (default 20), the status filter and
// ascending ids.
import fc from 'fast-check';
import type { Pet } from '../../openapi/index.js';
import { type Context, conformingBody, expectStatus, INCONCLUSIVE, PASS, type Verdict } from '../context.js';
import { runProperty } from '../property.js';
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
  if (!positive && !semantics) return;
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
  if (limit !== undefined && status !== undefined) {
    for (const raw of validParameterExamples(context.spec.document, status))
      examples.push({ limit: '1', status: raw });
  }
  const record: Record<string, fc.Arbitrary<string>> = {};
  for (const parameter of query)
    record[parameter.name] = validParameterArbitrary(context.spec.document, parameter);
  const arbitrary = fc.record(record, { requiredKeys: [] }) as fc.Arbitrary<Query>;

  // The whole list, as far as one page goes: what a limited list must be a prefix of.
  let everything: Pet[] | undefined;
  if (semantics && maxLimit !== undefined) {
    const exchange = await context.send({
      operationId: operation.id,
      method: 'GET',
      path: operation.path,
      query: { limit: String(maxLimit) },
    });
    const body = conformingBody(context.spec, exchange);
    if (exchange.response?.status === 200 && body !== undefined) everything = body.value as Pet[];
  }

  const send = (value: Query) =>
    context.send({ operationId: operation.id, method: 'GET', path: operation.path, query: clean(value) });

  if (positive) {
    await runProperty(context, {
      check: 'positive_data_acceptance',
      operationId: operation.id,
      examples,
      arbitrary,
      salt: 1,
      describe: (value) => queryString(clean(value)),
      run: async (value) => expectStatus(await send(value), 200, 'valid query parameters') ?? PASS,
    });
  }
  if (!semantics) return;
  await runProperty(context, {
    check: 'list_semantics',
    operationId: operation.id,
    examples,
    arbitrary,
    salt: 2,
    describe: (value) => queryString(clean(value)),
    run: async (value): Promise<Verdict> => {
      const exchange = await send(value);
      if (exchange.response?.status !== 200) return INCONCLUSIVE;
      const body = conformingBody(context.spec, exchange);
      if (body === undefined) return INCONCLUSIVE;
      const pets = body.value as Pet[];
      const fail = (message: string, expected: string): Verdict => ({
        kind: 'fail',
        exchange,
        message,
        expected,
      });
      const wanted = value.limit === undefined ? defaultLimit : Number(value.limit);
      if (wanted !== undefined && pets.length > wanted) {
        return fail(
          `${pets.length} pets came back`,
          value.limit === undefined ? `at most ${wanted} (the default limit)` : `at most ${wanted} (limit)`,
        );
      }
      for (let i = 1; i < pets.length; i += 1) {
        if ((pets[i]?.id ?? 0) <= (pets[i - 1]?.id ?? 0)) {
          return fail(
            `ids are not ascending: ${pets[i - 1]?.id} then ${pets[i]?.id}`,
            'pets in ascending id order',
          );
        }
      }
      const other = value.status === undefined ? undefined : pets.find((pet) => pet.status !== value.status);
      if (other !== undefined) {
        return fail(
          `pet ${other.id} has status ${JSON.stringify(other.status)}`,
          `only pets with status "${value.status}"`,
        );
      }
      if (value.status === undefined && wanted !== undefined && everything !== undefined) {
        if (everything.length >= wanted && pets.length < wanted) {
          return fail(
            `${pets.length} pets came back although the list holds at least ${everything.length}`,
            `exactly ${wanted}`,
          );
        }
      }
      return PASS;
    },
  });
}

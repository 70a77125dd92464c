// negative_data_rejection: invalid parameters and bodies, hand-derived from the schemas and generated,
// are rejected: 400 for invalid values and malformed JSON, 415 for another media type, 413 for a body
// over the size limit.
import fc from 'fast-check';
import {
  describeFault,
  MAX_BODY_BYTES,
  type OperationSpec,
  type ParameterSpec,
} from '../../openapi/index.js';
import { type Context, expectStatus, PASS } from '../context.js';
import { runProperty } from '../property.js';
import { exampleBody, existingPetId } from '../requests.js';
import {
  type InvalidCase,
  invalidArbitrary,
  invalidExamples,
  invalidParameterArbitrary,
  invalidParameterExamples,
} from '../schema-arbitraries.js';
import { newPetSchema } from './create.js';

interface ParameterCase {
  readonly name: string;
  readonly raw: string;
  readonly kind: string;
  readonly what: string;
}

interface BodyCase {
  /** The mutation's kind: one finding per failing kind. */
  readonly kind: string;
  /** What is invalid in the case, in words. */
  readonly what: string;
  readonly contentType: string;
  readonly body: string;
  readonly expected: number;
}

/** An invalid raw value of a parameter, with what its parser says is wrong. */
function parameterCase(parameter: ParameterSpec, raw: string): ParameterCase {
  const [fault] = parameter.parse(raw).faults;
  const reason = fault === undefined ? 'invalid' : describeFault(fault).message;
  return {
    name: parameter.name,
    raw,
    kind: `${parameter.name}: ${fault?.keyword ?? 'invalid'}`,
    what: `${parameter.name}=${JSON.stringify(raw)} (${parameter.in}): ${reason}`,
  };
}

async function parameterNegatives(context: Context, operation: OperationSpec, salt: number): Promise<void> {
  const parameters = operation.parameters.filter(
    (parameter) => parameter.in === 'query' || parameter.in === 'path',
  );
  if (parameters.length === 0) return;
  const examples: ParameterCase[] = parameters.flatMap((parameter) =>
    invalidParameterExamples(parameter).map((raw) => parameterCase(parameter, raw)),
  );
  const arbitrary = fc.oneof(
    ...parameters.map((parameter) =>
      invalidParameterArbitrary(parameter).map((raw) => parameterCase(parameter, raw)),
    ),
  );
  await runProperty(context, {
    check: 'negative_data_rejection',
    operationId: operation.id,
    examples,
    arbitrary,
    salt,
    describe: (value) => value.what,
    kind: (value) => value.kind,
    run: async (value) => {
      const parameter = parameters.find((candidate) => candidate.name === value.name);
      const pathParams: Record<string, string | number> = {};
      for (const candidate of parameters) {
        if (candidate.in === 'path') pathParams[candidate.name] = String(existingPetId(context));
      }
      if (parameter?.in === 'path') pathParams[value.name] = value.raw;
      const exchange = await context.send({
        operationId: operation.id,
        method: operation.method,
        path: operation.expand(pathParams),
        ...(parameter?.in === 'query' ? { query: { [value.name]: value.raw } } : {}),
      });
      return expectStatus(exchange, 400, 'an invalid parameter') ?? PASS;
    },
  });
}

async function bodyNegatives(context: Context, operation: OperationSpec, salt: number): Promise<void> {
  const body = newPetSchema(context);
  const document = context.spec.document;
  const json = (value: InvalidCase): BodyCase => ({
    kind: value.kind,
    what: value.what,
    contentType: 'application/json',
    body: JSON.stringify(value.value),
    expected: 400,
  });
  const example = JSON.stringify(exampleBody(operation));
  const examples: BodyCase[] = [
    {
      kind: 'malformed JSON',
      what: 'the body is malformed JSON',
      contentType: 'application/json',
      body: '{"name": ',
      expected: 400,
    },
    {
      kind: 'empty body',
      what: 'the body is empty',
      contentType: 'application/json',
      body: '',
      expected: 400,
    },
    ...invalidExamples(document, body.schema, body.validate).map(json),
    {
      kind: 'array body',
      what: 'a JSON array holding a valid body',
      contentType: 'application/json',
      body: `[${example}]`,
      expected: 400,
    },
  ];
  if (operation.responses.has('415')) {
    // Another media type that is still JSON: a server that parses any body (text/plain included)
    // parses it, and so does one that takes any +json suffix for JSON (Flask's is_json).
    examples.push({
      kind: 'media type',
      what: 'a JSON body sent as application/merge-patch+json, another media type',
      contentType: 'application/merge-patch+json',
      body: example,
      expected: 415,
    });
  }
  if (operation.responses.has('413')) {
    // A valid NewPet padded with whitespace past the limit: only its size is wrong.
    const padded = example + ' '.repeat(MAX_BODY_BYTES);
    examples.push({
      kind: 'too large',
      what: `a valid body of ${Buffer.byteLength(padded)} bytes > the ${MAX_BODY_BYTES / 1024} KiB limit`,
      contentType: 'application/json',
      body: padded,
      expected: 413,
    });
  }
  await runProperty(context, {
    check: 'negative_data_rejection',
    operationId: operation.id,
    examples,
    arbitrary: invalidArbitrary(document, body.schema, body.validate).map(json),
    salt,
    describe: (value) =>
      value.body.length > 200
        ? value.what
        : `${value.what}: ${value.contentType} ${JSON.stringify(value.body)}`,
    kind: (value) => value.kind,
    run: async (value) => {
      const exchange = await context.send({
        operationId: operation.id,
        method: operation.method,
        path: operation.path,
        contentType: value.contentType,
        body: value.body,
      });
      return expectStatus(exchange, value.expected, 'an invalid body') ?? PASS;
    },
  });
}

export async function negativeScenario(context: Context): Promise<void> {
  if (!context.selected('negative_data_rejection')) return;
  let salt = 10;
  for (const operation of context.spec.operations) {
    if ((context.readOnly && operation.method !== 'GET') || !context.tested(operation.id)) continue;
    await parameterNegatives(context, operation, salt++);
    if (operation.requestBody !== undefined) await bodyNegatives(context, operation, salt++);
  }
}

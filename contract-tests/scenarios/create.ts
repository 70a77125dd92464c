// positive_data_acceptance on createPet: valid NewPet bodies (every boundary, every enum value,
// unicode, generated ones) are accepted with 201 and echoed back as sent.
import { isDeepStrictEqual } from 'node:util';
import type fc from 'fast-check';
import { MAX_BODY_BYTES } from '../../openapi/index.js';
import { type Context, conformingBody, expectStatus, INCONCLUSIVE, PASS, type Verdict } from '../context.js';
import { runProperty } from '../property.js';
import { exampleBody } from '../requests.js';
import { boundaryValues, validArbitrary } from '../schema-arbitraries.js';

const CHARSET = 'application/json; charset=utf-8';

export function newPetSchema(context: Context) {
  const body = context.spec.operation('createPet').requestBody?.content.get('application/json');
  if (body === undefined) throw new Error('createPet has no application/json request body in openapi.yaml.');
  return body;
}

/** Compares what a created pet came back as with what was sent; null when they agree. */
export function echoMismatch(sent: Record<string, unknown>, got: Record<string, unknown>): string | null {
  for (const [name, value] of Object.entries(sent)) {
    if (!isDeepStrictEqual(got[name], value)) {
      return `/${name}`;
    }
  }
  return null;
}

export async function createScenario(context: Context): Promise<void> {
  if (!context.selected('positive_data_acceptance') || context.readOnly || !context.tested('createPet'))
    return;
  const operation = context.spec.operation('createPet');
  const body = newPetSchema(context);
  const valid = (value: unknown) => body.validate(value).length === 0;
  const example = exampleBody(operation);
  // A copy, so that the case is told apart by identity from a boundary value that equals it.
  const charsetCase: unknown = structuredClone(example);
  // The body size's boundary from inside: the example padded with white space to exactly the limit.
  const fullSizeCase: unknown = structuredClone(example);
  const exampleText = JSON.stringify(example);
  const fullSize = exampleText + ' '.repeat(Math.max(0, MAX_BODY_BYTES - Buffer.byteLength(exampleText)));
  await runProperty(context, {
    check: 'positive_data_acceptance',
    operationId: operation.id,
    // The media type's parameters are allowed (RFC 9110 §8.3): the example sent with a charset too.
    examples: [
      ...boundaryValues(context.spec.document, body.schema).filter(valid),
      charsetCase,
      fullSizeCase,
    ],
    arbitrary: validArbitrary(context.spec.document, body.schema).filter(valid) as fc.Arbitrary<unknown>,
    salt: 3,
    describe: (value) =>
      value === charsetCase
        ? `body ${exampleText} sent as ${CHARSET}`
        : value === fullSizeCase
          ? `body ${exampleText} padded with white space to ${MAX_BODY_BYTES} bytes, the limit`
          : `body ${JSON.stringify(value)}`,
    run: async (value): Promise<Verdict> => {
      const exchange = await context.send({
        operationId: operation.id,
        method: 'POST',
        path: operation.path,
        contentType: value === charsetCase ? CHARSET : 'application/json',
        body: value === fullSizeCase ? fullSize : JSON.stringify(value),
      });
      const status = expectStatus(exchange, 201, 'a valid NewPet');
      if (status !== null) return status;
      const created = conformingBody(context.spec, exchange);
      if (created === undefined) return INCONCLUSIVE;
      const sent = value as Record<string, unknown>;
      const got = created.value as Record<string, unknown>;
      const path = echoMismatch(sent, got);
      if (path === null) return PASS;
      const name = path.slice(1);
      return {
        kind: 'fail',
        exchange,
        message: `${name} came back as ${JSON.stringify(got[name])}`,
        expected: `${name} ${JSON.stringify(sent[name])}, as sent`,
        instancePath: path,
      };
    },
  });
}

// positive_data_acceptance on createPet: valid NewPet bodies (every boundary, every enum value,
// unicode, generated ones) are accepted with 201 and echoed back as sent.
import { isDeepStrictEqual } from 'node:util';
import type fc from 'fast-check';
import { MAX_BODY_BYTES } from '../../openapi/index.js';
import { type Context, conformingBody, expectStatus, INCONCLUSIVE, PASS, type Verdict } from '../context.js';
import { runCases, runProperty } from '../property.js';
import { exampleBody } from '../requests.js';
import { boundaryValues, validArbitrary } from '../schema-arbitraries.js';

const CHARSET = 'application/json; charset=utf-8';
/**
 * A name that each common normaliser of text changes, where the document has it stored exactly as sent
 * (PetName): Unicode NFC composes `e` and U+0308, NFKC folds the ligature `ﬁ`, an HTML escaper rewrites
 * `<`, `&` and `"`, a collapser of white space takes the double space and the tab.
 */
export const UNNORMALISED_NAME = 'Zoe\u0308 \ufb01  <b>&amp;</b>\t"Biscuit"';

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
  const exampleText = JSON.stringify(example);
  const unnormalised = { ...(example as object), name: UNNORMALISED_NAME };
  const fullSize = exampleText + ' '.repeat(Math.max(0, MAX_BODY_BYTES - Buffer.byteLength(exampleText)));
  // Every kind of case the check names, each sent and judged on its own: the boundaries of NewPet,
  // the example with a charset (a media type's parameters are allowed, RFC 9110 §8.3), and the
  // example padded with white space to exactly the size limit (the limit's boundary from inside).
  const cases: CreateCase[] = [
    ...boundaryValues(context.spec.document, body.schema)
      .filter(valid)
      .map(
        (value): CreateCase => ({
          kind: BOUNDARY,
          value,
          contentType: 'application/json',
          text: JSON.stringify(value),
        }),
      ),
    // Sent with a charset, the example holds a name no normaliser may touch: two kinds of text
    // handling in one request (a default run's economy); a 415 and a name changed read apart.
    {
      kind: `sent as ${CHARSET}`,
      value: unnormalised,
      contentType: CHARSET,
      text: JSON.stringify(unnormalised),
    },
    {
      kind: `padded with white space to ${MAX_BODY_BYTES} bytes, the limit`,
      value: example,
      contentType: 'application/json',
      text: fullSize,
    },
  ];
  const describe = (item: CreateCase) =>
    item.kind === BOUNDARY
      ? `body ${item.text}`
      : `body ${item.value === example ? exampleText : item.text} ${item.kind}`;
  await runCases(context, {
    check: 'positive_data_acceptance',
    operationId: operation.id,
    cases,
    salt: SALT,
    generated: BOUNDARY,
    kind: (item) => item.kind,
    describe,
    run: (item) => sendCase(context, item),
  });
  // Then bodies generated from the seed, the first failing one shrunk (not sent once a boundary failed).
  await runProperty(context, {
    check: 'positive_data_acceptance',
    operationId: operation.id,
    examples: [],
    arbitrary: validArbitrary(context.spec.document, body.schema).filter(valid) as fc.Arbitrary<unknown>,
    salt: SALT,
    describe: (value) => `body ${JSON.stringify(value)}`,
    run: (value) =>
      sendCase(context, {
        kind: BOUNDARY,
        value,
        contentType: 'application/json',
        text: JSON.stringify(value),
      }),
  });
}

/** The kind of the NewPet boundaries, and of the generated bodies. */
const BOUNDARY = 'a valid NewPet';
const SALT = 3;

interface CreateCase {
  readonly kind: string;
  /** The NewPet the body holds. */
  readonly value: unknown;
  readonly contentType: string;
  /** The body as sent. */
  readonly text: string;
}

async function sendCase(context: Context, item: CreateCase): Promise<Verdict> {
  const operation = context.spec.operation('createPet');
  const exchange = await context.send({
    operationId: operation.id,
    method: 'POST',
    path: operation.path,
    contentType: item.contentType,
    body: item.text,
  });
  const status = expectStatus(exchange, 201, 'a valid NewPet');
  if (status !== null) return status;
  const created = conformingBody(context.spec, exchange);
  if (created === undefined) return INCONCLUSIVE;
  const sent = item.value as Record<string, unknown>;
  const got = created.value as Record<string, unknown>;
  const path = echoMismatch(sent, got);
  if (path === null) return PASS;
  const name = path.slice(1);
  const where = typeof sent[name] === 'string' ? whereTextDiffers(sent[name], got[name]) : '';
  return {
    kind: 'fail',
    exchange,
    message: `${name} came back as ${JSON.stringify(got[name])}${where}`,
    expected: `${name} ${JSON.stringify(sent[name])}, as sent`,
    instancePath: path,
    cause: `${name} not echoed as sent`,
  };
}

/**
 * Where two texts that print alike part, as code points (`ë` composed, or `e` and a combining U+0308;
 * `ﬁ` or `fi`): what a reader cannot see in them. Empty when `got` is no text, or reads otherwise.
 */
export function whereTextDiffers(sent: string, got: unknown): string {
  if (typeof got !== 'string' || sent.normalize('NFKC') !== got.normalize('NFKC')) return '';
  const a = [...sent];
  const b = [...got];
  let at = 0;
  while (at < a.length && at < b.length && a[at] === b[at]) at += 1;
  const points = (chars: readonly string[]) =>
    chars.length === 0
      ? 'nothing'
      : chars
          .map((c) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`)
          .join(' ');
  return ` (from character ${at + 1}: sent ${points(a.slice(at, at + 3))}, got ${points(b.slice(at, at + 3))})`;
}

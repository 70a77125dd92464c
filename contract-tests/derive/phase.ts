// The 'derived' phase: each parameter and body integer of the document in the tier-0 spellings its
// place allows (spellings.ts), held to openapi.yaml's decisions: an admitted spelling answers as the
// canonical one does, a refused one gets the documented 400. Near-misses of the key are auth.ts's.
import type { OperationSpec, ParameterSpec } from '../../openapi/index.js';
import type { CheckId } from '../checks.js';
import type { Outgoing } from '../client.js';
import { type Context, conformingBody } from '../context.js';
import type { Exchange } from '../exchange.js';
import type { Because } from '../model/types.js';
import { jsonText } from '../pet-id.js';
import { exampleBody, existingPetId, validRequest } from '../requests.js';
import {
  emptyQuery,
  jsonIntegerSpellings,
  parameterSpellings,
  repeatedParameter,
  type Spelling,
  withRawNumber,
} from './spellings.js';

/** The decision a spelling is held to: the x-petkit-decision of the node that decides it. */
function decision(context: Context, pointer: string): Because {
  let node: unknown = context.spec.document;
  for (const part of pointer.split('/').slice(1)) {
    node = (node as Record<string, unknown> | undefined)?.[part.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  const sentence = String((node as Record<string, unknown> | undefined)?.['x-petkit-decision'] ?? '');
  return { kind: 'document', pointer: `${pointer}/x-petkit-decision`, sentence };
}

/** Where a parameter's decision is written: its component, when the operation refers to one. */
function parameterPointer(parameter: ParameterSpec): string {
  const names: Record<string, string> = { limit: 'Limit', status: 'StatusFilter', petId: 'PetId' };
  return `/components/parameters/${names[parameter.name] ?? parameter.name}`;
}

interface Judged {
  readonly check: CheckId;
  readonly operation: OperationSpec;
  readonly exchange: Exchange;
  readonly what: string;
  readonly because: Because;
}

/** A refused spelling must get the documented 400. */
function expectRefused(context: Context, j: Judged): void {
  const status = j.exchange.response?.status;
  if (status === undefined || status >= 500 || status === 429) return; // another check's, or nothing said
  if (status === 400) {
    context.passed(j.check, j.operation.id);
    return;
  }
  context.failed(j.check, j.exchange, {
    message: `${j.what}: got ${status}`,
    expected: '400 (openapi.yaml decides this spelling is refused)',
    cause: `a refused spelling accepted (${status})`,
    case: j.what,
    because: [j.because],
  });
}

/** An admitted spelling must answer as the canonical one did: same status, same ids. */
function expectSame(
  context: Context,
  j: Judged,
  canonical: Exchange,
  project: (body: unknown) => unknown,
): void {
  const a = canonical.response;
  const b = j.exchange.response;
  if (a === null || b === null || a.status >= 500 || b.status >= 500 || a.status === 429 || b.status === 429)
    return;
  // A body off its schema is response_schema_conformance's to report: nothing said here.
  const bodyA = conformingBody(context.spec, canonical);
  const bodyB = conformingBody(context.spec, j.exchange);
  if (a.status === 200 && b.status === 200 && (bodyA === undefined || bodyB === undefined)) return;
  const read = (body: { value: unknown } | undefined) => jsonText(project(body?.value));
  const same = a.status === b.status && (a.status !== 200 || read(bodyA) === read(bodyB));
  if (same) {
    context.passed(j.check, j.operation.id);
    return;
  }
  context.failed(j.check, j.exchange, {
    message: `${j.what}: got ${b.status}${b.status === a.status ? ' with other content' : ''}, where the canonical spelling got ${a.status}`,
    expected: `the answer to the canonical spelling (${a.status})`,
    cause: 'an admitted spelling answered unlike the canonical one',
    case: j.what,
    because: [
      j.because,
      { kind: 'exchange', sentSeq: canonical.sentSeq, summary: `the canonical spelling got ${a.status}` },
    ],
  });
}

const ids = (body: unknown) => (Array.isArray(body) ? body.map((p) => (p as { id?: unknown }).id) : body);
const tierZero = (spellings: readonly Spelling[]) => spellings.filter((s) => s.tier === 0);

/**
 * Whether a spelling is sent: a refused one when negative_data_rejection is selected, an admitted one
 * when positive_data_acceptance is (each check judges its own).
 */
const judgedBy = (spelling: Spelling): CheckId =>
  spelling.means === 'refused' ? 'negative_data_rejection' : 'positive_data_acceptance';

/** listPets: `limit` at its minimum in each tier-0 spelling and given twice, `status` in another case, and every query parameter empty. */
async function listSpellings(context: Context, operation: OperationSpec): Promise<void> {
  const base = validRequest(context, operation);
  for (const parameter of operation.parameters.filter((p) => p.in === 'query')) {
    const schema = parameter.schema as { minimum?: unknown; enum?: unknown; $ref?: unknown };
    const enumValues = Array.isArray(schema.enum) ? (schema.enum as unknown[]) : undefined;
    const value = typeof schema.minimum === 'number' ? schema.minimum : enumValues?.[0];
    if (value === undefined) continue;
    const spellings = tierZero(parameterSpellings(parameter, value)).filter((s) =>
      context.selected(judgedBy(s)),
    );
    const because = decision(context, parameterPointer(parameter));
    const send = (rawQuery: string): Promise<Exchange> => context.send({ ...base, rawQuery });
    const canonicalSpelling = spellings.find(
      (s) => s.grammar === 'the canonical digits' || s.grammar === 'the value',
    );
    // The canonical spelling is sent only where an admitted spelling needs it as the yardstick.
    const admitted = spellings.filter((s) => s !== canonicalSpelling && s.means !== 'refused');
    const canonical =
      canonicalSpelling !== undefined && admitted.length > 0
        ? await send(`${parameter.name}=${canonicalSpelling.raw}`)
        : undefined;
    for (const spelling of spellings) {
      if (spelling === canonicalSpelling) continue;
      const what = `${parameter.name}=${spelling.raw} (${spelling.grammar})`;
      const exchange = await send(`${parameter.name}=${spelling.raw}`);
      if (spelling.means === 'refused') {
        expectRefused(context, { check: 'negative_data_rejection', operation, exchange, what, because });
      } else if (canonical !== undefined) {
        expectSame(
          context,
          { check: 'positive_data_acceptance', operation, exchange, what, because },
          canonical,
          ids,
        );
      }
    }
    if (enumValues === undefined && context.selected('negative_data_rejection')) {
      const repeated = repeatedParameter(parameter, String(value));
      const exchange = await send(repeated.raw);
      expectRefused(context, {
        check: 'negative_data_rejection',
        operation,
        exchange,
        what: `${repeated.raw} (${repeated.grammar})`,
        because,
      });
    }
  }
  const empty = emptyQuery(operation.parameters);
  const first = operation.parameters.find((p) => p.in === 'query');
  if (empty !== undefined && first !== undefined && context.selected('negative_data_rejection')) {
    const exchange = await context.send({ ...base, rawQuery: empty.raw });
    expectRefused(context, {
      check: 'negative_data_rejection',
      operation,
      exchange,
      what: `${empty.raw} (${empty.grammar})`,
      // Limit's decision says it in words ("an empty value is a 400, not the default").
      because: decision(context, parameterPointer(first)),
    });
  }
}

/** getPet: a known id percent-encoded (answers as the id does), and refused spellings of it. */
async function pathSpellings(context: Context, operation: OperationSpec): Promise<void> {
  const base = validRequest(context, operation);
  for (const parameter of operation.parameters.filter((p) => p.in === 'path')) {
    const id = existingPetId(context);
    const because = decision(context, parameterPointer(parameter));
    for (const spelling of tierZero(parameterSpellings(parameter, id))) {
      if (spelling.grammar === 'the canonical digits' || !context.selected(judgedBy(spelling))) continue;
      const path = operation.path.replace(`{${parameter.name}}`, spelling.raw);
      const what = `${parameter.name} ${spelling.raw} (${spelling.grammar})`;
      const exchange = await context.send({ ...base, path });
      if (spelling.means === 'refused') {
        expectRefused(context, { check: 'negative_data_rejection', operation, exchange, what, because });
        continue;
      }
      // Admitted: the id's own answer, a 200 for that id or a 404 if there is none, never a 400
      // (positive_data_acceptance's, as the model has it: model/predict.ts).
      const response = exchange.response;
      if (response === null || response.status >= 500 || response.status === 429) continue;
      const body = conformingBody(context.spec, exchange);
      if (response.status === 200 && body === undefined) continue; // response_schema_conformance's
      const shown = (body?.value as { id?: unknown } | undefined)?.id;
      const ok = response.status === 404 || (response.status === 200 && shown === id);
      if (ok) context.passed('positive_data_acceptance', operation.id);
      else
        context.failed('positive_data_acceptance', exchange, {
          message: `${what}: got ${response.status}${response.status === 200 ? ` for id ${String(shown)}` : ''}`,
          expected: `the answer for id ${id} (200 with that id, or 404)`,
          cause: 'an admitted spelling answered unlike the canonical one',
          case: what,
          because: [because],
        });
    }
  }
}

/**
 * The text of a number that is a member of a JSON object's top level, as written (`3.0` in
 * `{"categoryId":3.0}`); undefined when the member is absent or no number. `text` is JSON.
 */
export function memberLiteral(text: string, member: string): string | undefined {
  let depth = 0;
  /** At depth 1: the member name just read, while its value is due. */
  let name: string | undefined;
  let value = false;
  for (let i = 0; i < text.length; ) {
    const c = text[i] ?? '';
    if (c === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      if (depth === 1 && !value) name = JSON.parse(text.slice(i, end + 1)) as string;
      else if (depth === 1) name = undefined;
      value = false;
      i = end + 1;
      continue;
    }
    if (c === ':' && depth === 1) value = true;
    else if (c === ',' && depth === 1) {
      name = undefined;
      value = false;
    } else if (c === '{' || c === '[') {
      depth += 1;
      value = false;
    } else if (c === '}' || c === ']') depth -= 1;
    else if (value && depth === 1 && /[-\d]/.test(c)) {
      const number = /^-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/.exec(text.slice(i, i + 64))?.[0] ?? c;
      if (name === member) return number;
      value = false;
      i += number.length;
      continue;
    }
    i += 1;
  }
  return undefined;
}

/** createPet: each integer member of the example body as a whole-valued JSON number with a fraction. */
async function bodySpellings(context: Context, operation: OperationSpec): Promise<void> {
  const body = exampleBody(operation);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return;
  const schema = operation.requestBody?.content.get('application/json')?.schema as
    | { properties?: Record<string, { type?: unknown; $ref?: unknown }> }
    | undefined;
  const because = decision(context, '/components/schemas/CategoryId');
  for (const [member, value] of Object.entries(body as Record<string, unknown>)) {
    if (!Number.isInteger(value) || schema?.properties?.[member] === undefined) continue;
    for (const spelling of tierZero(jsonIntegerSpellings(value as number)).slice(1)) {
      const outgoing: Outgoing = {
        ...validRequest(context, operation),
        body: withRawNumber(body as Record<string, unknown>, member, spelling.raw),
      };
      const exchange = await context.send(outgoing);
      const response = exchange.response;
      if (response === null || response.status >= 500 || response.status === 429 || response.status === 507)
        continue;
      const created = conformingBody(context.spec, exchange);
      if (response.status === 201 && created === undefined) continue; // response_schema_conformance's
      const echoed = (created?.value as Record<string, unknown> | undefined)?.[member];
      // As written: JSON.parse reads 3.0 as 3, but the decision has it echoed as 3, and a client that
      // reads an int64 strictly (Go's encoding/json) refuses 3.0.
      const written = response.status === 201 ? memberLiteral(response.body, member) : undefined;
      const what = `${member}: ${spelling.raw} (${spelling.grammar})`;
      if (response.status === 201 && echoed === value && written === String(value))
        context.passed('positive_data_acceptance', operation.id);
      else
        context.failed('positive_data_acceptance', exchange, {
          message: `${what}: got ${response.status}${response.status === 201 ? `, echoing ${member} ${written ?? jsonText(echoed)}` : ''}`,
          expected: `201, echoing ${member} ${String(value)}`,
          cause: 'a whole-valued JSON number refused or changed',
          case: what,
          because: [because],
        });
    }
  }
}

export async function derivedScenario(context: Context): Promise<void> {
  if (!context.methodOn('derived')) return;
  for (const operation of context.spec.operations) {
    if (!context.tested(operation.id)) continue;
    const query = operation.parameters.some((p) => p.in === 'query');
    const path = operation.parameters.some((p) => p.in === 'path');
    const spelt = context.selected('negative_data_rejection') || context.selected('positive_data_acceptance');
    if (query && spelt) await listSpellings(context, operation);
    if (path && spelt) await pathSpellings(context, operation);
    if (
      operation.requestBody !== undefined &&
      !context.readOnly &&
      context.selected('positive_data_acceptance')
    )
      await bodySpellings(context, operation);
  }
}

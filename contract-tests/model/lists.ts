// A list held to the model, robust to other writers: at most `limit` items in ascending ids, each
// matching the filter, known pets unchanged; every known matching pet below the last id listed is
// there (others' creates only add higher ids), and all of them when fewer than `limit` came.

import type { Exchange } from '../exchange.js';
import { jsonText, type Pet, type PetId } from '../pet-id.js';
import { differingFields, type PetLedger } from './pets.js';
import type { Because, Judgement, KnownPet } from './types.js';

const some = (ids: readonly PetId[]) =>
  ids.slice(0, 5).join(', ') + (ids.length > 5 ? ` (${ids.length} in all)` : '');

/** The judgements on a listPets 200 whose body passed its schema; `params` as the request was read. */
export function judgeList(
  exchange: Exchange,
  pets: readonly Pet[],
  params: Readonly<Record<string, unknown>>,
  ledger: PetLedger,
  described: Because,
): Judgement[] {
  const limit = typeof params.limit === 'number' ? params.limit : 20;
  const status = typeof params.status === 'string' ? params.status : undefined;
  const query = `limit ${limit}${status === undefined ? '' : `, status ${status}`}`;
  const judgements: Judgement[] = [];
  const fault = (judgement: Omit<Judgement, 'because'> & { because?: readonly Because[] }) =>
    judgements.push({ because: [described], ...judgement, case: query });
  if (pets.length > limit)
    fault({
      check: 'list_semantics',
      cause: 'more items than limit',
      message: `${pets.length} pets for ${query}`,
      expected: `at most ${limit}`,
    });
  const descending = pets.findIndex((pet, at) => at > 0 && pet.id <= (pets[at - 1]?.id ?? 0));
  if (descending > 0)
    fault({
      check: 'list_semantics',
      cause: 'ids not ascending',
      message: `id ${pets[descending]?.id} after ${pets[descending - 1]?.id}`,
      expected: 'ascending ids',
      instancePath: `/${descending}/id`,
    });
  const off = pets.findIndex((pet) => status !== undefined && pet.status !== status);
  if (off >= 0)
    fault({
      check: 'list_semantics',
      cause: 'an item off the filter',
      message: `pet ${pets[off]?.id} has status ${pets[off]?.status} in a list filtered by status ${status}`,
      expected: `only pets with status ${status}`,
      instancePath: `/${off}/status`,
    });
  const listed = new Map(pets.map((pet) => [pet.id, pet]));
  const known = ledger.allBefore(exchange.sentSeq);
  // Known pets listed: unchanged (a pet only seen may have changed by a means the document does not show).
  const changed = known.flatMap((entry) => {
    const got = listed.get(entry.pet.id);
    const fields = got === undefined ? [] : differingFields(entry.pet, got);
    return fields.length === 0 ? [] : [{ entry, fields }];
  });
  for (const origin of ['created', 'seen'] as const) {
    const mine = changed.filter(({ entry }) => entry.origin === origin);
    const first = mine[0];
    if (first === undefined) continue;
    fault({
      check: 'use_after_create',
      cause: `a ${origin} pet listed changed`,
      severity: origin === 'created' ? 'error' : 'warning',
      message: `pet ${first.entry.pet.id} listed with ${first.fields.join(', ')} changed from ${jsonText(first.entry.pet)}`,
      expected: 'the pet as known',
      because: [first.entry.since],
    });
  }
  // The presence rules rest on ascending ids: a list out of order has its finding above.
  if (descending > 0) return judgements;
  const last = pets.at(-1)?.id;
  const full = pets.length < limit;
  const missing = known.filter(
    (entry: KnownPet) =>
      (status === undefined || entry.pet.status === status) &&
      !listed.has(entry.pet.id) &&
      (full || (last !== undefined && entry.pet.id < last)),
  );
  // Pets this run created, missing: the creates were lost (use_after_create's, as the scenarios have it)
  // unless a later answer shows them again, when the list is what is wrong. Later exchanges decide, so
  // the check is settled at the end of the run. Pets seen missing too: the list is wrong.
  const createdOnly = missing.every((entry) => entry.origin === 'created');
  const lost = () => !missing.some((entry) => ledger.shownAgain(entry.pet.id));
  for (const origin of ['created', 'seen'] as const) {
    const mine = missing.filter((entry) => entry.origin === origin);
    const first = mine[0];
    if (first === undefined) continue;
    const judgement = {
      check: 'list_semantics',
      cause: `a ${origin} pet missing from a list`,
      severity: origin === 'created' ? 'error' : 'warning',
      message: `${mine.length} ${origin} pet${mine.length === 1 ? '' : 's'} known before this request missing from it: ${some(mine.map((entry) => entry.pet.id))}`,
      expected: full
        ? `every known pet${status === undefined ? '' : ` with status ${status}`}: fewer than ${limit} came`
        : `every known pet${status === undefined ? '' : ` with status ${status}`} with an id below the last listed (${last})`,
      because: [described, first.since],
      case: query,
    } as const;
    if (!createdOnly) judgements.push(judgement);
    else
      judgements.push({
        ...judgement,
        settle: () => (lost() ? { ...judgement, check: 'use_after_create' } : judgement),
      });
  }
  return judgements;
}

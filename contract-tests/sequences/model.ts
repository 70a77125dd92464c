// The sequences' own small model of the target: the pets the run created (those it may hold the target
// to: the document shows no update and no delete), and what follows from them for a lookup, a list and a
// create. Pure functions over plain data; commands.ts sends, this file judges. A pet the run did not
// create (another client's, the store's own) only widens what is allowed: it is never an error.
import { isDeepStrictEqual } from 'node:util';
import type { CheckId } from '../checks.js';
import { differingFields } from '../model/pets.js';
import { jsonText, type Pet, type PetId } from '../pet-id.js';

export interface ListQuery {
  readonly limit?: number;
  readonly status?: string;
}

/** A pet the run created, and the step of this sequence that did (undefined: before the sequence). */
export interface CreatedPet {
  readonly pet: Pet;
  readonly step: number | undefined;
}

/** A departure from what the model allows, in a finding's words. */
export interface Departure {
  readonly check: CheckId;
  readonly message: string;
  readonly expected: string;
  /** A created pet a list lacks: whether the list or the store is wrong, a lookup of it tells. */
  readonly missing?: CreatedPet;
  /** The pet whose id a create gave again: the script checks the id it gets against this one's. */
  readonly clash?: CreatedPet;
}

/**
 * A list lacks a pet the run created: when getPet still answers it as created, the list is not the whole
 * list filtered (list_semantics); when getPet has lost it, or answers another pet under its id (a twin
 * that took the same id), the pet did not stay (use_after_create).
 */
export function attributeMissing(
  departure: Departure,
  /** `body` undefined: none, or one off its schema (response_schema_conformance's). */
  lookup: { readonly status: number; readonly body: unknown } | undefined,
): Departure {
  const { missing, ...rest } = departure;
  if (missing === undefined) return departure;
  if (lookup?.status === 200 && samePet(missing.pet, lookup.body))
    return {
      ...rest,
      check: 'list_semantics',
      message: `${rest.message}, which getPet still answers 200 with`,
    };
  const answered =
    lookup === undefined
      ? 'nothing'
      : lookup.status !== 200
        ? String(lookup.status)
        : lookup.body === undefined
          ? '200 with a body off its schema'
          : `200 with ${jsonText(lookup.body)}`;
  return {
    ...rest,
    check: 'use_after_create',
    message: `${rest.message}, and getPet of it answers ${answered}`,
  };
}

/**
 * Whether a view of a pet shows it as known: every field present in both views equal (a field absent
 * in one, an extra one the schema allows, is not compared), as the model has it (model/pets.ts).
 */
function samePet(known: Pet, got: unknown): boolean {
  return (
    typeof got === 'object' &&
    got !== null &&
    differingFields(known, got as Readonly<Record<string, unknown>>).length === 0
  );
}

/** What a step was to answer, for its comment in the script: the statuses and why. */
export interface Expectation {
  readonly statuses: readonly number[];
  readonly why: string;
}

const statuses = (list: readonly number[]) => list.join(' or ');

/** `pet 12 (created at step 2)` / `pet 12 (created earlier in the run)`. */
export function origin(created: CreatedPet): string {
  return created.step === undefined
    ? `pet ${created.pet.id} (created earlier in the run)`
    : `pet ${created.pet.id} (created at step ${created.step})`;
}

export function expectCreate(): Expectation {
  return {
    statuses: [201, 507],
    why: 'a valid NewPet is created (201, echoing every field sent, with an id no other pet has), or the store is full (507)',
  };
}

/** A create's answer: 201 (or 507), every field sent echoed, an id that no pet the run created has. */
export function judgeCreate(
  sent: Readonly<Record<string, unknown>>,
  status: number,
  pet: Pet | undefined,
  created: readonly CreatedPet[],
): Departure | undefined {
  if (status >= 500 && status !== 507) return undefined; // not_a_server_error's
  if (status !== 201 && status !== 507) {
    return {
      check: 'positive_data_acceptance',
      message: `createPet of a valid body ${jsonText(sent)} answered ${status}`,
      expected: '201 (or 507 when the store is full)',
    };
  }
  if (pet === undefined) return undefined; // a 201 off its schema: response_schema_conformance's
  const differs = Object.entries(sent).find(
    ([name, value]) => !isDeepStrictEqual(pet[name as keyof Pet], value),
  );
  if (differs !== undefined) {
    return {
      check: 'positive_data_acceptance',
      message: `createPet echoed ${differs[0]} ${jsonText(pet[differs[0] as keyof Pet])} for ${jsonText(differs[1])} sent`,
      expected: `the pet as sent: ${jsonText(sent)}`,
    };
  }
  const same = created.find((other) => other.pet.id === pet.id);
  if (same !== undefined) {
    return {
      check: 'use_after_create',
      message: `createPet gave id ${pet.id}, the id of ${origin(same)}`,
      expected: 'an id no other pet has (the document shows no delete: the earlier pet still holds it)',
      clash: same,
    };
  }
  return undefined;
}

/** What a lookup of `id` must answer: the pet when the run created it, else 200 or 404. */
export function expectLookup(id: PetId, created: readonly CreatedPet[]): Expectation {
  const mine = created.find((known) => known.pet.id === id);
  return mine === undefined
    ? {
        statuses: [200, 404],
        why: `no pet the run created has id ${id}: 404, or 200 with pet ${id} should another client have created it`,
      }
    : {
        statuses: [200],
        why: `${origin(mine)}: createPet answered 201 with it, and the document shows no delete`,
      };
}

export function judgeLookup(
  id: PetId,
  status: number,
  pet: Pet | undefined,
  created: readonly CreatedPet[],
): Departure | undefined {
  if (status >= 500) return undefined;
  const mine = created.find((known) => known.pet.id === id);
  if (mine === undefined) {
    if (status === 200 && pet !== undefined && pet.id !== id) {
      // The model's judgement too (model/index.ts): a lookup that answers another pet.
      return {
        check: 'use_after_create',
        message: `getPet of id ${id} answered 200 with pet ${pet.id}`,
        expected: `404, or pet ${id} itself`,
      };
    }
    return undefined;
  }
  if (status !== 200) {
    return {
      check: 'use_after_create',
      message: `getPet of ${origin(mine)} answered ${status}`,
      expected: `200 with ${jsonText(mine.pet)}`,
    };
  }
  if (pet !== undefined && !samePet(mine.pet, pet)) {
    return {
      check: 'use_after_create',
      message: `getPet of ${origin(mine)} gave ${jsonText(pet)}`,
      expected: `as createPet answered: ${jsonText(mine.pet)}`,
    };
  }
  return undefined;
}

export function expectList(query: ListQuery, defaultLimit: number): Expectation {
  const limit = query.limit ?? defaultLimit;
  const filter = query.status === undefined ? '' : ` with status "${query.status}"`;
  return {
    statuses: [200],
    why: `at most ${limit} pets${filter}, ascending ids, the pets the run created among them up to the page's last id`,
  };
}

/**
 * A list's answer: at most `limit` pets, ascending, all matching the filter; and, since it is the whole
 * list filtered then cut, every matching pet the run created with an id below the page's last one (every
 * one, when the page is not full) is on it, as created.
 */
export function judgeList(
  query: ListQuery,
  defaultLimit: number,
  status: number,
  pets: readonly Pet[] | undefined,
  created: readonly CreatedPet[],
): Departure | undefined {
  if (status >= 500) return undefined;
  const limit = query.limit ?? defaultLimit;
  const what = `listPets${query.status === undefined ? '' : ` status=${query.status}`}${query.limit === undefined ? '' : ` limit=${query.limit}`}`;
  if (status !== 200) {
    return { check: 'positive_data_acceptance', message: `${what} answered ${status}`, expected: '200' };
  }
  if (pets === undefined) return undefined;
  if (pets.length > limit) {
    return {
      check: 'list_semantics',
      message: `${what} gave ${pets.length} pets`,
      expected: `at most ${limit}`,
    };
  }
  const unordered = pets.findIndex((pet, i) => i > 0 && pet.id <= (pets[i - 1]?.id ?? 0));
  if (unordered !== -1) {
    return {
      check: 'list_semantics',
      message: `${what} gave id ${pets[unordered - 1]?.id} then ${pets[unordered]?.id}`,
      expected: 'ascending ids',
    };
  }
  const other = query.status === undefined ? undefined : pets.find((pet) => pet.status !== query.status);
  if (other !== undefined) {
    return {
      check: 'list_semantics',
      message: `${what} gave pet ${other.id} with status ${jsonText(other.status)}`,
      expected: `only pets with status "${query.status}"`,
    };
  }
  const last = pets[pets.length - 1]?.id;
  const full = pets.length === limit;
  for (const known of created) {
    if (query.status !== undefined && known.pet.status !== query.status) continue;
    const listed = pets.find((pet) => pet.id === known.pet.id);
    if (listed === undefined) {
      if (full && (last === undefined || known.pet.id > last)) continue;
      return {
        check: 'use_after_create',
        message: `${what} gave ${pets.length} pets without ${origin(known)}${full ? `, whose id is below the page's last (${last})` : ''}`,
        expected: `${origin(known)} on it: the whole list filtered, then cut to ${limit}`,
        missing: known,
      };
    }
    if (!samePet(known.pet, listed)) {
      return {
        check: 'use_after_create',
        message: `${what} gave ${jsonText(listed)} for ${origin(known)}`,
        expected: `as createPet answered: ${jsonText(known.pet)}`,
      };
    }
  }
  return undefined;
}

export const describeExpectation = (expectation: Expectation) =>
  `expected ${statuses(expectation.statuses)}: ${expectation.why}`;

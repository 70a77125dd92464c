// The pets the run knows of, each with the exchange that showed it first and when its answer came:
// what a later request may be held to ("known before it left"). Pets others create are learnt when
// seen; nothing is ever guessed.

import type { Exchange } from '../exchange.js';
import { jsonText, type Pet, type PetId } from '../pet-id.js';
import type { Because, KnownPet } from './types.js';

interface Entry extends KnownPet {
  /** When the answer that showed it came (Exchange.answeredSeq). */
  readonly answeredSeq: number;
}

export interface PetLedger {
  learn(pet: Pet, origin: KnownPet['origin'], exchange: Exchange, summary: string): void;
  all(): readonly KnownPet[];
  created(): readonly Pet[];
  maxId(): PetId | undefined;
  /** Whether any answer so far showed a pet with that id. */
  known(id: PetId): boolean;
  /** The pet with that id, if an answer that came before `sentSeq` showed it. */
  before(id: PetId, sentSeq: number): KnownPet | undefined;
  /** Every pet an answer before `sentSeq` showed. */
  allBefore(sentSeq: number): readonly KnownPet[];
  /** Whether a pet this run created was shown again since, as created (by getPet or a list). */
  shownAgain(id: PetId): boolean;
}

export function createPetLedger(): PetLedger {
  const byId = new Map<PetId, Entry>();
  const created: Pet[] = [];
  const again = new Set<PetId>();
  return {
    shownAgain: (id) => again.has(id),
    learn(pet, origin, exchange, summary) {
      const since: Because = { kind: 'exchange', sentSeq: exchange.sentSeq, summary };
      const known = byId.get(pet.id);
      if (origin === 'created') created.push(pet);
      else if (known?.origin === 'created' && differingFields(known.pet, pet).length === 0) again.add(pet.id);
      // The first view stands (a later one is compared with it); a pet seen first and then created by
      // us cannot be (creates get fresh ids): the create's judge says so.
      if (known === undefined) byId.set(pet.id, { pet, origin, since, answeredSeq: exchange.answeredSeq });
    },
    all: () => [...byId.values()],
    created: () => created,
    known: (id) => byId.has(id),
    maxId: () => {
      let max: PetId | undefined;
      for (const id of byId.keys()) if (max === undefined || id > max) max = id;
      return max;
    },
    before(id, sentSeq) {
      const known = byId.get(id);
      return known !== undefined && known.answeredSeq < sentSeq ? known : undefined;
    },
    allBefore: (sentSeq) => [...byId.values()].filter((known) => known.answeredSeq < sentSeq),
  };
}

/** The fields of `got` that differ from the known pet's, where both have them (a field absent in one view is not compared). */
export function differingFields(known: Pet, got: Readonly<Record<string, unknown>>): string[] {
  const fields: string[] = [];
  for (const name in known) {
    if (!(name in got)) continue;
    if (!sameValue((known as Record<string, unknown>)[name], got[name])) fields.push(name);
  }
  return fields;
}

/** JSON equality; a pet's fields are primitives, compared without serialising (lists of thousands). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return jsonText(a) === jsonText(b);
}

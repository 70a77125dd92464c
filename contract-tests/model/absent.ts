// The ids the run knows no pet has, beyond doubt, while others may create pets meanwhile. It rests on
// what the lists rest on (lists.ts): ids ascend, so a pet created later, by anyone, gets an id above
// every pet there is; and the document shows no delete. An id is absent
// - below the last id of a whole list (no status filter, ascending, at most `limit`) that answered
//   before the request left and lacks it: every pet below that id was listed, and none gets a lower
//   id later;
// - or beyond reach: more than 2^32 above twice the largest id any answer showed. Others' creates
//   hand out ids one above another (or by the clock), not billions in the seconds a run lasts.
// Anything else (an id just above the last one known, on an empty store) stays open: it is not guessed.
import type { Exchange } from '../exchange.js';
import type { PetId } from '../pet-id.js';
import type { Because } from './types.js';

/** How far beyond the largest known id (once doubled) an id is beyond reach. */
export const REACH = 2 ** 32;

/** Why an id is absent: a sentence for the finding, and the exchange it rests on (if one). */
export interface Absence {
  readonly why: string;
  readonly because: readonly Because[];
}

interface Listing {
  readonly sentSeq: number;
  readonly answeredSeq: number;
  readonly url: string;
  readonly ids: ReadonlySet<PetId>;
  readonly last: PetId;
}

export interface AbsentIds {
  /** A whole list's answer (no filter, ascending, within its limit: lists.ts judged it), with its ids. */
  learnList(exchange: Exchange, ids: readonly PetId[]): void;
  /** Why no pet has `id` when request `sentSeq` left, or undefined when the run cannot tell. */
  absent(id: PetId, sentSeq: number, largestKnown: PetId | undefined): Absence | undefined;
}

function pathAndQuery(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

export function createAbsentIds(): AbsentIds {
  const listings: Listing[] = [];
  return {
    learnList(exchange, ids) {
      const last = ids.at(-1);
      if (last === undefined) return;
      listings.push({
        sentSeq: exchange.sentSeq,
        answeredSeq: exchange.answeredSeq,
        url: pathAndQuery(exchange.request.url),
        ids: new Set(ids),
        last,
      });
    },
    absent(id, sentSeq, largestKnown) {
      const listing = listings.find((l) => l.answeredSeq < sentSeq && id < l.last && !l.ids.has(id));
      if (listing !== undefined)
        return {
          why: `the whole list of request ${listing.sentSeq} shows every pet below id ${listing.last}, and not this one; ids ascend, so no pet gets it later`,
          because: [
            {
              kind: 'exchange',
              sentSeq: listing.sentSeq,
              summary: `GET ${listing.url} listed pets up to id ${listing.last}, not ${id}`,
            },
          ],
        };
      const known = BigInt(largestKnown ?? 0);
      const largest = known > 0n ? known : 0n;
      if (BigInt(id) > 2n * largest + BigInt(REACH))
        return {
          why: `it is more than 2^32 above twice the largest id any answer showed (${largest}); ids ascend, and no store hands out that many during a run`,
          because: [],
        };
      return undefined;
    },
  };
}

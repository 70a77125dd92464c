import { expect, test } from 'vitest';
import type { Exchange } from '../exchange.js';
import { createAbsentIds } from './absent.js';

/** A list's exchange, as far as absent.ts reads it. */
const listed = (sentSeq: number, answeredSeq: number, query = 'limit=20') =>
  ({ sentSeq, answeredSeq, request: { url: `http://target.test/v1/pets?${query}` } }) as unknown as Exchange;

test('an id below the last one of a whole list that lacks it is absent, once that list has answered', () => {
  const absent = createAbsentIds();
  absent.learnList(listed(1, 2), [1, 2, 4, 20]);
  expect(absent.absent(3, 3, 20)?.why).toBe(
    'the whole list of request 1 shows every pet below id 20, and not this one; ids ascend, so no pet gets it later',
  );
  expect(absent.absent(0, 3, 20)?.because).toEqual([
    { kind: 'exchange', sentSeq: 1, summary: 'GET /v1/pets?limit=20 listed pets up to id 20, not 0' },
  ]);
  // Sent before the list answered: another client's pet could have had it then, as far as the run knows.
  expect(absent.absent(3, 2, 20)).toBeUndefined();
  // Listed, or above the last listed: another client may have created it since.
  expect(absent.absent(4, 3, 20)).toBeUndefined();
  expect(absent.absent(21, 3, 20)).toBeUndefined();
  expect(absent.absent(1_000_000, 3, 20)).toBeUndefined();
});

test('an id far beyond the largest known one is absent, even on a store the run never listed', () => {
  const absent = createAbsentIds();
  expect(absent.absent(Number.MAX_SAFE_INTEGER, 1, 250)?.why).toBe(
    'it is more than 2^32 above twice the largest id any answer showed (250); ids ascend, and no store hands out that many during a run',
  );
  expect(absent.absent(Number.MAX_SAFE_INTEGER, 1, undefined)).toBeDefined();
  expect(absent.absent(2 ** 32 + 501, 1, 250)).toBeDefined();
  expect(absent.absent(2 ** 32 + 500, 1, 250)).toBeUndefined();
  // Ids handed out by the clock (2^60 and more): 2^53 - 1 is no longer beyond reach.
  expect(absent.absent(Number.MAX_SAFE_INTEGER, 1, 2 ** 60)).toBeUndefined();
});

import { expect, test } from 'vitest';
import type { Exchange } from '../exchange.js';
import { createWindowModel } from './window.js';

const NOW = 1_800_000_000_000;

/** A 200 to the key, answered at `atMs`, with these headers. */
const answer = (seq: number, headers: Record<string, string>): Exchange => ({
  operationId: 'listPets',
  sentSeq: seq * 2,
  answeredSeq: seq * 2 + 1,
  credential: 'key',
  request: { method: 'GET', url: 'http://staging.example/v1/pets', headers: {} },
  response: { status: 200, headers: { 'x-ratelimit-limit': '60', ...headers }, body: '[]' },
  durationMs: 1,
});

test("an answer a cache kept (its Date old by its Age) is not taken for the server's time: the next window's Reset did not move early", () => {
  const model = createWindowModel();
  const reset = NOW / 1000 + 30;
  expect(
    model.observe(
      answer(1, {
        date: new Date(NOW).toUTCString(),
        'x-ratelimit-remaining': '10',
        'x-ratelimit-reset': String(reset),
      }),
      false,
      NOW,
    ),
  ).toBeUndefined();
  // 40 s on, the next window (Reset 60 s later); the answer dated 200 s before, kept by a cache since.
  const later = NOW + 40_000;
  expect(
    model.observe(
      answer(2, {
        date: new Date(later - 200_000).toUTCString(),
        age: '200',
        'x-ratelimit-remaining': '59',
        'x-ratelimit-reset': String(reset + 60),
      }),
      false,
      later,
    ),
  ).toBeUndefined();
});

test('a Reset that moves before its window ended, by the Date of a server minutes fast, is still a finding', () => {
  const model = createWindowModel();
  const skew = 600_000;
  const reset = (NOW + skew) / 1000 + 30;
  model.observe(
    answer(1, {
      date: new Date(NOW + skew).toUTCString(),
      'x-ratelimit-remaining': '10',
      'x-ratelimit-reset': String(reset),
    }),
    false,
    NOW,
  );
  const finding = model.observe(
    answer(2, {
      date: new Date(NOW + skew + 5_000).toUTCString(),
      'x-ratelimit-remaining': '9',
      'x-ratelimit-reset': String(reset + 60),
    }),
    false,
    NOW + 5_000,
  );
  expect(finding?.message).toBe(
    `X-RateLimit-Reset moved from ${reset} to ${reset + 60} before that window ended (X-RateLimit-Limit 60)`,
  );
});

// `petkit contract --har` against a target whose every answer is large: the HAR is written, and holds
// at most HAR_BODY_BUDGET characters of bodies whole; the later ones are cut, and say so.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { HAR_BODY_BUDGET, HAR_BODY_CUT, recordContractHar } from '../cli/contract-har.js';
import { MAX_RESPONSE_BYTES } from '../contract-tests/client.js';
import type { Exchange } from '../contract-tests/index.js';

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true });
  dir = undefined;
});

/** A listPets that got a body as large as the suite reads (one string, shared: the test holds 4 MiB). */
const body = `[${' '.repeat(MAX_RESPONSE_BYTES - 2)}]`;
const exchange = (seq: number): Exchange => ({
  operationId: 'listPets',
  sentSeq: seq,
  answeredSeq: seq + 1,
  credential: 'key',
  request: {
    method: 'GET',
    url: 'http://127.0.0.1:1/v1/pets',
    headers: { authorization: 'Bearer $API_KEY' },
  },
  response: { status: 200, headers: { 'content-type': 'application/json' }, body },
  durationMs: 1,
});

test('140 answers of 4 MiB each: the HAR is written (it was "Invalid string length", the exchanges lost), its bodies bounded', () => {
  dir = mkdtempSync(join(tmpdir(), 'petkit-har-'));
  const file = join(dir, 'run.har');
  const har = recordContractHar('0.0.0');
  for (let i = 0; i < 140; i += 1) har.add(exchange(2 * i), 1_000_000 + i);
  har.write(file);
  const entries = (
    JSON.parse(readFileSync(file, 'utf8')) as {
      log: { entries: { comment?: string; response: { content: { size: number; text?: string } } }[] };
    }
  ).log.entries;
  expect(entries).toHaveLength(140);
  const kept = entries.map((entry) => entry.response.content.text?.length ?? 0);
  expect(kept.reduce((sum, length) => sum + length, 0)).toBeLessThanOrEqual(
    HAR_BODY_BUDGET + 140 * HAR_BODY_CUT,
  );
  // The first ones whole, then each cut to its start, with its whole size and why.
  expect(kept[0]).toBe(body.length);
  const last = entries[139];
  expect(last?.response.content.text).toBe(body.slice(0, HAR_BODY_CUT));
  expect(last?.response.content.size).toBe(body.length);
  expect(last?.comment).toBe(
    `operation listPets; body cut to its first ${HAR_BODY_CUT} characters of ${body.length}: a HAR keeps bodies whole up to ${HAR_BODY_BUDGET / 1024 / 1024} MiB of them in all`,
  );
});

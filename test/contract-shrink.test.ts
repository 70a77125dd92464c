// A failing generated case is shrunk to a minimal one, and the same seed repeats the run.
import { afterEach, expect, test } from 'vitest';
import { runContract } from '../contract-tests/index.js';
import { createReference, type Handler, REFERENCE_KEY, type Served, serve } from './servers/reference.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** Rejects any name with a digit in it: no hand-picked boundary has one, generated names do. */
function rejectsDigits(): Handler {
  const reference = createReference();
  return (request) => {
    if (request.method === 'POST' && /"name":"[^"]*\d/.test(request.body)) {
      return {
        status: 400,
        headers: {
          'content-type': 'application/json',
          'x-ratelimit-limit': '100000',
          'x-ratelimit-remaining': '99999',
          'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 60),
        },
        body: JSON.stringify({ code: 'validation_failed', message: 'Invalid body.', status: 400 }),
      };
    }
    return reference(request);
  };
}

test('a generated valid body the server rejects is shrunk to a minimal one', async () => {
  served = await serve(rejectsDigits());
  const report = await runContract({
    baseUrl: served.url,
    apiKey: REFERENCE_KEY,
    seed: 5,
    checks: ['positive_data_acceptance'],
  });
  const finding = report.findings.find((f) => f.operationId === 'createPet');
  expect(finding?.message).toMatch(/^a valid NewPet: got 400 for body \{.*\} \(shrunk in \d+ steps\)$/);
  // Minimal: a name of one or two characters with its digit, the smallest categoryId, no status.
  const sent = JSON.parse(finding?.request.body ?? '{}') as Record<string, unknown>;
  expect(sent).toEqual({ name: expect.stringMatching(/^(\d.?|.\d)$/), categoryId: 1 });
});

test('the same seed draws the same cases', async () => {
  const bodies = async (seed: number) => {
    const sent: string[] = [];
    const reference = createReference();
    served = await serve((request) => {
      if (request.method === 'POST') sent.push(request.body);
      return reference(request);
    });
    await runContract({
      baseUrl: served.url,
      apiKey: REFERENCE_KEY,
      seed,
      checks: ['positive_data_acceptance'],
    });
    await served.close();
    served = undefined;
    return sent;
  };
  const first = await bodies(99);
  expect(await bodies(99)).toEqual(first);
  expect(await bodies(100)).not.toEqual(first);
});

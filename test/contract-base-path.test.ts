// The suite and the proxy against a server mounted under another base path than the document's /v1
// (petkit/msw at http://petkit.test/api, an upstream at /api/v2): getPet's Link names that API's
// listPets, </api/pets>, which is its successor there, not the document's own </v1/pets>.
import { setupServer } from 'msw/node';
import { createMock } from 'petkit';
import { createHandlers } from 'petkit/msw';
import { expect, onTestFinished, test } from 'vitest';
import { renderPretty, runContract } from '../contract-tests/index.js';

test('the suite against petkit/msw under /api: deprecation_signalled passes, with </api/pets>', async () => {
  const baseUrl = 'http://petkit.test/api';
  const server = setupServer(...createHandlers({ mock: createMock({ seed: 42 }), baseUrl }));
  server.listen({ onUnhandledRequest: 'error' });
  onTestFinished(() => server.close());
  const report = await runContract({
    baseUrl,
    apiKey: 'demo-enterprise',
    seed: 42,
  });
  const deprecation = report.results.filter((result) => result.check === 'deprecation_signalled');
  expect(deprecation.map((result) => result.outcome)).toEqual(['passed']);
  if (report.findings.length > 0) throw new Error(renderPretty(report, { color: false }));
  expect(report.exitCode).toBe(0);
});

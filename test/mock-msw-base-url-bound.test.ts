// A baseUrl far longer than any API's (one built by mistake, 100,000 characters): refused when the
// handlers are made, saying the bound, not on the app's first request inside MSW's RegExp. One at the
// bound serves.
import { setupServer } from 'msw/node';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createMock } from '../mocks/mock.js';
import { createHandlers, override } from '../mocks/msw.js';
import { MAX_BASE_URL_LENGTH } from '../mocks/msw-base-url.js';

const ORIGIN = 'https://api.example.test/';
const ofLength = (length: number) => `${ORIGIN}${'a'.repeat(length - ORIGIN.length)}`;

describe('a baseUrl over the bound', () => {
  it('is refused by createHandlers and override at once, saying the bound, never quoted', () => {
    const huge = ofLength(100_000);
    const fault =
      "baseUrl is 100,000 characters long; a base URL may have at most 2,048: give the API's base URL as the app calls it ('https://api.example.test/v1').";
    expect(() => createHandlers({ baseUrl: huge })).toThrow(new TypeError(`petkit/msw: ${fault}`));
    expect(() => override('listPets', { status: 200, body: [] }, { baseUrl: huge })).toThrow(
      `override('listPets'): ${fault}`,
    );
    expect(() => createHandlers({ baseUrl: ofLength(MAX_BASE_URL_LENGTH + 1) })).toThrow(
      /^petkit\/msw: baseUrl is 2,049 characters long/,
    );
  });

  it('serves one at the bound through MSW', async () => {
    const baseUrl = ofLength(MAX_BASE_URL_LENGTH);
    const server = setupServer(...createHandlers({ mock: createMock({ seed: 42 }), baseUrl }));
    server.listen({ onUnhandledRequest: 'error' });
    onTestFinished(() => server.close());
    const response = await fetch(`${baseUrl}/pets/1`, { headers: { authorization: 'Bearer demo-free' } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: 1 });
  });
});

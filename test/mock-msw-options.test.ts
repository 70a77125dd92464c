// petkit/msw's createHandlers, and mock.reset, given arguments of the wrong shape by a caller without
// types: refused when called, with an error that names the argument, never later inside MSW.
import { createMock, MockOptionsError } from 'petkit';
import { createHandlers, override } from 'petkit/msw';
import { describe, expect, it } from 'vitest';

describe('createHandlers with arguments of the wrong shape', () => {
  it("refuses a mock option at once, as createMock would, not on the first request as a 500 with the error's stack", () => {
    expect(() => createHandlers({ seed: 'x' as never, baseUrl: 'https://api.example.test/v1' })).toThrow(
      new MockOptionsError('Option seed must be an integer from 0 to 4294967295, got x.'),
    );
    expect(() => createHandlers({ pets: -1 })).toThrow(MockOptionsError);
    expect(() => createHandlers({ logger: {} as never })).toThrow(/^Option logger must be an object/);
  });

  it('refuses options that are not an object, and a mock that is not one of createMock', () => {
    expect(() => createHandlers(null as never)).toThrow(
      new TypeError(
        "petkit/msw: createHandlers takes an object, { mock, baseUrl? } or the mock's options and baseUrl; got null.",
      ),
    );
    expect(() => createHandlers({ mock: {} as never })).toThrow(
      new TypeError('petkit/msw: mock must be a mock made by createMock(), got an object.'),
    );
    expect(() => createHandlers({ mock: undefined as never })).toThrow(/got undefined\.$/);
  });

  it("refuses a mock's options beside a mock, which answered with its own and dropped them unsaid", () => {
    const mock = createMock({ seed: 42 });
    // @ts-expect-error: a mock, or the options of a mock of its own; not both.
    expect(() => createHandlers({ mock, seed: 7, pets: 3, baseUrl: 'https://api.example.test/v1' })).toThrow(
      new TypeError(
        "petkit/msw: createHandlers takes { mock, baseUrl? } or the mock's options, not both: seed, pets would be ignored beside a mock, which has its own (give them to createMock).",
      ),
    );
  });

  it('takes an option given as undefined as its default, as its types now say (exactOptionalPropertyTypes)', async () => {
    // What an app passes from its environment: a string or undefined. The types refused it while
    // createMock and createHandlers took it; under exactOptionalPropertyTypes it was a type error.
    const apiUrl = process.env.PETKIT_TEST_NO_SUCH_VARIABLE;
    const seed = apiUrl === undefined ? undefined : 7;
    const mock = createMock({ seed, pets: undefined, clock: undefined, latency: undefined });
    expect(createHandlers({ mock, baseUrl: apiUrl })).toHaveLength(2);
    expect(createHandlers({ mock, seed: undefined })).toHaveLength(2);
    expect(createHandlers({ seed, baseUrl: apiUrl })).toHaveLength(2);
    expect(
      override('listPets', { status: 200, body: [] }, { baseUrl: apiUrl, once: undefined, now: undefined }),
    ).toBeDefined();
    await mock.reset({ seed, pets: undefined });
    expect(mock.options.seed).toBe(42);
  });

  it('still takes a mock, options, or nothing', () => {
    expect(createHandlers({ mock: createMock() })).toHaveLength(2);
    expect(createHandlers({ mock: createMock(), baseUrl: '*/api/v1' })).toHaveLength(2);
    expect(createHandlers({ seed: 7, baseUrl: '*/api/v1' })).toHaveLength(2);
    expect(createHandlers()).toHaveLength(2);
  });
});

describe('mock.reset with options of the wrong shape', () => {
  it('refuses options that are not an object, naming what it takes', () => {
    const mock = createMock();
    expect(() => mock.reset(null as never)).toThrow(
      new MockOptionsError('Reset options must be an object { seed?, pets? }, got null.'),
    );
  });
});

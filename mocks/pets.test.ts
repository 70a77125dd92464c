import { describe, expect, it } from 'vitest';
import { createMock } from './mock.js';
import { MockOptionsError } from './options.js';
import { checkedRequest, withKey } from './test-helpers.js';

const FIXTURES = [
  { name: 'Rex', categoryId: 1 },
  { id: 2, name: 'Tom', categoryId: 2, status: 'sold' as const },
];
const list = async (mock: ReturnType<typeof createMock>) =>
  (await checkedRequest(mock, '/v1/pets?limit=100', withKey('demo-free'))).json;

describe('the pets option and reset', () => {
  it('starts from the pets given, ids from 1, a Pet read back as it was', async () => {
    const mock = createMock({ pets: FIXTURES });
    expect(mock.options.pets).toBe(2);
    expect(await list(mock)).toEqual([
      { id: 1, name: 'Rex', categoryId: 1 },
      { id: 2, name: 'Tom', categoryId: 2, status: 'sold' },
    ]);
  });
  it.each([
    [[{ name: 'Rex' }], 'Option pets[0]: /categoryId is required.'],
    [
      [
        { name: 'Rex', categoryId: 1 },
        { name: 'Tom', categoryId: 1, status: 'adopted' },
      ],
      'Option pets[1]: /status must be one of "available", "pending", "sold"; got "adopted".',
    ],
    [
      [{ id: 7, name: 'Rex', categoryId: 1 }],
      'Option pets[0]: /id is 7, but ids are given in order from 1: leave it out or make it 1.',
    ],
    [[{ name: 'Rex', categoryId: 1, colour: 'red' }], 'Option pets[0]: /colour is not an allowed property.'],
    [
      { name: 'Rex' },
      'Option pets must be an array of pets ({"name", "categoryId", "status"}), got an object.',
    ],
    // A keys file given as --fixtures by mistake: said what it is, its keys never printed.
    [
      { keys: [{ key: 'sk_live_4f9a8b7c6d5e4f3a2b1c', plan: 'pro' }] },
      'Option pets must be an array of pets ({"name", "categoryId", "status"}), got an object.',
    ],
    ['pets.json', 'Option pets must be an array of pets ({"name", "categoryId", "status"}), got a string.'],
  ])('refuses %j, naming the bad entry', (pets, message) => {
    expect(() => createMock({ pets: pets as never })).toThrow(new MockOptionsError(message));
  });
  it('resets to the mock’s pets, or re-seeds once with { seed, pets }', async () => {
    const mock = createMock({ pets: 3 });
    const seeded = await list(mock);
    await mock.reset({ seed: 7 });
    const reseeded = (await list(mock)) as unknown[];
    expect(reseeded).toHaveLength(3);
    expect(reseeded).not.toEqual(seeded);
    await mock.reset({ pets: 5 });
    expect(await list(mock)).toHaveLength(5);
    await mock.reset({ pets: [{ name: 'Solo', categoryId: 4 }] });
    expect(await list(mock)).toEqual([{ id: 1, name: 'Solo', categoryId: 4 }]);
    await mock.reset();
    expect(await list(mock)).toEqual(seeded);
  });
  it('refuses reset options it cannot use, and keeps its pets', async () => {
    const mock = createMock({ pets: 3, maxPets: 10 });
    expect(() => mock.reset({ pets: [{ name: '', categoryId: 1 }] })).toThrow(
      'Option pets[0]: /name must NOT have fewer than 1 characters; got "".',
    );
    expect(() => mock.reset({ pets: 11 })).toThrow('Option pets must be an integer from 0 to 10, got 11.');
    expect(() => mock.reset({ seed: 1, pets: [] })).toThrow(
      'Reset takes a seed or a list of pets, not both.',
    );
    const eleven = Array.from({ length: 11 }, () => ({ name: 'Rex', categoryId: 1 }));
    expect(() => mock.reset({ pets: eleven })).toThrow(
      'Option pets gives 11 pets; the store holds 10 (maxPets).',
    );
    expect(() => createMock({ pets: eleven, maxPets: 10 })).toThrow(
      'Option pets gives 11 pets; the store holds 10 (maxPets).',
    );
    expect(await list(mock)).toHaveLength(3);
  });
});

// A -0 in a control body, a rule or the mock's own pets is quoted as -0, as it was sent, not as the 0
// it equals: `{"advanceSeconds": -0}` was told "must be >= 1; got 0".
import { describe, expect, it } from 'vitest';
import { createMock } from './mock.js';

const post = (path: string, body: string) => ({
  path,
  init: { method: 'POST', headers: { 'content-type': 'application/json' }, body },
});

describe('-0 quoted as sent', () => {
  it('in the control API: the clock and a rule', async () => {
    const mock = createMock();
    for (const [{ path, init }, message] of [
      [
        post('/__petkit/clock', '{"advanceSeconds":-0}'),
        'Invalid clock change: /advanceSeconds must be >= 1; got -0.',
      ],
      [
        post('/__petkit/rules', '{"operation":"listPets","respond":{"status":-0}}'),
        'Invalid rule: /respond/status must be >= 400; got -0.',
      ],
      [
        post('/__petkit/rules', '{"operation":"listPets","times":-0,"respond":{"status":429}}'),
        'Invalid rule: /times must be >= 1; got -0.',
      ],
    ] as const) {
      const res = await mock.request(path, init);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBe(message);
    }
  });

  it("in the mock's own pets, and leaves a 0 as 0", () => {
    expect(() => createMock({ pets: [{ name: 'a', categoryId: -0 }] })).toThrow(
      'Option pets[0]: /categoryId must be >= 1; got -0.',
    );
    expect(() => createMock({ pets: [{ name: 'a', categoryId: 0 }] })).toThrow(
      'Option pets[0]: /categoryId must be >= 1; got 0.',
    );
  });
});

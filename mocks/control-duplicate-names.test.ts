// A control body that gives a name twice in one object (`{"frozen": true, "frozen": false}`) is
// refused, naming both places, as a rules or keys file is: JSON.parse keeps the last, and the change
// made was not the one a reader of the body sees first.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createMock } from './mock.js';
import { loadRulesFile } from './rules-file.js';

const post = (method: string, body: string): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json' },
  body,
});

const twice = (first: number, again: number) =>
  `The body has a name twice in one object, at line 1, column ${first} and line 1, column ${again}: JSON would keep the last; give it once.`;

describe('a control body with a name given twice', () => {
  it('is refused by each control route, changing nothing', async () => {
    const mock = createMock();
    const before = await (await mock.request('/__petkit/clock')).json();
    for (const [path, method, body, first, again] of [
      ['/__petkit/clock', 'POST', '{"advanceSeconds": 60, "advanceSeconds": 3600}', 2, 24],
      ['/__petkit/clock', 'POST', '{"frozen": true, "frozen": false}', 2, 18],
      [
        '/__petkit/rules',
        'POST',
        '{"operation": "listPets", "respond": {"status": 500}, "respond": {"fault": "reset"}}',
        27,
        55,
      ],
      ['/__petkit/reset', 'POST', '{"pets": 3, "seed": 1, "pets": []}', 2, 24],
    ] as const) {
      const response = await mock.request(path, post(method, body));
      expect(response.status, body).toBe(400);
      expect(await response.json()).toEqual({
        code: 'validation_failed',
        message: twice(first, again),
        status: 400,
      });
    }
    expect(await (await mock.request('/__petkit/clock')).json()).toMatchObject({
      frozen: before.frozen,
      offsetSeconds: 0,
    });
    expect(await mock.rules.list()).toEqual([]);
    expect((await mock.request('/v1/pets', { headers: { authorization: 'Bearer demo-free' } })).status).toBe(
      200,
    );
    expect(await (await mock.request('/__petkit/health')).json()).toMatchObject({ pets: 50 });
  });

  it('is refused when switching a rule, which stays as it was', async () => {
    const mock = createMock();
    await mock.rules.arm({ operation: 'listPets', respond: { status: 500 } });
    const response = await mock.request(
      '/__petkit/rules/r1',
      post('PATCH', '{"enabled": false, "enabled": true}'),
    );
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe(twice(2, 20));
    expect((await mock.rules.list())[0]?.enabled).toBe(true);
  });

  it('says of a rule what the rules file says of it: the two doors agree', async () => {
    const rule = '{"operation": "listPets", "respond": {"status": 500}, "respond": {"fault": "reset"}}';
    const dir = mkdtempSync(join(tmpdir(), 'petkit-twice-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'rules.json');
    writeFileSync(path, `{"rules": [${rule}]}`);
    expect(() => loadRulesFile(path, { seed: 42, keys: [] })).toThrow(/has a name twice in one object/);
    const response = await createMock().request('/__petkit/rules', post('POST', rule));
    expect(response.status).toBe(400);
  });
});

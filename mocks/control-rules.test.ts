// The control API's rules over mock.request, as a tester's script or the page calls them.
import { describe, expect, it } from 'vitest';
import { ControlError } from './controls.js';
import { createMock, type Mock } from './mock.js';
import { MAX_RULES } from './rules.js';
import { checkedRequest, withKey } from './test-helpers.js';

const PRIVATE_KEY = 'sk_live_4f9a8b7c6d5e4f3a2b1c';
const KEYS = {
  keys: [
    { key: 'demo-free', plan: 'free' as const },
    { key: PRIVATE_KEY, plan: 'pro' as const },
  ],
};

const mockAt = () => createMock({ keys: KEYS, clock: () => Date.parse('2030-01-01T12:00:30Z') });

const send = (mock: Mock, method: string, path: string, body?: unknown) =>
  checkedRequest(mock, path, {
    method,
    ...(body === undefined
      ? {}
      : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });

describe('/__petkit/rules', () => {
  it('arms a rule (201), which answers the requests it matches, and lists it with its counts', async () => {
    const mock = mockAt();
    const armed = await send(mock, 'POST', '/__petkit/rules', {
      operation: 'listPets',
      times: 1,
      respond: { status: 503 },
    });
    expect(armed.status).toBe(201);
    expect(armed.json).toEqual({
      id: 'r1',
      enabled: true,
      operation: 'listPets',
      times: 1,
      after: 0,
      respond: { status: 503 },
      matched: 0,
      fired: 0,
    });
    const first = await checkedRequest(mock, '/v1/pets?limit=1', withKey('demo-free'));
    expect([first.status, (first.json as { code: string }).code]).toEqual([503, 'state_unavailable']);
    expect((await checkedRequest(mock, '/v1/pets?limit=1', withKey('demo-free'))).status).toBe(200);
    const listed = await send(mock, 'GET', '/__petkit/rules');
    expect(listed.json).toEqual({ rules: [expect.objectContaining({ id: 'r1', matched: 2, fired: 1 })] });
  });

  it('refuses a rule that cannot be armed: 400 validation_failed with each fault in details', async () => {
    const mock = mockAt();
    const refused = await send(mock, 'POST', '/__petkit/rules', {
      operation: 'listPets',
      respond: { status: 418 },
    });
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({
      code: 'validation_failed',
      message:
        'Invalid rule: /respond/status 418 is not a documented error status of listPets (documented: 400, 401, 429, 500, 503).',
      status: 400,
      details: [
        {
          path: '/respond/status',
          message: '418 is not a documented error status of listPets (documented: 400, 401, 429, 500, 503)',
        },
      ],
    });
    const unknown = await send(mock, 'POST', '/__petkit/rules', { respond: { fault: 'boom' } });
    expect(unknown.json).toMatchObject({
      code: 'validation_failed',
      details: [{ path: '/respond/fault', message: expect.stringContaining('must be one of "reset"') }],
    });
    expect((await send(mock, 'GET', '/__petkit/rules')).json).toEqual({ rules: [] });
  });

  it('says a --rules file posted (or armed in process) whole is a file of rules, where one rule goes', async () => {
    const mock = mockAt();
    const rule = { operation: 'listPets', respond: { status: 500 } };
    const file = await send(mock, 'POST', '/__petkit/rules', { rules: [rule] });
    // It was `Invalid rule: /respond is required (and 1 more).`
    expect(file.status).toBe(400);
    expect(file.json).toEqual({
      code: 'validation_failed',
      message:
        'A rule is armed alone, {"operation", "respond", …}; {"rules": [rule, …]} is the shape of a --rules file: arm each of its rules on its own (POST /__petkit/rules, mock.rules.arm).',
      status: 400,
    });
    // In process alike.
    await expect(mock.rules.arm({ rules: [rule] } as never)).rejects.toThrow(
      new ControlError('validation_failed', (file.json as { message: string }).message),
    );
    expect(await mock.rules.list()).toEqual([]);
    expect((await send(mock, 'POST', '/__petkit/rules', rule)).status).toBe(201);
  });
  it('refuses a body that is not JSON (400 malformed_json) or not sent as JSON (415)', async () => {
    const mock = mockAt();
    const malformed = await checkedRequest(mock, '/__petkit/rules', {
      method: 'POST',
      body: '{"respond":',
      headers: { 'content-type': 'application/json' },
    });
    expect([malformed.status, (malformed.json as { code: string }).code]).toEqual([400, 'malformed_json']);
    const text = await checkedRequest(mock, '/__petkit/rules', { method: 'POST', body: 'respond=500' });
    expect([text.status, (text.json as { code: string }).code]).toEqual([415, 'unsupported_media_type']);
  });

  it('says a number past what a double holds (1e400) is that, not null; in process, NaN as NaN', async () => {
    // JSON.parse reads 1e400 as Infinity, which a message quoting it as JSON wrote "null": never sent.
    const mock = mockAt();
    for (const [path, body, message] of [
      [
        '/__petkit/rules',
        '{"respond":{"delayMs":1e400}}',
        'Invalid rule: /respond/delayMs must be integer; got a number beyond what a double holds (±1.8e308).',
      ],
      [
        '/__petkit/rules',
        `{"respond":{"delayMs":-1${'0'.repeat(400)}}}`,
        'Invalid rule: /respond/delayMs must be integer; got a number beyond what a double holds (±1.8e308).',
      ],
      [
        '/__petkit/clock',
        '{"advanceSeconds":1e999}',
        'Invalid clock change: /advanceSeconds must be integer; got a number beyond what a double holds (±1.8e308).',
      ],
    ] as const) {
      const refused = await checkedRequest(mock, path, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
      });
      expect(refused.status).toBe(400);
      expect((refused.json as { message: string }).message).toBe(message);
    }
    await expect(mock.rules.arm({ respond: { delayMs: Number.NaN } })).rejects.toThrow(
      'Invalid rule: /respond/delayMs must be integer; got NaN.',
    );
  });

  it(`answers 409 too_many_rules past ${MAX_RULES} rules`, async () => {
    const mock = mockAt();
    for (let i = 0; i < MAX_RULES; i += 1) await mock.rules.arm({ respond: { delayMs: 1 } });
    const refused = await send(mock, 'POST', '/__petkit/rules', { respond: { delayMs: 1 } });
    expect(refused.status).toBe(409);
    expect(refused.json).toEqual({
      code: 'too_many_rules',
      message:
        '100 rules are armed, the most the mock keeps; disarm one or all first (DELETE /__petkit/rules/ID or /__petkit/rules; in process, mock.rules.disarm(id) or mock.rules.disarm()).',
      status: 409,
    });
    // In process, the same refusal names what a test calls.
    await expect(mock.rules.arm({ respond: { delayMs: 1 } })).rejects.toThrow(
      /in process, mock\.rules\.disarm\(id\) or mock\.rules\.disarm\(\)/,
    );
  });

  it('fires a rule written with a path beyond ASCII for the requests that carry it (percent-encoded)', async () => {
    const mock = mockAt();
    await send(mock, 'POST', '/__petkit/rules', {
      operation: 'getPet',
      path: '/v1/pets/ü*',
      respond: { status: 404 },
    });
    const forced = await checkedRequest(mock, '/v1/pets/ü1', withKey('demo-free'));
    expect(forced.status).toBe(404);
    expect((forced.json as { message: string }).message).toContain('(Forced by rule r1.)');
  });

  it('fires a rule for a path whose escapes come in either case (%c3%bc is %C3%BC)', async () => {
    const mock = mockAt();
    await send(mock, 'POST', '/__petkit/rules', {
      operation: 'getPet',
      path: '/v1/pets/%c3%bc*',
      respond: { status: 404 },
    });
    for (const path of ['/v1/pets/%C3%BC1', '/v1/pets/%c3%bc1', '/v1/pets/%C3%bc1', '/v1/pets/ü1']) {
      const forced = await checkedRequest(mock, path, withKey('demo-free'));
      expect(forced.status, path).toBe(404);
      expect((forced.json as { message: string }).message).toContain('(Forced by rule r1.)');
    }
  });

  it('finds the requests a network fault answered with ?status=0, as the journal shows them', async () => {
    const mock = mockAt();
    await send(mock, 'POST', '/__petkit/rules', {
      operation: 'listPets',
      times: 1,
      respond: { fault: 'reset' },
    });
    await mock.request('/v1/pets', withKey('demo-free'));
    await checkedRequest(mock, '/v1/pets', withKey('demo-free'));
    const faults = await send(mock, 'GET', '/__petkit/requests?status=0');
    expect(faults.status).toBe(200);
    const { entries } = faults.json as { entries: { path: string; status: number; fault: string }[] };
    expect(entries.map(({ path, status, fault }) => ({ path, status, fault }))).toEqual([
      { path: '/v1/pets', status: 0, fault: 'reset' },
    ]);
  });

  it('switches a rule off and on (PATCH), and says which rules there are for an unknown id (404)', async () => {
    const mock = mockAt();
    await send(mock, 'POST', '/__petkit/rules', { operation: 'getPet', respond: { status: 404 } });
    await send(mock, 'POST', '/__petkit/rules', { operation: 'listPets', respond: { fault: 'reset' } });
    const off = await send(mock, 'PATCH', '/__petkit/rules/r1', { enabled: false });
    expect([off.status, (off.json as { enabled: boolean }).enabled]).toEqual([200, false]);
    expect((await checkedRequest(mock, '/v1/pets/1', withKey('demo-free'))).status).toBe(200);
    await send(mock, 'PATCH', '/__petkit/rules/r1', { enabled: true });
    expect((await checkedRequest(mock, '/v1/pets/1', withKey('demo-free'))).status).toBe(404);
    const missing = await send(mock, 'PATCH', '/__petkit/rules/r9', { enabled: false });
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({
      code: 'rule_not_found',
      message: 'No rule r9; armed: r1, r2.',
      status: 404,
    });
    const bad = await send(mock, 'PATCH', '/__petkit/rules/r1', { enabled: 'no' });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({
      code: 'validation_failed',
      message: 'Invalid switch: /enabled must be boolean; got "no".',
      details: [{ path: '/enabled', message: 'must be boolean; got "no"' }],
    });
  });

  it('disarms one rule or all of them (204); a rule disarmed is not found', async () => {
    const mock = mockAt();
    await mock.rules.arm({ respond: { delayMs: 1 } });
    await mock.rules.arm({ respond: { delayMs: 2 } });
    const one = await send(mock, 'DELETE', '/__petkit/rules/r1');
    expect([one.status, one.text]).toEqual([204, '']);
    const again = await send(mock, 'DELETE', '/__petkit/rules/r1');
    expect(again.json).toEqual({ code: 'rule_not_found', message: 'No rule r1; armed: r2.', status: 404 });
    expect((await send(mock, 'DELETE', '/__petkit/rules')).status).toBe(204);
    expect((await send(mock, 'GET', '/__petkit/rules')).json).toEqual({ rules: [] });
    expect((await send(mock, 'DELETE', '/__petkit/rules/r2')).json).toMatchObject({
      message: 'No rule r2; none is armed.',
    });
  });

  it('answers 405 with Allow for another method, 404 off its routes, and a preflight', async () => {
    const mock = mockAt();
    const put = await send(mock, 'PUT', '/__petkit/rules');
    expect([put.status, put.headers.get('allow')]).toEqual([405, 'GET, HEAD, POST, DELETE, OPTIONS']);
    const get = await send(mock, 'GET', '/__petkit/rules/r1');
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'PATCH, DELETE, OPTIONS']);
    for (const path of ['/__petkit/rules/r1/on', '/__petkit/rules/', '/__petkit/rule'])
      expect((await send(mock, 'GET', path)).status, path).toBe(404);
    const preflight = await checkedRequest(mock, '/__petkit/rules/r1', {
      method: 'OPTIONS',
      headers: { 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'content-type' },
    });
    expect([preflight.status, preflight.headers.get('access-control-allow-methods')]).toEqual([
      204,
      'PATCH, DELETE, OPTIONS',
    ]);
  });

  it('never shows a key of the keys file: armed, listed or refused, it is masked as the journal masks it', async () => {
    const mock = mockAt();
    const texts: string[] = [];
    const armed = await send(mock, 'POST', '/__petkit/rules', {
      key: PRIVATE_KEY,
      respond: { status: 401 },
      operation: 'getPet',
    });
    texts.push(armed.text);
    expect((armed.json as { key: string }).key).toBe('sk_live…');
    texts.push((await send(mock, 'GET', '/__petkit/rules')).text);
    texts.push((await send(mock, 'PATCH', '/__petkit/rules/r1', { enabled: false })).text);
    const refused = await send(mock, 'POST', '/__petkit/rules', {
      key: `${PRIVATE_KEY}x`,
      respond: { fault: 'hang' },
    });
    expect((refused.json as { message: string }).message).toBe(
      'Invalid rule: /key sk_live… names no key of the keys file.',
    );
    texts.push(refused.text);
    texts.push((await send(mock, 'GET', '/__petkit/limits')).text);
    for (const text of texts) expect(text).not.toContain('4f9a8b7c');
  });

  it('is what mock.rules does in process, and a reset disarms every rule and numbers from r1 again', async () => {
    const mock = mockAt();
    expect(await mock.rules.arm({ operation: 'createPet', respond: { status: 507 } })).toMatchObject({
      id: 'r1',
    });
    const refused = mock.rules.arm({ operation: 'createPet', respond: { status: 404 } });
    await expect(refused).rejects.toBeInstanceOf(ControlError);
    await expect(refused).rejects.toMatchObject({
      code: 'validation_failed',
      message:
        'Invalid rule: /respond/status 404 is not a documented error status of createPet (documented: 400, 401, 413, 415, 429, 500, 503, 507).',
    });
    await expect(mock.rules.enable('r7', true)).rejects.toMatchObject({ code: 'rule_not_found' });
    await mock.reset();
    expect(await mock.rules.list()).toEqual([]);
    expect((await send(mock, 'POST', '/__petkit/rules', { respond: { delayMs: 5 } })).json).toMatchObject({
      id: 'r1',
    });
  });
});

// Pins the mock to each spelling openapi.yaml decides (x-petkit-decision): integer parameters,
// repeated and unknown parameters, enum comparison, the Bearer grammar, JSON numbers for integers,
// media type parameters. The contract suite derives its cases from the same decisions.
import { describe, expect, it } from 'vitest';
import { createMock } from './mock.js';
import { checkedRequest, withKey } from './test-helpers.js';

const NOW = Date.UTC(2030, 0, 1, 12, 0, 30);
const KEY = 'demo-free';
const fresh = () => createMock({ clock: () => NOW });

const listIds = (json: unknown) => (json as { id: number }[]).map((p) => p.id);

describe('integer parameters: percent-decoded, then a JSON integer', () => {
  it('reads limit=%32%30 as 20', async () => {
    const mock = fresh();
    const plain = await checkedRequest(mock, '/v1/pets?limit=20', withKey(KEY));
    const encoded = await checkedRequest(mock, '/v1/pets?limit=%32%30', withKey(KEY));
    expect(encoded.status).toBe(200);
    expect(listIds(encoded.json)).toEqual(listIds(plain.json));
    expect(listIds(plain.json)).toHaveLength(20);
  });

  it.each(['20.0', '%2B5', '+5', '05', '2e1', '1e1', '%205', ''])(
    'refuses limit=%s with 400',
    async (raw) => {
      const res = await checkedRequest(fresh(), `/v1/pets?limit=${raw}`, withKey(KEY));
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ code: 'validation_failed' });
    },
  );

  it('reads /pets/%31 as pet 1', async () => {
    const res = await checkedRequest(fresh(), '/v1/pets/%31', withKey(KEY));
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: 1 });
  });

  it.each(['+1', '01', '1.0', '1e0', '%2B1'])('refuses petId %s with 400', async (raw) => {
    const res = await checkedRequest(fresh(), `/v1/pets/${raw}`, withKey(KEY));
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: 'validation_failed' });
  });
});

describe('repeated and unknown query parameters', () => {
  it.each(['limit=5&limit=5', 'status=available&status=available'])('refuses %s with 400', async (query) => {
    const res = await checkedRequest(fresh(), `/v1/pets?${query}`, withKey(KEY));
    expect(res.status).toBe(400);
  });

  it('ignores an unknown parameter and a name in another case (LIMIT)', async () => {
    const mock = fresh();
    const plain = await checkedRequest(mock, '/v1/pets', withKey(KEY));
    for (const query of ['foo=1', 'LIMIT=5']) {
      const res = await checkedRequest(mock, `/v1/pets?${query}`, withKey(KEY));
      expect(res.status, query).toBe(200);
      expect(listIds(res.json), query).toEqual(listIds(plain.json));
    }
    const get = await checkedRequest(mock, '/v1/pets/1?limit=abc', withKey(KEY));
    expect(get.status).toBe(200);
  });
});

describe('enum parameters are compared exactly', () => {
  it.each(['Available', 'AVAILABLE', 'available+', 'available%20', '%20available'])(
    'refuses status=%s with 400',
    async (raw) => {
      const res = await checkedRequest(fresh(), `/v1/pets?status=${raw}`, withKey(KEY));
      expect(res.status).toBe(400);
    },
  );

  it('reads a percent-encoded value as the value (status=%61vailable)', async () => {
    const mock = fresh();
    const plain = await checkedRequest(mock, '/v1/pets?status=available', withKey(KEY));
    const encoded = await checkedRequest(mock, '/v1/pets?status=%61vailable', withKey(KEY));
    expect(encoded.status).toBe(200);
    expect(listIds(encoded.json)).toEqual(listIds(plain.json));
  });
});

describe('the Bearer grammar', () => {
  const asked = (authorization: string) =>
    checkedRequest(fresh(), '/v1/pets', { headers: { authorization } }).then((r) => r.status);

  it.each([`bearer ${KEY}`, `BEARER ${KEY}`, `bEaReR ${KEY}`, `Bearer  ${KEY}`, `Bearer   ${KEY}`])(
    'accepts %j (scheme in any case, 1*SP)',
    async (authorization) => {
      expect(await asked(authorization)).toBe(200);
    },
  );

  it.each([
    ['a tab as the separator', `Bearer\t${KEY}`],
    // RFC 9110 §11.4: credentials = auth-scheme [ 1*SP token68 ]; a tab is no SP, nor in a b64token.
    ['a tab after the space', `Bearer \t${KEY}`],
    ['no separator', `Bearer${KEY}`],
    ['a comma after the key', `Bearer ${KEY},`],
    ['a character appended', `Bearer ${KEY}x`],
    ['= appended', `Bearer ${KEY}=`],
    ['the last character removed', `Bearer ${KEY.slice(0, -1)}`],
    ['the first character removed', `Bearer ${KEY.slice(1)}`],
    ['a character changed', `Bearer ${KEY.slice(0, 3)}X${KEY.slice(4)}`],
    ['the key in upper case', `Bearer ${KEY.toUpperCase()}`],
    ['the key twice', `Bearer ${KEY}${KEY}`],
    ['an inner space', `Bearer ${KEY.slice(0, 4)} ${KEY.slice(4)}`],
  ])('refuses %s with 401', async (_what, authorization) => {
    expect(await asked(authorization)).toBe(401);
  });
});

describe('JSON numbers for integers in a body', () => {
  it.each(['1.0', '1e0', '10E-1', '0.1e1', '1E+0'])(
    'creates with categoryId %s, echoed as 1',
    async (raw) => {
      const res = await checkedRequest(
        fresh(),
        '/v1/pets',
        withKey(KEY, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: `{"name":"Biscuit","categoryId":${raw}}`,
        }),
      );
      expect(res.status).toBe(201);
      expect(res.text).toContain('"categoryId":1');
      expect(res.json).toMatchObject({ categoryId: 1 });
    },
  );

  it('refuses a categoryId that is not whole (1.5) with 400', async () => {
    const res = await checkedRequest(
      fresh(),
      '/v1/pets',
      withKey(KEY, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name":"B","categoryId":1.5}',
      }),
    );
    expect(res.status).toBe(400);
  });

  it('reads a member given twice as its last value', async () => {
    const res = await checkedRequest(
      fresh(),
      '/v1/pets',
      withKey(KEY, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name":"First","name":"Last","categoryId":2}',
      }),
    );
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ name: 'Last' });
  });
});

describe('media type parameters', () => {
  it.each([
    'Application/JSON',
    'application/json; charset=utf-8',
    'application/json;charset=ISO-8859-1',
    'APPLICATION/JSON ; foo="bar"',
  ])('accepts Content-Type %j, reading the body as UTF-8', async (contentType) => {
    const res = await checkedRequest(
      fresh(),
      '/v1/pets',
      withKey(KEY, {
        method: 'POST',
        headers: { 'content-type': contentType },
        body: '{"name":"Zoë","categoryId":2}',
      }),
    );
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ name: 'Zoë' });
  });

  it.each(['text/plain', 'application/jsonx', 'application/json-patch+json'])(
    'refuses %s with 415',
    async (contentType) => {
      const res = await checkedRequest(
        fresh(),
        '/v1/pets',
        withKey(KEY, {
          method: 'POST',
          headers: { 'content-type': contentType },
          body: '{"name":"B","categoryId":2}',
        }),
      );
      expect(res.status).toBe(415);
    },
  );
});

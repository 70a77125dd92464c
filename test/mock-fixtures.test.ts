// fixtures/bodies/: example request bodies for POST /v1/pets, each with the answer
// fixtures/bodies/expected.json says it gets, and docs/mock.md's curl examples that send them.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createMock } from '../mocks/index.js';
import { checkedRequest, withKey } from '../mocks/test-helpers.js';

const DIR = new URL('../fixtures/bodies/', import.meta.url);
const MOCK_DOC = readFileSync(new URL('../docs/mock.md', import.meta.url), 'utf8');

interface Expected {
  status: number;
  code?: string;
  path?: string;
}

const { bodies } = JSON.parse(readFileSync(new URL('expected.json', DIR), 'utf8')) as {
  bodies: Record<string, Expected>;
};

describe('fixtures/bodies', () => {
  it('lists every body file in expected.json, and only those', () => {
    const files = readdirSync(DIR).filter((name) => name !== 'expected.json');
    expect(Object.keys(bodies).sort()).toEqual(files.sort());
    expect(Object.values(bodies).some((e) => e.status === 201)).toBe(true);
  });

  for (const [file, expected] of Object.entries(bodies)) {
    it(`answers ${file} with ${expected.status}${expected.code ? ` ${expected.code}` : ''}`, async () => {
      const body = readFileSync(new URL(file, DIR));
      const res = await checkedRequest(
        createMock(),
        '/v1/pets',
        withKey('demo-free', { method: 'POST', headers: { 'content-type': 'application/json' }, body }),
      );
      expect(res.status).toBe(expected.status);
      if (expected.status === 201) {
        expect(res.json).toMatchObject({ id: 51, ...JSON.parse(body.toString('utf8')) });
        expect(res.headers.get('location')).toBe('/v1/pets/51');
      } else {
        expect(res.json).toMatchObject({ code: expected.code, status: expected.status });
        if (expected.path !== undefined) {
          const details = (res.json as { details?: { path: string }[] }).details ?? [];
          expect(details.map((d) => d.path)).toContain(expected.path);
        }
      }
    });
  }

  it('holds every body docs/mock.md sends with curl (from the installed package)', () => {
    const sent = [
      ...MOCK_DOC.matchAll(/--data-binary @node_modules\/petkit\/fixtures\/bodies\/([\w.-]+)/g),
    ].map((m) => m[1] ?? '');
    expect(sent.length).toBeGreaterThanOrEqual(2);
    for (const file of sent) expect(Object.keys(bodies)).toContain(file);
  });
});

// Bodies within the 16 KiB limit but nested thousands deep or thousands wide, in each field of a
// createPet and at the top level: each gets the 400 its operation documents, with the rate-limit
// headers and a message that quotes the value in a few dozen characters. (A body nested 8,000 deep
// got a 500 without those headers: quoting it for the message overflowed the stack.)
import { afterAll, describe, expect, it } from 'vitest';
import { createMock } from '../../mocks/mock.js';
import { type RunningServer, startServer } from '../../mocks/node-server.js';
import { checkedRequest, conformanceProblems } from '../../mocks/test-helpers.js';
import { MAX_BODY_BYTES } from '../../openapi/index.js';

const NOW = Date.UTC(2030, 0, 1, 12, 0, 30);
const deepArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const wideObject = (width: number) =>
  `{${Array.from({ length: width }, (_, i) => `"${i.toString(36)}":0`).join(',')}}`;

/** Each field of a NewPet, and the whole body, holding `value`. */
const placed = (value: string): Record<string, string> => ({
  '': value,
  '/name': `{"name":${value},"categoryId":1}`,
  '/categoryId': `{"name":"Rex","categoryId":${value}}`,
  '/status': `{"name":"Rex","categoryId":1,"status":${value}}`,
  '/tag': `{"name":"Rex","categoryId":1,"tag":${value}}`,
});

const CASES: [string, string][] = [
  ['an array nested 8,000 deep', deepArray(8_000)],
  ['an object nested 2,600 deep', deepObject(2_600)],
  ['arrays and objects nested 1,900 deep', `${'[{"a":'.repeat(1_900)}0${'}]'.repeat(1_900)}`],
  ['an array of 7,900 elements', `[${Array(7_900).fill('0').join(',')}]`],
  ['an object of 2,000 members', wideObject(2_000)],
];

/** [what, where, the body]: each case in each place. */
const bodies = CASES.flatMap(([what, value]) =>
  Object.entries(placed(value)).map(([at, body]): [string, string, string] => [what, at, body]),
);

interface ErrorBody {
  code: string;
  message: string;
  details?: { path: string; message: string }[];
}

/** The 400's message and each detail's: a quoted value in a few dozen characters, whatever it was. */
function expectBounded(error: ErrorBody, at: string): void {
  expect(error.code).toBe('validation_failed');
  expect(error.details?.some((detail) => detail.path === at || detail.path.startsWith(`${at}/`))).toBe(true);
  for (const detail of error.details ?? []) expect(detail.message.length).toBeLessThanOrEqual(160);
  expect(error.message.length - (error.details?.[0]?.path.length ?? 0)).toBeLessThanOrEqual(200);
}

describe('createPet with a body nested thousands deep or wide (under 16 KiB)', () => {
  it.each(bodies)(
    'answers %s at "%s" with 400, its rate-limit headers and a short message',
    async (_, at, body) => {
      expect(new TextEncoder().encode(body).byteLength).toBeLessThanOrEqual(MAX_BODY_BYTES);
      const mock = createMock({ clock: () => NOW });
      const res = await checkedRequest(mock, '/v1/pets', {
        method: 'POST',
        headers: { authorization: 'Bearer demo-pro', 'content-type': 'application/json' },
        body,
      });
      expect(res.status).toBe(400);
      expect(res.headers.get('x-ratelimit-limit')).toBe('300');
      expect(res.headers.get('x-ratelimit-remaining')).toBe('299');
      expectBounded(res.json as ErrorBody, at);
    },
  );

  describe('over a socket', () => {
    let server: RunningServer | undefined;
    afterAll(() => server?.close());
    it('answers an array nested 8,000 deep as the name with 400 and its rate-limit headers', async () => {
      server = await startServer({ port: 0, host: '127.0.0.1', logger: { info() {}, error() {} } });
      const url = `${server.origin}/v1/pets`;
      const res = await fetch(url, {
        method: 'POST',
        headers: { authorization: 'Bearer demo-pro', 'content-type': 'application/json' },
        body: `{"name":${deepArray(8_000)},"categoryId":1}`,
      });
      const text = await res.text();
      expect(res.status).toBe(400);
      expect(conformanceProblems('POST', url, res.status, res.headers, text)).toEqual([]);
      expect(res.headers.get('x-ratelimit-remaining')).toBe('299');
      expectBounded(JSON.parse(text) as ErrorBody, '/name');
    });
  });
});

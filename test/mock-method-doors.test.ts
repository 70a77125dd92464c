// A method no route has, through the two doors: over a socket, where Node's parser refuses a method it
// does not know (`FOO`, `patch`) before the core, and in process (`mock.request`), where the core
// answers it. Both say the same thing: the status, the code, the message and the Allow. (fetch, and so
// mock.request, writes `get`, `post`, `delete`, `put`, `head` and `options` in capitals before sending:
// those reach neither door in lower case from it.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock } from '../mocks/mock.js';
import { type RunningServer, startServer } from '../mocks/node-server.js';
import { rawRequest } from './hostile/raw-client.js';

let server: RunningServer;
let off: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, host: '127.0.0.1' });
  off = await startServer({ port: 0, host: '127.0.0.1', control: false });
});
afterAll(async () => {
  await server?.close();
  await off?.close();
});

interface Said {
  readonly status: number;
  readonly code: unknown;
  readonly message: unknown;
  readonly allow: string | null;
}

async function overSocket(origin: string, method: string, target: string): Promise<Said> {
  const answer = await rawRequest(origin, `${method} ${target} HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`);
  const body = JSON.parse(answer.body) as { code: unknown; message: unknown };
  expect(answer.headers.connection).toBe('close');
  return {
    status: answer.status,
    code: body.code,
    message: body.message,
    allow: answer.headers.allow ?? null,
  };
}

async function inProcess(method: string, path: string): Promise<Said> {
  const mock = createMock();
  const response = await mock.request(path, { method });
  const body = (await response.json()) as { code: unknown; message: unknown };
  return {
    status: response.status,
    code: body.code,
    message: body.message,
    allow: response.headers.get('allow'),
  };
}

describe('a method no route has', () => {
  const long = 'A'.repeat(70);
  const cases = [
    ['FOO', '/v1/pets'],
    ['FOO', '/v1/pets/1'],
    ['patch', '/v1/pets/1'],
    ['patch', '/v1/pets?limit=1'],
    ['FOO', '/nope'],
    ['FOO', '/v1/nope'],
    [long, '/v1/pets'],
    ['FOO', '/__petkit/health'],
    ['purge', '/__petkit/rules/r1'],
    ['FOO', '/__petkit/nope'],
    ['FOO', `/v1/${'p'.repeat(3_000)}`],
  ].map(([method = '', path = '']) => ({
    method,
    path,
    shown: path.length > 40 ? `${path.slice(0, 40)}…` : path,
  }));
  it.each(cases)('$method $shown: the server says what mock.request says', async ({ method, path }) => {
    const socket = await overSocket(server.origin, method, path);
    expect(socket).toEqual(await inProcess(method, path));
  });

  it('names the route’s own methods in Allow, not POST on /v1/pets/{petId}', async () => {
    const socket = await overSocket(server.origin, 'FOO', '/v1/pets/1');
    expect(socket).toEqual({
      status: 405,
      code: 'method_not_allowed',
      message: 'FOO is not allowed here; use GET, HEAD, OPTIONS.',
      allow: 'GET, HEAD, OPTIONS',
    });
  });

  it('tells a method in lower case that case counts, through either door', async () => {
    const expected = {
      status: 405,
      code: 'method_not_allowed',
      message: 'patch is not allowed here; use GET, HEAD, POST, OPTIONS (a method is case-sensitive).',
      allow: 'GET, HEAD, POST, OPTIONS',
    };
    expect(await overSocket(server.origin, 'patch', '/v1/pets')).toEqual(expected);
    expect(await inProcess('patch', '/v1/pets')).toEqual(expected);
  });

  it('answers an absolute-form target by its path, and a control path of a mock without control 404', async () => {
    expect(await overSocket(server.origin, 'FOO', 'http://127.0.0.1/v1/pets')).toEqual(
      await inProcess('FOO', '/v1/pets'),
    );
    expect(await overSocket(off.origin, 'FOO', '/__petkit/health')).toEqual({
      status: 404,
      code: 'route_not_found',
      message: 'The control API is off (the mock was started with --no-control).',
      allow: null,
    });
  });
});

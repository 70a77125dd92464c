// The MSW adapter (`petkit/msw`): the same core as the server, as request handlers for setupServer
// (msw/node) and setupWorker (msw/browser). Browser-safe: imports nothing from Node.
import { http, type RequestHandler } from 'msw';
import { loadSpec } from '../openapi/index.js';
import { CONTROL_PREFIX } from './control.js';
import { createMock, type Mock } from './mock.js';
import type { MockOptions } from './options.js';

export {
  type OperationAnswer,
  OverrideError,
  type OverrideInfo,
  type OverrideOptions,
  type OverrideResolver,
  override,
} from './msw-override.js';

/**
 * Where the handlers answer. `baseUrl` is the API's base URL as your app calls it; the default
 * `*\/v1` matches `/v1` on any origin. The control API answers beside it: `…/__petkit/*` in place of
 * the last path segment.
 */
export type HandlersOptions = (MockOptions | { mock: Mock }) & { baseUrl?: string };

export const DEFAULT_BASE_URL = '*/v1';

export function createHandlers(options: HandlersOptions = {}): RequestHandler[] {
  const { baseUrl, ...rest } = options;
  let mock = 'mock' in rest ? rest.mock : undefined;
  // Created on the first request, so importing `handlers` costs nothing until it is used.
  const mockOf = () => {
    mock ??= createMock(rest as MockOptions);
    return mock;
  };
  return handlersFor(mockOf, baseUrl);
}

function pathOf(pattern: string): string {
  if (pattern.startsWith('*')) return pattern.slice(1);
  try {
    return new URL(pattern).pathname;
  } catch {
    return pattern;
  }
}

function handlersFor(mockOf: () => Mock, baseUrl = DEFAULT_BASE_URL): RequestHandler[] {
  const base = baseUrl.replace(/\/+$/, '');
  const control = `${base.slice(0, base.lastIndexOf('/'))}${CONTROL_PREFIX.slice(0, -1)}`;
  const basePath = pathOf(base);
  const controlPath = pathOf(control);
  const apiPath = loadSpec().basePath;

  /** Hands the core a request whose path starts with the spec's base path. */
  const rebase = (request: Request, from: string, to: string): Request => {
    if (from === to) return request;
    const url = new URL(request.url);
    url.pathname = to + url.pathname.slice(from.length);
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    return new Request(url, {
      method: request.method,
      headers: request.headers,
      ...(hasBody ? { body: request.body, duplex: 'half' } : {}),
    } as RequestInit);
  };

  return [
    http.all(`${base}/*`, ({ request }) => mockOf().handle(rebase(request, basePath, apiPath))),
    http.all(`${control}/*`, ({ request }) =>
      mockOf().handle(rebase(request, controlPath, CONTROL_PREFIX.slice(0, -1))),
    ),
  ];
}

/**
 * Ready handlers with the default options. Each spread of them (`setupWorker(...handlers)`,
 * `setupServer(...handlers)`) is a new set over a mock of its own, created on its first request:
 * this module keeps no mock, and two servers in one process share nothing. (Read by index rather
 * than spread, they are one such set.) Reset a mock with `POST /__petkit/reset`, or call
 * createHandlers() for handlers over a mock you hold.
 */
export const handlers: RequestHandler[] = freshOnEachSpread(() => createHandlers());

function freshOnEachSpread(make: () => RequestHandler[]): RequestHandler[] {
  return Object.defineProperty(make(), Symbol.iterator, { value: () => make()[Symbol.iterator]() });
}

// Where petkit/msw's handlers answer: a `baseUrl` as the app calls the API, read once into an origin
// pattern and a literal path, whatever its shape: at its origin's root (`https://api.example.test`,
// with or without a trailing slash), under a path (`https://api.example.test/api/v1/`), on any origin
// (`*/v1`, the default), or relative to the page (`/api/v1`, in a browser). The control API answers
// beside the API: in place of the path's last segment, or at `/__petkit/` for an API at the root.
// Browser-safe, as msw.ts is: imports nothing from Node, nor msw.
import { CONTROL_PREFIX } from './control.js';

export interface BaseUrl {
  /** The origin as given: `https://api.example.test`, `*`, `http://localhost:*`. */
  readonly origin: string;
  /**
   * What MSW matches the origin with: the origin, or `*` when it has a wildcard, which `onOrigin`
   * then decides. MSW read `http://127.0.0.1:*` (a `*` port after a digit) as a parameter with no
   * name, and threw on every request, the app's own included: a 500 with path-to-regexp's stack.
   */
  readonly pattern: string;
  /** Whether a request is on this origin, its `*` spanning no `/` but a leading one's `scheme://`. */
  onOrigin(request: Request): boolean;
  /** The base path, literal, without a trailing slash; `''` for an API at its origin's root. */
  readonly path: string;
  /** The control API's path beside it: `/__petkit`, `/api/__petkit`. */
  readonly controlPath: string;
}

/**
 * The longest base URL taken: far beyond any API's, and short enough for MSW's path pattern (one of
 * 100,000 characters was taken here and failed inside MSW's RegExp on the app's first request, every
 * handler with it; messages quote it whole).
 */
export const MAX_BASE_URL_LENGTH = 2_048;

/**
 * The base URL read into its parts. A relative one is resolved against the page, as MSW resolves a
 * relative path; where there is no page (Node), it could match no request, and is refused.
 */
export function parseBaseUrl(
  baseUrl: string,
  refuse: (fault: string) => Error = createHandlersRefusal,
): BaseUrl {
  if (typeof baseUrl !== 'string') {
    throw refuse(`baseUrl is a string, e.g. 'https://api.example.test/v1'; got ${typeof baseUrl}.`);
  }
  if (baseUrl.length > MAX_BASE_URL_LENGTH) {
    throw refuse(
      `baseUrl is ${baseUrl.length.toLocaleString('en-US')} characters long; a base URL may have at most ${MAX_BASE_URL_LENGTH.toLocaleString('en-US')}: give the API's base URL as the app calls it ('https://api.example.test/v1').`,
    );
  }
  const otherScheme = schemeFault(baseUrl);
  if (otherScheme !== undefined) throw refuse(otherScheme);
  const absolute =
    baseUrl.startsWith('*') || /^[a-z][a-z0-9+.-]*:\/\//i.test(baseUrl) ? baseUrl : fromPage(baseUrl, refuse);
  const scheme = absolute.indexOf('://');
  const authorityEnd = scheme === -1 ? 1 : absolute.indexOf('/', scheme + 3);
  const cut = authorityEnd === -1 ? absolute.length : authorityEnd;
  const given = absolute.slice(0, cut);
  const wild = given.includes('*');
  const origin = wild ? given : originAsSent(given);
  const written = absolute.slice(cut).replace(/[?#].*$/, '');
  if (written !== '' && !written.startsWith('/')) {
    throw refuse(`baseUrl '${baseUrl}': its path must begin with '/', as in '*/v1'.`);
  }
  if (written.includes('*')) {
    throw refuse(
      `baseUrl '${baseUrl}' has a wildcard in its path; only its origin may have one ('*/v1', 'http://localhost:*/v1'): the path is the API's base path, as the app calls it.`,
    );
  }
  const path = pathAsSent(written);
  const parent = path.slice(0, Math.max(0, path.lastIndexOf('/')));
  const test = wild ? originPattern(origin) : undefined;
  return {
    origin,
    pattern: wild ? '*' : origin,
    onOrigin: (request) => test === undefined || test.test(new URL(request.url).origin),
    path,
    controlPath: `${parent}${CONTROL_PREFIX.slice(0, -1)}`,
  };
}

/**
 * A base URL MSW would never match: another scheme than http(s) (`javascript:…`, `ftp://…`), which was
 * read as a path relative to the page, or `localhost:3000/v1` without its scheme, read as a scheme
 * `localhost:`. Undefined for any other.
 */
function schemeFault(baseUrl: string): string | undefined {
  const scheme = /^([a-z][a-z0-9+.-]*):(\/\/)?/i.exec(baseUrl);
  if (scheme === null) return undefined;
  const [, name = '', slashes] = scheme;
  if (/^https?$/i.test(name)) return undefined;
  const shown = baseUrl.length > 60 ? `${baseUrl.slice(0, 60)}…` : baseUrl;
  if (slashes === undefined && /^\d/.test(baseUrl.slice(name.length + 1)))
    return `baseUrl '${shown}' has no scheme: give 'http://${shown}' (or https).`;
  return `baseUrl '${shown}' is a ${name.toLowerCase()}: URL, which no request of the app's matches: give the API's http(s) URL ('https://api.example.test/v1'), or '*/v1' for any origin.`;
}

/**
 * An origin as a request's URL has it, which is what MSW matches: the scheme's default port dropped
 * and the host in lower case (`https://api.example.test:443` matched no request at all). As given
 * when it is no URL's origin.
 */
function originAsSent(origin: string): string {
  try {
    const parsed = new URL(origin).origin;
    return parsed === 'null' ? origin : parsed;
  } catch {
    return origin;
  }
}

/**
 * A base path as a request's URL has it, which is what MSW and `pathUnder` match: percent-encoded
 * (`/café`, `/v 1` matched no request at all, the request's path being `/caf%C3%A9`, `/v%201`),
 * without the trailing `/`.
 */
function pathAsSent(path: string): string {
  if (path === '') return '';
  return new URL(`http://x${path}`).pathname.replace(/\/+$/, '');
}

/**
 * An origin with wildcards as a RegExp over a URL's origin: each `*` any run of characters but `/`
 * (`http://localhost:*`, `https://*.example.test`), and a leading `*` with no `://` after it the
 * scheme and host too (`*`, `*.example.test`), as MSW reads them. Case-insensitive, as MSW matches.
 */
function originPattern(origin: string): RegExp {
  const schemeGiven = origin.includes('://');
  const parts = origin.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  const source = parts.reduce((joined, part, index) =>
    index === 1 && !schemeGiven && parts[0] === ''
      ? `${joined}[a-z][a-z0-9+.-]*://[^/]*${part}`
      : `${joined}[^/]*${part}`,
  );
  return new RegExp(`^${source}$`, 'i');
}

/** createHandlers' refusal of a base URL (override throws its OverrideError). */
function createHandlersRefusal(fault: string): Error {
  return new TypeError(`petkit/msw: ${fault}`);
}

/** A relative base URL, resolved against the page's address (`location.href`), as MSW does. */
function fromPage(baseUrl: string, refuse: (fault: string) => Error): string {
  const page = (globalThis as { location?: { href?: unknown } }).location?.href;
  try {
    if (typeof page === 'string') return new URL(baseUrl, page).href;
  } catch {
    // A page with no hierarchical address (about:blank): refused below, as in Node.
  }
  const slash = baseUrl.startsWith('/') ? '' : '/';
  throw refuse(
    `baseUrl '${baseUrl}' is relative, and there is no page here to resolve it against, so it would match no request: give its origin ('https://api.example.test${slash}${baseUrl}'), or '*${slash}${baseUrl}' for any origin.`,
  );
}

/**
 * A base path as MSW's pattern matches it literally: the characters its path syntax reads
 * (path-to-regexp's `(`, `)`, `:`, `+`, `!`) escaped. `/(v1)` was read as a group and matched no
 * request. (`*` is refused in a base path; `{`, `}` and `?` never reach here, encoded or cut.)
 */
export function literal(path: string): string {
  return path.replace(/[()+:!]/g, '\\$&');
}

/**
 * The rest of a request's path after the base path, from its `/`; undefined when the request's path
 * does not start with the base path (the origin's `*` took part of the path: `*\/v1` does not answer
 * `/api/v1/pets`).
 */
export function pathUnder(base: string, request: Request): string | undefined {
  const { pathname } = new URL(request.url);
  if (base === '') return pathname;
  return pathname.startsWith(`${base}/`) ? pathname.slice(base.length) : undefined;
}

// What stands before the control API on a socket (the node:http server): any web page the user
// visits could otherwise reset the mock or read its journal. Like a dev server, it answers only a
// Host that names the address it listens on (DNS rebinding sends another name), refuses a cross-site
// Origin unless the user allowed it, counts every control request against a limit of its own, and
// can be turned off. In-process calls (mock.request, MSW) have no socket and pass no guard.
import { callingPage, hostNaming, sameSite } from '../openapi/control-site.js';
import type { MockCall } from './call.js';
import { MockOptionsError } from './options.js';
import { errorReply, type Reply } from './responses.js';

export interface ControlOptions {
  /**
   * Origins (`scheme://host[:port]`) whose pages may call the control API, besides this machine's
   * own (`localhost`, `127.0.0.1`, `[::1]`); `*` allows any. Their hosts are accepted as `Host` too
   * (a tunnel or a proxy in front of the mock). Default none.
   */
  origins?: readonly string[];
  /** Control requests answered per minute, all clients together. Default CONTROL_PER_MINUTE. */
  perMinute?: number;
}

/** Control requests answered per minute (then 429), all clients together. */
export const CONTROL_PER_MINUTE = 1_200;

export interface ControlGuard {
  /**
   * A refusal for a control call that may not pass, or undefined. Given control calls only (the
   * server decides that once, with callKind): the page and the event stream are guarded as the rest.
   * `authority`: an absolute-form target's (`GET http://HOST/__petkit/reset`), which a server takes
   * in place of Host (RFC 9112 §3.2.2): it must name the mock as Host must, and so must Host.
   */
  check(call: MockCall, authority?: string): Reply | undefined;
}

/** Where the server listens: the host it was given and the port it got. */
export interface Listening {
  readonly host: string;
  readonly port: number;
}

function originsOf(given: readonly string[]): { any: boolean; origins: Set<string>; hosts: Set<string> } {
  const origins = new Set<string>();
  const hosts = new Set<string>();
  let any = false;
  for (const origin of given) {
    if (origin === '*') {
      any = true;
      continue;
    }
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      throw new MockOptionsError(
        `Control origin "${origin}" is not an origin such as http://localhost:5173.`,
      );
    }
    if (url.origin === 'null')
      throw new MockOptionsError(
        `Control origin "${origin.slice(0, 80)}" is not a web origin: give scheme://host[:port] of http or https, such as http://localhost:5173.`,
      );
    if (url.origin !== origin.replace(/\/$/, ''))
      throw new MockOptionsError(
        `Control origin "${origin}" must be scheme://host[:port] only (got a path or credentials); e.g. ${url.origin}.`,
      );
    origins.add(url.origin);
    hosts.add(url.hostname.toLowerCase());
  }
  return { any, origins, hosts };
}

/**
 * How a refused origin could be allowed. `Origin: null` (a page opened from a file, a sandboxed frame) or one
 * that is no web origin was told to start the mock with `--control-origin "null"`, which the mock
 * then refused to start with ("is not a web origin").
 */
function allowing(origin: string): string {
  const quoted = JSON.stringify(origin.slice(0, 100));
  if (isWebOrigin(origin)) return `start the mock with --control-origin ${quoted} to allow it.`;
  if (origin === 'null')
    return 'the page has no origin of its own (a page opened from a file, a sandboxed frame), which --control-origin cannot name: serve it over http(s) and allow that origin, or start the mock with --control-origin "*" to allow every page.';
  return 'that is no web origin (scheme://host[:port] of http or https), which --control-origin cannot name; --control-origin "*" allows every page.';
}

/** An origin --control-origin takes: http(s), scheme://host[:port] and nothing more. */
function isWebOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === origin;
  } catch {
    return false;
  }
}

/** Control options checked and settled, before the server listens. */
export interface NormalizedControl {
  readonly perMinute: number;
  readonly allowed: ReturnType<typeof originsOf>;
}

/** Checks the options once, where they enter: a bad origin or limit throws MockOptionsError. */
export function normalizeControl(options: ControlOptions | false): NormalizedControl | false {
  if (options === false) return false;
  const perMinute = options.perMinute ?? CONTROL_PER_MINUTE;
  if (!Number.isSafeInteger(perMinute) || perMinute < 1)
    throw new MockOptionsError(`Option control.perMinute must be a positive integer, got ${perMinute}.`);
  return { perMinute, allowed: originsOf(options.origins ?? []) };
}

/** What every control path answers while the control API is off. */
export const controlOffReply = (): Reply =>
  errorReply('route_not_found', 'The control API is off (the mock was started with --no-control).');

export function createControlGuard(
  options: NormalizedControl | false,
  listening: Listening,
  clock: () => number,
): ControlGuard {
  if (options === false) return { check: controlOffReply };
  const { perMinute, allowed } = options;
  const names = new Set([listening.host.toLowerCase(), 'localhost']);
  let windowStart = Number.NEGATIVE_INFINITY;
  let count = 0;

  /** Host names this address: an IP, localhost, the name it was bound by, or an allowed origin's host. */
  function hostRefusal(host: string | null, what = 'Host'): Reply | undefined {
    if (hostNaming(host, listening.port, (name) => names.has(name) || allowed.hosts.has(name)) !== undefined)
      return undefined;
    const shown = host === null ? 'no Host' : `${what} ${JSON.stringify(host.slice(0, 100))}`;
    return errorReply(
      'host_not_allowed',
      `The control API answers only requests addressed to this mock (e.g. Host: 127.0.0.1:${listening.port}); got ${shown}. A proxy or tunnel in front of the mock: start it with --control-origin http(s)://THAT-HOST.`,
    );
  }

  /** Whether a page of `origin` (an Origin, or a Referer's origin) may call: this machine's own, the mock's own host, or one the user allowed. */
  function originAllowed(origin: string, host: string | null): boolean {
    if (allowed.any || allowed.origins.has(origin)) return true;
    return sameSite(origin, host === null ? undefined : hostNaming(host, listening.port, () => true));
  }

  const originRefused = (origin: string, said: string): Reply =>
    errorReply(
      'origin_not_allowed',
      `The control API refuses calls from web pages of another site (${said} ${JSON.stringify(origin.slice(0, 100))}); ${allowing(origin)}`,
    );

  /**
   * No Origin (curl, scripts), this machine's own, or one the user allowed. A browser sends no Origin
   * on a GET of an <img>, <script> or <link> (and an older one none on some POSTs): then its
   * Sec-Fetch-Site says whether a page of another site sent it, and, where a browser sends no
   * Sec-Fetch-Site, its Referer where the page is. A link followed from another site to the page (a
   * top-level navigation) passes: it shows the page to the user, and gives the other site nothing.
   */
  function originRefusal(call: MockCall, host: string | null): Reply | undefined {
    const page = callingPage((name) => call.header(name), call.method);
    if (page === undefined) return undefined;
    if (page.kind === 'origin')
      return originAllowed(page.origin, host) ? undefined : originRefused(page.origin, 'Origin');
    if (page.kind === 'referer')
      return originAllowed(page.origin, host) ? undefined : originRefused(page.origin, 'Referer from');
    if (allowed.any || (page.origin !== undefined && allowed.origins.has(page.origin))) return undefined;
    if (page.origin !== undefined)
      return originRefused(page.origin, 'Sec-Fetch-Site cross-site, Referer from');
    return errorReply(
      'origin_not_allowed',
      "The control API refuses calls from web pages of another site (Sec-Fetch-Site: cross-site, no Origin or Referer); start the mock with --control-origin for that page's origin to allow it.",
    );
  }

  function limitRefusal(): Reply | undefined {
    const now = clock();
    if (now - windowStart >= 60_000) {
      windowStart = now;
      count = 0;
    }
    count += 1;
    if (count <= perMinute) return undefined;
    const retryAfter = Math.max(1, Math.ceil((windowStart + 60_000 - now) / 1000));
    return errorReply(
      'rate_limited',
      `The control API answers at most ${perMinute} requests a minute; retry in ${retryAfter} s.`,
      undefined,
      { 'retry-after': String(retryAfter) },
    );
  }

  return {
    check(call, authority) {
      const host = call.header('host');
      // The limit counts only what passes the rest: a refused request (any web page can send one)
      // spends none of it, so no page can keep the control API at 429 for the user's own calls.
      return (
        (authority === undefined ? undefined : hostRefusal(authority, "the request target's authority")) ??
        hostRefusal(host) ??
        originRefusal(call, host) ??
        limitRefusal()
      );
    },
  };
}

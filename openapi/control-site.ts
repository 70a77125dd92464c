// Who may call a control API over a socket: petkit mock's /__petkit/* (mocks/control-guard.ts) and
// petkit proxy's journal (proxy/control-guard.ts) keep one rule, here because both stand on openapi/.
// A control API answers only a Host that names the server (an IP address, `localhost` or a name it
// was given, with the port the request came in on: DNS rebinding sends another name), and no page of
// another site: an Origin other than this machine's or the server's own host; without Origin (a
// browser sends none on an <img> or <script>), a Sec-Fetch-Site: cross-site that is no navigation,
// or, where a browser sends no Sec-Fetch-Site, a Referer of another site. curl and scripts send no
// Origin and pass. What each server allows besides (the mock's --control-origin) is its own.

import { httpOriginOf } from './base-url.js';

const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/** An IPv4 address, or a bracketed IPv6 one, as a Host's name has it. */
export const isIp = (hostname: string): boolean => IPV4.test(hostname) || hostname.startsWith('[');

/** A name of this machine's: `localhost`, `*.localhost`, 127.x.x.x, [::1]. */
export const isLoopback = (hostname: string): boolean =>
  hostname === 'localhost' ||
  hostname.endsWith('.localhost') ||
  (IPV4.test(hostname) && hostname.startsWith('127.')) ||
  hostname === '[::1]';

/** `host[:port]` as a Host header or a URL's host has it, the name lower-cased; no port is 80 (http). */
export function splitHost(value: string): { hostname: string; port: number } | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(value.trim());
  if (match === null) return undefined;
  return { hostname: (match[1] ?? '').toLowerCase(), port: match[2] === undefined ? 80 : Number(match[2]) };
}

/**
 * The Host's name when it names the server listening on `port`: an IP address, a loopback name, or a
 * name `named` accepts (the host it was bound to, the mock's allowed origins' hosts); else undefined.
 */
export function hostNaming(
  host: string | null | undefined,
  port: number,
  named: (hostname: string) => boolean,
): string | undefined {
  const parsed = host === null || host === undefined ? undefined : splitHost(host);
  if (parsed === undefined || parsed.port !== port) return undefined;
  const { hostname } = parsed;
  return isIp(hostname) || isLoopback(hostname) || named(hostname) ? hostname : undefined;
}

/** Whether a page of `origin` is this machine's or the server's own host's (`hostName`, from Host). */
export function sameSite(origin: string, hostName: string | undefined): boolean {
  let hostname: string | undefined;
  try {
    hostname = origin === 'null' ? undefined : new URL(origin).hostname.toLowerCase();
  } catch {
    hostname = undefined;
  }
  return (
    hostname !== undefined &&
    hostName !== undefined &&
    (hostname === hostName || (isLoopback(hostname) && isLoopback(hostName)))
  );
}

/**
 * The page a control call may come from, as its headers say, for the server to judge: none (curl, a
 * script, a page of the same site, a link followed from another site: it shows the user the page and
 * gives the other site nothing); its `Origin` or, with no Origin nor Sec-Fetch-Site, its `Referer`'s
 * origin (each passes when sameSite, or allowed); or, Sec-Fetch-Site: cross-site and no navigation,
 * the Referer's origin if any (passes only when allowed).
 */
export type CallingPage =
  | undefined
  | { readonly kind: 'origin' | 'referer'; readonly origin: string }
  | { readonly kind: 'cross-site'; readonly origin: string | undefined };

/** `header(name)`: the request's field, undefined (or null) when absent. */
export function callingPage(
  header: (name: string) => string | null | undefined,
  method: string | undefined,
): CallingPage {
  const origin = header('origin');
  if (origin !== null && origin !== undefined) return { kind: 'origin', origin };
  const referer = header('referer');
  const from = referer === null || referer === undefined ? undefined : httpOriginOf(referer);
  const fetchField = (name: string) => header(name)?.trim().toLowerCase();
  const site = fetchField('sec-fetch-site');
  if (site !== undefined) {
    if (site !== 'cross-site') return undefined;
    const navigation =
      fetchField('sec-fetch-mode') === 'navigate' &&
      fetchField('sec-fetch-dest') === 'document' &&
      (method === 'GET' || method === 'HEAD');
    return navigation ? undefined : { kind: 'cross-site', origin: from };
  }
  return from === undefined ? undefined : { kind: 'referer', origin: from };
}

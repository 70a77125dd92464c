// What stands before the proxy's control API (/__petkit/*): its journal holds the app's traffic
// (targets, curl lines), so no web page the user visits may read or clear it. The rule is the mock's
// (mocks/control-guard.ts, which the proxy may not import): it answers only a Host that names the
// proxy, an IP address, `localhost` or the host it was bound to, with the port the request came in
// on (DNS rebinding sends another name), and no page of another site (an Origin other than this
// machine's or the proxy's own host; without Origin, a Sec-Fetch-Site: cross-site or a Referer of
// another site). curl and scripts send no Origin and pass.
import type { IncomingMessage } from 'node:http';
import { httpOriginOf } from '../openapi/index.js';
import type { ProxyErrorCode } from './errors.js';

export interface Refusal {
  readonly code: ProxyErrorCode;
  readonly message: string;
}

const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;
const isIp = (hostname: string) => IPV4.test(hostname) || hostname.startsWith('[');
const isLoopback = (hostname: string) =>
  hostname === 'localhost' ||
  hostname.endsWith('.localhost') ||
  (IPV4.test(hostname) && hostname.startsWith('127.')) ||
  hostname === '[::1]';

/** `host[:port]` as a Host header has it, the name lower-cased; no port is 80 (the proxy is http). */
function splitHost(value: string): { hostname: string; port: number } | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(value.trim());
  if (match === null) return undefined;
  return { hostname: (match[1] ?? '').toLowerCase(), port: match[2] === undefined ? 80 : Number(match[2]) };
}

const quoted = (value: string) => JSON.stringify(value.slice(0, 100));

/** Why a control request may not pass, or undefined. `boundHost` is the address the proxy listens on. */
export function controlRefusal(req: IncomingMessage, boundHost: string): Refusal | undefined {
  const host = req.headers.host;
  const port = req.socket.localPort;
  const parsed = host === undefined ? undefined : splitHost(host);
  const named =
    parsed !== undefined &&
    (isIp(parsed.hostname) || isLoopback(parsed.hostname) || parsed.hostname === boundHost.toLowerCase());
  if (!named || parsed.port !== port) {
    return {
      code: 'host_not_allowed',
      message: `The proxy's control API answers only requests addressed to this proxy (e.g. Host: 127.0.0.1:${port}); got ${host === undefined ? 'no Host' : `Host ${quoted(host)}`}.`,
    };
  }
  const origin = req.headers.origin;
  if (origin !== undefined)
    return sameSite(origin, parsed.hostname) ? undefined : refusedFrom(`Origin ${quoted(origin)}`);
  // No Origin: a browser sends none on a GET of an <img>, <script> or <link> (and an older one on some
  // POSTs); its Sec-Fetch-Site says whether a page of another site sent it, or, where it sends none,
  // its Referer where the page is. A link followed from another site (a navigation) reads nothing.
  const header = (name: string) => {
    const value = req.headers[name];
    return typeof value === 'string' ? value.trim().toLowerCase() : undefined;
  };
  const referer = req.headers.referer;
  const from = referer === undefined ? undefined : httpOriginOf(referer);
  const site = header('sec-fetch-site');
  if (site !== undefined) {
    if (site !== 'cross-site') return undefined;
    const navigation =
      header('sec-fetch-mode') === 'navigate' &&
      header('sec-fetch-dest') === 'document' &&
      (req.method === 'GET' || req.method === 'HEAD');
    if (navigation) return undefined;
    return refusedFrom(from === undefined ? 'Sec-Fetch-Site cross-site' : `Referer from ${quoted(from)}`);
  }
  if (from === undefined || sameSite(from, parsed.hostname)) return undefined;
  return refusedFrom(`Referer from ${quoted(from)}`);
}

/** Whether a page of `origin` is this machine's or the proxy's own host's. */
function sameSite(origin: string, hostName: string): boolean {
  let hostname: string | undefined;
  try {
    hostname = origin === 'null' ? undefined : new URL(origin).hostname.toLowerCase();
  } catch {
    hostname = undefined;
  }
  return hostname !== undefined && (hostname === hostName || (isLoopback(hostname) && isLoopback(hostName)));
}

const refusedFrom = (said: string): Refusal => ({
  code: 'origin_not_allowed',
  message: `The proxy's control API refuses calls from web pages of another site (${said}).`,
});

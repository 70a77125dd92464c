// What stands before the proxy's control API (/__petkit/*): its journal holds the app's traffic
// (targets, curl lines), so no web page the user visits may read or clear it. The rule is the mock's,
// kept once in the contract module (openapi/control-site.ts): it answers only a Host that names the
// proxy, an IP address, `localhost` or the host it was bound to, with the port the request came in
// on (DNS rebinding sends another name), and no page of another site (an Origin other than this
// machine's or the proxy's own host; without Origin, a Sec-Fetch-Site: cross-site or a Referer of
// another site). curl and scripts send no Origin and pass. The proxy allows no other site.
import type { IncomingMessage } from 'node:http';
import { callingPage, hostNaming, sameSite } from '../openapi/control-site.js';
import type { ProxyErrorCode } from './errors.js';

export interface Refusal {
  readonly code: ProxyErrorCode;
  readonly message: string;
}

const quoted = (value: string) => JSON.stringify(value.slice(0, 100));

/** Why a control request may not pass, or undefined. `boundHost` is the address the proxy listens on. */
export function controlRefusal(req: IncomingMessage, boundHost: string): Refusal | undefined {
  const host = req.headers.host;
  const port = req.socket.localPort ?? -1;
  const hostName = hostNaming(host, port, (hostname) => hostname === boundHost.toLowerCase());
  if (hostName === undefined) {
    return {
      code: 'host_not_allowed',
      message: `The proxy's control API answers only requests addressed to this proxy (e.g. Host: 127.0.0.1:${req.socket.localPort}); got ${host === undefined ? 'no Host' : `Host ${quoted(host)}`}.`,
    };
  }
  const page = callingPage((name) => {
    const value = req.headers[name];
    return typeof value === 'string' ? value : undefined;
  }, req.method);
  if (page === undefined) return undefined;
  if (page.kind === 'origin')
    return sameSite(page.origin, hostName) ? undefined : refusedFrom(`Origin ${quoted(page.origin)}`);
  if (page.kind === 'referer')
    return sameSite(page.origin, hostName) ? undefined : refusedFrom(`Referer from ${quoted(page.origin)}`);
  return refusedFrom(
    page.origin === undefined ? 'Sec-Fetch-Site cross-site' : `Referer from ${quoted(page.origin)}`,
  );
}

const refusedFrom = (said: string): Refusal => ({
  code: 'origin_not_allowed',
  message: `The proxy's control API refuses calls from web pages of another site (${said}).`,
});

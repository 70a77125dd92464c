// A base URL of the API as a person types it (`petkit contract --base-url`, `petkit proxy --upstream`):
// the URL meant by one written without its scheme, for a refusal to suggest it; and the origin of an
// http(s) URL a browser sent (a Referer), for the control APIs' guards.

/** A base URL without its scheme: the URL it most likely means, and whether it carries a user or password. */
export interface SchemeMissing {
  /** `http://127.0.0.1:4010`: its origin and path, the path's last `/` left out; never a user or password. */
  readonly suggested: string;
  /** It holds `user:password@`, which a message must not quote. */
  readonly credentials: boolean;
}

/** A host a URL without its scheme most likely means over plain HTTP: this machine, or a port given. */
const LOCAL_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\]|0\.0\.0\.0)$/i;

/** A host (a name, an IPv4 or a bracketed IPv6 address), perhaps a port in digits, then a path or nothing. */
const HOST_FIRST = /^(?:[^@/?#\s]*@)?(?:\[[0-9a-f:.]+\]|[a-z0-9._~-]+)(?::(\d+))?(?:[/?#]|$)/i;

/**
 * The URL meant by a base URL written without its scheme, as a message suggests it: `127.0.0.1:4010`
 * (no URL at all) and `localhost:4010/v1` (a URL of the scheme `localhost:`) mean
 * `http://127.0.0.1:4010` and `http://localhost:4010/v1`. `http://` for this machine or a port given
 * (but 443), else `https://`. Undefined when the text has a scheme of its own (`ftp://`), or is no host and path.
 */
export function withoutScheme(text: string): SchemeMissing | undefined {
  const rest = text.replace(/^\/\//, '');
  const first = HOST_FIRST.exec(rest);
  // The port as given: URL drops a default one (`:80`), which still says which scheme was meant.
  const port = first?.[1];
  const scheme = port === '443' || (port === undefined && !LOCAL_HOST.test(hostOf(rest))) ? 'https' : 'http';
  if (first === null || !URL.canParse(`${scheme}://${rest}`)) return undefined;
  const url = new URL(`${scheme}://${rest}`);
  if (url.hostname === '') return undefined;
  const suggested = `${scheme}://${url.host}${url.pathname.replace(/\/+$/, '')}`;
  return { suggested, credentials: url.username !== '' || url.password !== '' };
}

/** The host of a text that begins with one (after any `user@`), as written. */
function hostOf(rest: string): string {
  return /^(?:[^@/?#\s]*@)?(\[[^\]]*\]|[^:/?#]*)/.exec(rest)?.[1] ?? '';
}

/** The origin (`scheme://host[:port]`) of an http(s) URL such as a Referer, or undefined. */
export function httpOriginOf(value: string): string | undefined {
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

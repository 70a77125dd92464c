// Where a request goes at the upstream, decided from the request target as a string, never by
// resolving it as a URL (`new URL('//elsewhere/x', upstream)` is scheme-relative: another host). The
// upstream's scheme, host and port are fixed; only a path is taken from the request, and only a path
// that means the same to every server that reads it: origin-form, visible ASCII, no backslash, no
// empty or dot segment, no encoded slash, backslash or dot segment. Anything else is refused.

export type Placement =
  /** The path and query to request at the upstream's origin, and the target in origin-form. */
  | { readonly path: string; readonly originForm: string }
  /** Why the target is refused, in a sentence for the client. */
  | { readonly refusal: string };

export interface UpstreamBase {
  /** `http://host:port`, as URL.origin writes it. */
  readonly origin: string;
  /** The upstream's path without its trailing slashes: `/v1`, `/api/v1`, or `` for none. */
  readonly prefix: string;
}

const ONLY_PATHS =
  'petkit proxy forwards only to its upstream: the request target must be a path (origin-form, "/v1/pets"), or absolute-form at the upstream\'s own origin';

/** An absolute-form target: scheme, authority, and what follows the authority. */
const ABSOLUTE = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)(.*)$/s;
/** A segment that is `.` or `..`, written plainly or percent-encoded. */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/** The upstream path of a target, or why it is refused. `basePath` is the API's own (`/v1`). */
export function placeTarget(target: string, upstream: UpstreamBase, basePath: string): Placement {
  if (!/^[\x21-\x7e]+$/.test(target)) {
    return { refusal: `${ONLY_PATHS}; it holds a character outside visible ASCII (percent-encode it).` };
  }
  let originForm = target;
  if (!target.startsWith('/')) {
    const absolute = ABSOLUTE.exec(target);
    if (absolute === null) return { refusal: `${ONLY_PATHS}.` };
    const [, scheme = '', authority = '', rest = ''] = absolute;
    if (!sameOrigin(scheme, authority, upstream.origin)) {
      return { refusal: `${ONLY_PATHS}; this one names another server.` };
    }
    originForm = rest.startsWith('/') ? rest : `/${rest}`;
  }
  const problem = pathProblem(originForm);
  if (problem !== undefined) return { refusal: `${ONLY_PATHS}; ${problem}.` };
  const under =
    originForm === basePath || originForm.startsWith(`${basePath}/`) || originForm.startsWith(`${basePath}?`);
  const path = under ? `${upstream.prefix}${originForm.slice(basePath.length)}` : originForm;
  return { path: path.startsWith('/') ? path : `/${path}`, originForm };
}

/** Whether an absolute-form target's scheme and authority are the upstream's origin (no userinfo). */
function sameOrigin(scheme: string, authority: string, origin: string): boolean {
  if (authority.includes('@') || authority.includes('\\') || authority === '') return false;
  const lower = scheme.toLowerCase();
  if (lower !== 'http' && lower !== 'https') return false;
  try {
    return new URL(`${lower}://${authority}/`).origin === origin;
  } catch {
    return false;
  }
}

/** What makes an origin-form target mean different places to different readers, if anything. */
function pathProblem(target: string): string | undefined {
  if (target.includes('\\')) return 'it holds a backslash';
  if (target.includes('#')) return 'it holds a "#"';
  const query = target.indexOf('?');
  const path = query < 0 ? target : target.slice(0, query);
  if (path.includes('//')) return 'its path has an empty segment ("//")';
  if (/%(?:2f|5c)/i.test(path)) return 'its path holds an encoded "/" or "\\"';
  if (path.split('/').some((segment) => DOT_SEGMENT.test(segment))) {
    return 'its path has a "." or ".." segment';
  }
  return undefined;
}

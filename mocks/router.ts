// Matching, apart from answering: a pathname and a method to an operation of openapi.yaml, or to the
// reason there is none. Built once per Spec; matching runs only precompiled patterns.
import type { OperationSpec, PathSpec, Spec } from '../openapi/index.js';

export type RouteMatch =
  | {
      readonly kind: 'operation';
      readonly operation: OperationSpec;
      /** Null when the path's percent-encoding does not decode. */
      readonly params: Record<string, string> | null;
    }
  | { readonly kind: 'preflight'; readonly allow: string }
  | { readonly kind: 'method_not_allowed'; readonly allow: string }
  /** No route: `underBase` says whether the path was at least under the API's base path. */
  | { readonly kind: 'not_found'; readonly underBase: boolean };

export interface Router {
  readonly basePath: string;
  /** Routes a method and a pathname; HEAD is served as GET. */
  match(method: string, pathname: string): RouteMatch;
}

const NOT_FOUND: RouteMatch = { kind: 'not_found', underBase: true };
const OUTSIDE_BASE: RouteMatch = { kind: 'not_found', underBase: false };
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** The methods a path answers, as an Allow header: its operations', HEAD with GET, and OPTIONS. */
function allowOf(path: PathSpec): string {
  const methods = [...path.operations.keys()];
  if (path.operations.has('GET')) methods.push('HEAD');
  methods.push('OPTIONS');
  return methods.sort((a, b) => METHOD_ORDER.indexOf(a) - METHOD_ORDER.indexOf(b)).join(', ');
}

export function createRouter(spec: Spec): Router {
  const allow = new Map<PathSpec, string>(spec.paths.map((path) => [path, allowOf(path)]));
  const basePath = spec.basePath;
  const basePrefix = `${basePath}/`;
  return {
    basePath,
    match(method, pathname) {
      if (pathname !== basePath && !pathname.startsWith(basePrefix)) return OUTSIDE_BASE;
      const found = spec.matchPath(pathname.slice(basePath.length));
      if (found === undefined) return NOT_FOUND;
      const allowed = allow.get(found.path) ?? '';
      if (method === 'OPTIONS') return { kind: 'preflight', allow: allowed };
      const operation = found.path.operations.get(method === 'HEAD' ? 'GET' : method);
      if (operation === undefined) return { kind: 'method_not_allowed', allow: allowed };
      return { kind: 'operation', operation, params: found.params };
    },
  };
}

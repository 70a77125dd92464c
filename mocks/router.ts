// Matching, apart from answering: a pathname and a method to an operation of openapi.yaml, or to the
// reason there is none. Built once per Spec; matching runs only precompiled patterns.
import type { OperationSpec, Spec } from '../openapi/index.js';

export type RouteMatch =
  | {
      readonly kind: 'operation';
      readonly operation: OperationSpec;
      /** Null when the path's percent-encoding does not decode. */
      readonly params: Record<string, string> | null;
    }
  | { readonly kind: 'preflight'; readonly allow: string }
  | { readonly kind: 'method_not_allowed'; readonly allow: string }
  | { readonly kind: 'not_found' };

interface PathRoute {
  readonly operations: ReadonlyMap<string, OperationSpec>;
  readonly allow: string;
  readonly any: OperationSpec;
}

export interface Router {
  readonly basePath: string;
  /** Routes a pathname that starts with basePath (the caller checks); HEAD is served as GET. */
  match(method: string, pathname: string): RouteMatch;
}

const NOT_FOUND: RouteMatch = { kind: 'not_found' };

export function createRouter(spec: Spec): Router {
  const byPath = new Map<string, Map<string, OperationSpec>>();
  for (const operation of spec.operations) {
    let methods = byPath.get(operation.path);
    if (methods === undefined) {
      methods = new Map();
      byPath.set(operation.path, methods);
    }
    methods.set(operation.method, operation);
  }
  const routes: PathRoute[] = [];
  for (const operations of byPath.values()) {
    const methods = [...operations.keys()];
    if (operations.has('GET')) methods.push('HEAD');
    methods.push('OPTIONS');
    const order = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
    methods.sort((a, b) => order.indexOf(a) - order.indexOf(b));
    const [any] = operations.values();
    if (any !== undefined) routes.push({ operations, allow: methods.join(', '), any });
  }
  const basePath = spec.basePath;
  return {
    basePath,
    match(method, pathname) {
      const sub = pathname.slice(basePath.length);
      for (const route of routes) {
        let params: Record<string, string> | null;
        try {
          params = route.any.match(sub);
          if (params === null) continue;
        } catch {
          // Percent-encoding that does not decode: the route matches, its parameters cannot parse.
          if (route.any.match(sub.replaceAll('%', '%25')) === null) continue;
          params = null;
        }
        if (method === 'OPTIONS') return { kind: 'preflight', allow: route.allow };
        const operation = route.operations.get(method === 'HEAD' ? 'GET' : method);
        if (operation === undefined) return { kind: 'method_not_allowed', allow: route.allow };
        return { kind: 'operation', operation, params };
      }
      return NOT_FOUND;
    },
  };
}

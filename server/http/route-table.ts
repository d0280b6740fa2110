import type { AnyEndpoint } from './endpoint';

// The declared endpoints as a method and path table: the REST app's 405 answers list the methods a
// path has, and the node door (node-door.ts) finds the endpoint a request names. A request goes to
// the first endpoint, in registration order, whose method and path match, as Hono's router picks it
// (the path pattern is Hono's: a parameter is one segment, a trailing slash is ignored).

export interface RouteMatch {
  def: AnyEndpoint;
  /** The path parameters, as they appear in the path (the node door only takes paths without % escapes). */
  params: Record<string, string>;
}

interface Route {
  def: AnyEndpoint;
  method: string;
  names: string[];
  pattern: RegExp;
}

export interface RouteTable {
  /** The endpoint a request names, or null. */
  find(method: string, path: string): RouteMatch | null;
  /** Every method some endpoint declares at this path (for 405 and its Allow header). */
  methodsAt(path: string): string[];
}

const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function compile(def: AnyEndpoint): Route {
  const names: string[] = [];
  const source = def.path
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const param = /^\{([^}]+)\}$/.exec(part);
      if (!param) return escapeRegExp(part);
      names.push(param[1]!);
      return '([^/]+)';
    })
    .join('');
  return { def, method: def.method.toUpperCase(), names, pattern: new RegExp(`^${source}/?$`) };
}

const withoutTrailingSlash = (path: string) => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);

export function routeTable(endpoints: readonly AnyEndpoint[]): RouteTable {
  const routes = endpoints.map(compile);
  // A path without parameters is found in a map; the endpoint there is the first that matches it in
  // order (an earlier endpoint with a parameter could also match it).
  // By method, then path: a lookup builds no key string.
  const exact = new Map<string, Map<string, RouteMatch>>();
  for (const route of routes) {
    if (route.names.length > 0) continue;
    let paths = exact.get(route.method);
    if (!paths) exact.set(route.method, (paths = new Map()));
    if (paths.has(route.def.path)) continue;
    const first = routes.find((each) => each.method === route.method && each.pattern.test(route.def.path))!;
    paths.set(route.def.path, { def: first.def, params: matchParams(first, route.def.path) });
  }
  const withParams = routes.filter((route) => route.names.length > 0);

  return {
    find(method, path) {
      const found = exact.get(method)?.get(withoutTrailingSlash(path));
      if (found) return found;
      for (const route of withParams) {
        if (route.method !== method) continue;
        const match = route.pattern.exec(path);
        if (!match) continue;
        const params: Record<string, string> = {};
        route.names.forEach((name, index) => (params[name] = match[index + 1]!));
        return { def: route.def, params };
      }
      return null;
    },
    methodsAt(path) {
      return [...new Set(routes.filter((route) => route.pattern.test(path)).map((route) => route.method))];
    },
  };
}

function matchParams(route: Route, path: string): Record<string, string> {
  if (route.names.length === 0) return NO_PARAMS;
  const match = route.pattern.exec(path)!;
  return Object.fromEntries(route.names.map((name, index) => [name, match[index + 1]!]));
}

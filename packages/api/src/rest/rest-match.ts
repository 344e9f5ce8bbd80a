import type { HttpMethod, RestRoute } from './rest-route';

type Segment = { literal: string } | { param: string };

interface CompiledRoute {
  route: RestRoute;
  segments: Segment[];
  literals: number;
}

export type RouteMatch =
  | { kind: 'route'; route: RestRoute; params: Record<string, string> }
  | { kind: 'not-found' }
  | { kind: 'method-not-allowed'; allow: HttpMethod[] };

function compile(route: RestRoute): CompiledRoute {
  const segments = route.path
    .split('/')
    .filter(Boolean)
    .map((part): Segment => {
      const param = /^\{([A-Za-z][A-Za-z0-9]*)\}$/.exec(part);
      return param ? { param: param[1]! } : { literal: part };
    });
  return { route, segments, literals: segments.filter((s) => 'literal' in s).length };
}

function matchSegments(segments: Segment[], parts: string[]): Record<string, string> | null {
  if (segments.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (const [i, segment] of segments.entries()) {
    const part = parts[i]!;
    if ('literal' in segment) {
      if (segment.literal !== part) return null;
    } else {
      params[segment.param] = part;
    }
  }
  return params;
}

/**
 * Finds the route of a method and path (below the API's base). A path no route has is
 * `not-found`; a path some route has under another method is `method-not-allowed` with the
 * methods it does take. Literal segments win over parameters (`/a/b` before `/a/{id}`).
 */
export function createRouteMatcher(routes: readonly RestRoute[]): (method: string, path: string) => RouteMatch {
  const compiled = routes.map(compile).sort((a, b) => b.literals - a.literals);
  return (method, path) => {
    let parts: string[];
    try {
      parts = path.split('/').filter(Boolean).map(decodeURIComponent);
    } catch {
      return { kind: 'not-found' };
    }
    const allow = new Set<HttpMethod>();
    for (const candidate of compiled) {
      const params = matchSegments(candidate.segments, parts);
      if (!params) continue;
      if (candidate.route.method === method) return { kind: 'route', route: candidate.route, params };
      allow.add(candidate.route.method);
    }
    return allow.size > 0 ? { kind: 'method-not-allowed', allow: [...allow] } : { kind: 'not-found' };
  };
}

import { errorResponse, notFound } from './errors.ts';

/**
 * A minimal router with chi's answer for wrong methods (405, empty). A path ending in `/*` also
 * matches everything below it and method `*` any method, like the middlewares GoTrue mounts on a
 * whole subtree (requireSAMLEnabled on /sso). Unknown paths answer GoTrue's JSON 404 rather than
 * chi's plain text, which clients such as supabase-js cannot parse.
 */

export interface RouteRequest {
  request: Request;
  url: URL;
  params: Record<string, string>;
}

export type RouteHandler = (route: RouteRequest) => Promise<Response>;

interface Route {
  method: string;
  segments: string[];
  handler: RouteHandler;
}

const segmentsOf = (path: string) => path.split('/').filter(Boolean);

/** A malformed %-escape stays as written; the handler's own validation then refuses it. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** GoTrue has no code of its own for an unknown path; chi's words are kept as the message. */
export const NOT_FOUND_CODE = 'not_found';
export const NOT_FOUND_MESSAGE = '404 page not found';

export class Router {
  private readonly routes: Route[] = [];

  on(method: string, path: string, handler: RouteHandler): this {
    this.routes.push({ method, segments: segmentsOf(path), handler });
    return this;
  }

  private match(route: Route, segments: string[]): Record<string, string> | undefined {
    const subtree = route.segments.at(-1) === '*';
    const fixed = subtree ? route.segments.slice(0, -1) : route.segments;
    if (subtree ? segments.length < fixed.length : segments.length !== fixed.length)
      return undefined;
    const params: Record<string, string> = {};
    for (const [index, expected] of fixed.entries()) {
      const actual = segments[index]!;
      if (expected.startsWith(':')) params[expected.slice(1)] = safeDecode(actual);
      else if (expected !== actual) return undefined;
    }
    return params;
  }

  readonly handle = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const segments = segmentsOf(url.pathname);
    let pathMatched = false;
    for (const route of this.routes) {
      const params = this.match(route, segments);
      if (!params) continue;
      pathMatched = true;
      if (route.method !== '*' && route.method !== request.method) continue;
      try {
        return await route.handler({ request, url, params });
      } catch (error) {
        return errorResponse(error, request);
      }
    }
    if (pathMatched) return new Response(null, { status: 405 });
    return errorResponse(notFound(NOT_FOUND_CODE, NOT_FOUND_MESSAGE), request);
  };
}

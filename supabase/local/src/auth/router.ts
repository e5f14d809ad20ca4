import { errorResponse } from './errors.ts';

/** A minimal router with GoTrue's (chi's) answers for unknown paths and wrong methods. */

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

export class Router {
  private readonly routes: Route[] = [];

  on(method: string, path: string, handler: RouteHandler): this {
    this.routes.push({ method, segments: segmentsOf(path), handler });
    return this;
  }

  private match(route: Route, segments: string[]): Record<string, string> | undefined {
    if (route.segments.length !== segments.length) return undefined;
    const params: Record<string, string> = {};
    for (const [index, expected] of route.segments.entries()) {
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
      if (route.method !== request.method) continue;
      try {
        return await route.handler({ request, url, params });
      } catch (error) {
        return errorResponse(error, request);
      }
    }
    if (pathMatched) return new Response(null, { status: 405 });
    return new Response('404 page not found\n', {
      status: 404,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
  };
}

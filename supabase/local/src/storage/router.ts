import type { Caller } from './caller.ts';
import type { RequestScope } from './context.ts';
import { storageErrors } from './errors.ts';

/**
 * A small path router in the manner of Storage's Fastify routes: `:name` matches one segment,
 * a trailing `*` the rest of the path (the object key, slashes included). Routes are tried in
 * order, so static prefixes (`/object/sign/…`) are listed before `/object/:bucket/*`.
 */

export interface RouteParams {
  bucket?: string;
  /** The object key from `*`, decoded. */
  key?: string;
  [name: string]: string | undefined;
}

export interface RouteInput {
  request: Request;
  url: URL;
  params: RouteParams;
  caller: Caller;
  /** Method, path and operation, as SQL sees them while acting as the caller. */
  scope: RequestScope;
}

/**
 * Which callers Storage lets through: a valid JWT is required (`jwt`), an invalid or missing
 * one makes the caller anonymous (`jwt-optional`), or no JWT is read at all (`public`: public
 * buckets and signed URLs).
 */
export type RouteAccess = 'jwt' | 'jwt-optional' | 'public';

export interface Route {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';
  pattern: string;
  /** Storage's operation name, exposed to SQL as storage.operation(). */
  operation: string;
  access: RouteAccess;
  handler: (input: RouteInput) => Promise<Response>;
}

function decode(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw storageErrors.invalidRequest(`'${raw}' is not a valid URL path component`);
  }
}

function match(pattern: string, path: string): RouteParams | undefined {
  const wanted = pattern.split('/');
  const actual = path.split('/');
  const params: RouteParams = {};
  for (let i = 0; i < wanted.length; i++) {
    const part = wanted[i] ?? '';
    if (part === '*') {
      if (i >= actual.length) return undefined;
      params.key = decode(actual.slice(i).join('/'));
      return params;
    }
    const segment = actual[i];
    if (segment === undefined) return undefined;
    if (part.startsWith(':')) {
      if (segment === '') return undefined;
      params[part.slice(1)] = decode(segment);
    } else if (part !== segment) {
      return undefined;
    }
  }
  return wanted.length === actual.length ? params : undefined;
}

export function findRoute(
  routes: Route[],
  method: string,
  path: string,
): { route: Route; params: RouteParams } | undefined {
  for (const route of routes) {
    if (route.method !== method) continue;
    const params = match(route.pattern, path);
    if (params) return { route, params };
  }
  return undefined;
}

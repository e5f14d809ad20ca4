import type pg from 'pg';
import type { StackConfig } from '../config.ts';
import type { WebHandler } from '../http.ts';
import { bucketRoutes } from './bucket-routes.ts';
import { ANONYMOUS_CALLER, identifyCaller } from './caller.ts';
import type { StorageContext } from './context.ts';
import { ObjectStore } from './disk.ts';
import { errorResponse, storageErrors } from './errors.ts';
import { objectRoutes } from './object-routes.ts';
import { findRoute, type Route } from './router.ts';
import { readStorageSettings, type StorageSettings } from './settings.ts';
import { signedUrlRoutes } from './signed-url-routes.ts';

export { syncConfigBuckets } from './settings.ts';

export interface StorageDependencies {
  config: StackConfig;
  /** Connected as supabase_storage_admin; object rows are written after `set local role` to the caller's role. */
  pool: pg.Pool;
  /** Where object bytes live on disk. */
  objectsDir: string;
  /** supabase/config.toml's [storage] section; read from the file when not given. */
  settings?: StorageSettings;
}

/** Supabase Storage-compatible HTTP API; requests arrive with the /storage/v1 prefix removed. */
export function createStorageService(deps: StorageDependencies): WebHandler {
  const settings = deps.settings ?? readStorageSettings();
  const context: StorageContext = {
    pool: deps.pool,
    store: new ObjectStore(deps.objectsDir),
    jwtSecret: deps.config.jwtSecret,
    fileSizeLimit: settings.fileSizeLimit,
  };
  // Signed-URL routes first: their static `/object/sign/…` prefixes must win over `/object/:bucket/*`.
  const routes: Route[] = [
    ...bucketRoutes(context),
    ...signedUrlRoutes(context),
    ...objectRoutes(context),
  ];

  return async (request) => {
    try {
      const url = new URL(request.url);
      // `/bucket/` and `/bucket` are one route, as in Fastify.
      const found =
        findRoute(routes, request.method, url.pathname) ??
        (url.pathname.length > 1 && url.pathname.endsWith('/')
          ? findRoute(routes, request.method, url.pathname.slice(0, -1))
          : undefined);
      if (!found) {
        throw storageErrors.routeNotFound(request.method, `${url.pathname}${url.search}`);
      }
      const { route, params } = found;
      const caller =
        route.access === 'public'
          ? ANONYMOUS_CALLER
          : await identifyCaller(request, context.jwtSecret, {
              allowInvalid: route.access === 'jwt-optional',
            });
      return await route.handler({
        request,
        url,
        params,
        caller,
        scope: { method: request.method, path: url.pathname, operation: route.operation },
      });
    } catch (error) {
      return errorResponse(error);
    }
  };
}

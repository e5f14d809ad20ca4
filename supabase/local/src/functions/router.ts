import http from 'node:http';
import { verifyToken } from '../jwt.ts';
import { forwardHeaders, proxy } from '../proxy.ts';
import type { FunctionCatalog } from './catalog.ts';
import { BootError, type FunctionProcesses } from './processes.ts';

/**
 * The front of the functions runtime, answering as Supabase's edge-runtime main service does:
 * `/<name>/...` goes to that function, with the caller's request untouched but for hop-by-hop
 * headers (method, path, query, headers including Host, so the function sees the URL it would
 * see on Supabase); the runtime's own refusals and failures keep its status codes and bodies.
 */

export interface RouterDependencies {
  catalog: FunctionCatalog;
  processes: FunctionProcesses;
  jwtSecret: string;
  log: (line: string) => void;
}

/** Response headers as the front in-process wants them (the gateway puts its CORS headers). */
export type ResponseHeaders = (rawHeaders: string[]) => string[];

const asIs: ResponseHeaders = (rawHeaders) => rawHeaders;

function send(
  res: http.ServerResponse,
  status: number,
  body: string | object,
  headers: ResponseHeaders,
) {
  const text = typeof body === 'string';
  res.writeHead(status, headers(['content-type', text ? 'text/plain' : 'application/json']));
  res.end(text ? body : JSON.stringify(body));
}

const BOOT_ERROR = { code: 'BOOT_ERROR', message: 'Worker failed to boot (please check logs)' };
const WORKER_ERROR = {
  code: 'WORKER_ERROR',
  message: 'Function exited due to an error (please check logs)',
};

/** The runtime's JWT gate: why the request is refused, or undefined to let it through. */
async function jwtRefusal(authorization: string | undefined, secret: string) {
  if (!authorization) return 'Error: Missing authorization header';
  const [scheme, token] = authorization.split(' ');
  if (scheme !== 'Bearer') return "Error: Auth header is not 'Bearer {token}'";
  const check = await verifyToken(secret, token ?? '');
  return check.ok ? undefined : 'Invalid JWT';
}

/**
 * Routes one request: `path` is `/<name>/...` with the query, `headers` the flat raw list the
 * function is to receive (hop-by-hop headers dropped). The gateway calls it in-process, so that
 * a request reaches its function in one HTTP hop.
 */
export type FunctionsRoute = (
  req: http.IncomingMessage,
  res: http.ServerResponse,
  path: string,
  headers: readonly string[],
  responseHeaders?: ResponseHeaders,
) => void;

export function createFunctionsRouter({
  catalog,
  processes,
  jwtSecret,
  log,
}: RouterDependencies): FunctionsRoute {
  const forward = (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    name: string,
    port: number,
    path: string,
    headers: readonly string[],
    responseHeaders: ResponseHeaders,
  ) =>
    proxy(req, res, {
      port,
      path,
      headers,
      responseHeaders,
      onFailure: (error) => {
        log(`functions/${name}: request failed (${error.message}); the function ended or crashed`);
        processes.retire(name, port).catch((stopError: unknown) => log(String(stopError)));
        send(res, 500, WORKER_ERROR, responseHeaders);
      },
    });

  /** The part that waits: the JWT check, the function's boot. */
  const checkAndForward = async (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    name: string,
    verifyJwt: boolean,
    path: string,
    headers: readonly string[],
    responseHeaders: ResponseHeaders,
  ) => {
    if (verifyJwt) {
      const refusal = await jwtRefusal(req.headers.authorization, jwtSecret);
      if (refusal) return send(res, 401, { msg: refusal }, responseHeaders);
    }
    let port: number;
    try {
      port = processes.portOf(name) ?? (await processes.acquire(name));
    } catch (error) {
      log(`functions/${name}: ${error instanceof BootError ? error.message : String(error)}`);
      return send(res, 503, BOOT_ERROR, responseHeaders);
    }
    forward(req, res, name, port, path, headers, responseHeaders);
  };

  const failed =
    (res: http.ServerResponse, responseHeaders: ResponseHeaders) => (error: unknown) => {
      log(`functions: ${String(error)}`);
      if (!res.headersSent)
        send(
          res,
          500,
          {
            code: 'Internal Server Error',
            message: 'Request failed due to an internal server error',
          },
          responseHeaders,
        );
      else res.destroy();
    };

  return (req, res, path, headers, responseHeaders = asIs) => {
    try {
      const name = functionName(path);
      if (!catalog.exists(name)) return send(res, 404, 'Function not found', responseHeaders);
      const verifyJwt = req.method !== 'OPTIONS' && catalog.settings(name).verifyJwt;
      const port = processes.portOf(name);
      // A warm function without a JWT to check (a short link's redirect) is forwarded at once,
      // without a promise in between.
      if (!verifyJwt && port !== undefined)
        return forward(req, res, name, port, path, headers, responseHeaders);
      checkAndForward(req, res, name, verifyJwt, path, headers, responseHeaders).catch(
        failed(res, responseHeaders),
      );
    } catch (error) {
      failed(res, responseHeaders)(error);
    }
  };
}

/** The function a `/<name>/...` path names. */
function functionName(path: string): string {
  let end = 1;
  while (end < path.length && path[end] !== '/' && path[end] !== '?') end++;
  return path.slice(1, end);
}

/** The runtime's own port: `/<name>/...` as the caller sent it, headers and all. */
export function serveFunctions(route: FunctionsRoute): http.Server {
  return http.createServer((req, res) => {
    route(req, res, req.url ?? '/', forwardHeaders(req.rawHeaders));
  });
}

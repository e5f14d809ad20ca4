import http from 'node:http';
import { verifyToken } from '../jwt.ts';
import type { FunctionCatalog } from './catalog.ts';
import { BootError, type FunctionProcesses } from './processes.ts';

/**
 * The front of the functions runtime, answering as Supabase's edge-runtime main service does:
 * `/<name>/...` goes to that function, with the caller's request untouched (method, path, query,
 * headers including Host, so the function sees the URL it would see on Supabase); the runtime's
 * own refusals and failures keep its status codes and bodies.
 */

export interface RouterDependencies {
  catalog: FunctionCatalog;
  processes: FunctionProcesses;
  jwtSecret: string;
  log: (line: string) => void;
}

const upstreamAgent = new http.Agent({ keepAlive: true, maxSockets: 256 });

function send(res: http.ServerResponse, status: number, body: string | object) {
  const text = typeof body === 'string';
  res.writeHead(status, { 'content-type': text ? 'text/plain' : 'application/json' });
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

function forward(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  port: number,
  onFailure: (error: Error) => void,
) {
  const upstream = http.request(
    {
      host: '127.0.0.1',
      port,
      method: req.method,
      path: req.url,
      headers: req.headers,
      agent: upstreamAgent,
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 500, answer.rawHeaders);
      answer.pipe(res);
      answer.once('error', () => res.destroy());
    },
  );
  upstream.once('error', (error) => {
    onFailure(error);
    if (!res.headersSent) send(res, 500, WORKER_ERROR);
    else res.destroy();
  });
  req.pipe(upstream);
}

export function createFunctionsRouter({
  catalog,
  processes,
  jwtSecret,
  log,
}: RouterDependencies): http.Server {
  const route = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const pathname = (req.url ?? '/').split('?')[0] ?? '/';
    const name = pathname.split('/')[1] ?? '';
    if (!catalog.exists(name)) return send(res, 404, 'Function not found');

    if (req.method !== 'OPTIONS' && catalog.settings(name).verifyJwt) {
      const refusal = await jwtRefusal(req.headers.authorization, jwtSecret);
      if (refusal) return send(res, 401, { msg: refusal });
    }

    let port: number;
    try {
      port = await processes.acquire(name);
    } catch (error) {
      log(`functions/${name}: ${error instanceof BootError ? error.message : String(error)}`);
      return send(res, 503, BOOT_ERROR);
    }
    forward(req, res, port, (error) => {
      log(`functions/${name}: request failed (${error.message}); the function ended or crashed`);
      processes.retire(name, port).catch((stopError: unknown) => log(String(stopError)));
    });
  };

  return http.createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      log(`functions: ${String(error)}`);
      if (!res.headersSent)
        send(res, 500, {
          code: 'Internal Server Error',
          message: 'Request failed due to an internal server error',
        });
      else res.destroy();
    });
  });
}

import http from 'node:http';
import type { StackConfig } from './config.ts';
import { CORS_HEADERS, json, serveWebRequest, type WebHandler } from './http.ts';

/**
 * The one front door on :54321, standing in for Supabase's Kong: CORS, the apikey check, and a
 * route per service. REST and functions are proxied to their processes as raw streams (the
 * cheapest path); auth and storage are in-process fetch handlers.
 */

export interface GatewayServices {
  auth: WebHandler;
  storage: WebHandler;
  /** Port of the process serving edge functions, if any. */
  functionsPort?: number;
  /** Hostnames whose every request is a short-link redirect, served by the `r` function. */
  isShortDomain?: (host: string) => boolean;
  /** The local hCaptcha stand-in, at /sandbox/hcaptcha (no apikey, as hCaptcha needs none). */
  captcha?: WebHandler;
}

const upstreamAgent = new http.Agent({ keepAlive: true, maxSockets: 256 });

// Auth endpoints a browser reaches by following an e-mail link carry no apikey (as in Kong).
const OPEN_AUTH_PATHS = new Set(['/verify', '/callback', '/authorize']);

function apiKeyOf(req: http.IncomingMessage, url: URL): string | undefined {
  const header = req.headers.apikey;
  return (
    (Array.isArray(header) ? header[0] : header) ?? url.searchParams.get('apikey') ?? undefined
  );
}

function reply(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json', ...CORS_HEADERS });
  res.end(JSON.stringify(body));
}

// Headers travel as flat raw [name, value, …] lists: building and re-validating header objects
// on both legs was a measurable share of the gateway's CPU per proxied request (bench/stack.ts).
const CORS_HEADER_LIST = Object.entries(CORS_HEADERS).flat();

/** The upstream's response headers with the gateway's CORS headers in place of any of its own. */
function withCors(rawHeaders: string[]): string[] {
  const headers: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (!name.toLowerCase().startsWith('access-control-')) headers.push(name, rawHeaders[i + 1]!);
  }
  headers.push(...CORS_HEADER_LIST);
  return headers;
}

/** The client's headers for PostgREST: apikey removed, and the key as bearer when none came. */
function restHeaders(rawHeaders: string[], apiKey: string | undefined): string[] {
  const headers: string[] = [];
  let authorized = false;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    const value = rawHeaders[i + 1]!;
    if (name === 'apikey' || (name === 'authorization' && !value)) continue;
    if (name === 'authorization') authorized = true;
    headers.push(rawHeaders[i]!, value);
  }
  if (!authorized && apiKey) headers.push('authorization', `Bearer ${apiKey}`);
  return headers;
}

/**
 * The client's headers with the socket's address appended to X-Forwarded-For, as Kong does
 * (`$proxy_add_x_forwarded_for`): functions find the client there (IPv4 in dotted form, as
 * nginx's $remote_addr has it, not as the dual-stack socket's ::ffff:a.b.c.d).
 */
function forwarded(req: http.IncomingMessage): http.IncomingHttpHeaders {
  const remote = (req.socket.remoteAddress ?? '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  const previous = req.headers['x-forwarded-for'];
  const chain = [previous, remote].filter(Boolean).join(', ');
  return chain ? { ...req.headers, 'x-forwarded-for': chain } : req.headers;
}

function proxy(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  port: number,
  path: string,
  headers: http.OutgoingHttpHeaders | readonly string[],
) {
  const upstream = http.request(
    { host: '127.0.0.1', port, method: req.method, path, headers, agent: upstreamAgent },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, withCors(answer.rawHeaders));
      answer.pipe(res);
    },
  );
  upstream.on('error', () => {
    if (!res.headersSent)
      reply(res, 502, { message: 'An invalid response was received from the upstream server' });
    else res.destroy();
  });
  req.pipe(upstream);
}

export function createGateway(config: StackConfig, services: GatewayServices): http.Server {
  const origin = `http://127.0.0.1:${config.gatewayPort}`;
  const validKeys = new Set([config.anonKey, config.serviceRoleKey]);

  const serveWeb = (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    handler: WebHandler,
    prefix: string,
  ) =>
    serveWebRequest(req, res, origin, async (request) => {
      const url = new URL(request.url);
      url.pathname = url.pathname.slice(prefix.length) || '/';
      let response: Response;
      try {
        response = await handler(new Request(url, request));
      } catch (error) {
        // Answered here, not by the caller, so that the body the handler left is still settled.
        console.error(error);
        response = json({ message: 'Internal server error' }, 500);
      }
      for (const [name, value] of Object.entries(CORS_HEADERS)) response.headers.set(name, value);
      return response;
    });

  return http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    if (services.isShortDomain?.(host) && services.functionsPort) {
      proxy(req, res, services.functionsPort, `/r${url.pathname}${url.search}`, forwarded(req));
      return;
    }
    if (req.method === 'OPTIONS') {
      res.writeHead(200, CORS_HEADERS);
      res.end();
      return;
    }
    const [, area, version] = url.pathname.split('/');
    const prefix = `/${area}/${version}`;
    const rest = url.pathname.slice(prefix.length) || '/';

    const needsKey = area === 'rest' || (area === 'auth' && !OPEN_AUTH_PATHS.has(rest));
    const apiKey = apiKeyOf(req, url);
    if (needsKey && version === 'v1') {
      if (!apiKey) return reply(res, 401, { message: 'No API key found in request' });
      if (!validKeys.has(apiKey))
        return reply(res, 401, { message: 'Invalid authentication credentials' });
    }

    const failed = (error: unknown) => {
      console.error(error);
      if (!res.headersSent) reply(res, 500, { message: 'Internal server error' });
      else res.destroy();
    };

    if (area === 'rest' && version === 'v1') {
      const headers = restHeaders(req.rawHeaders, apiKey);
      return proxy(req, res, config.postgrestPort, `${rest}${url.search}`, headers);
    }
    if (area === 'auth' && version === 'v1')
      return void serveWeb(req, res, services.auth, prefix).catch(failed);
    if (area === 'storage' && version === 'v1')
      return void serveWeb(req, res, services.storage, prefix).catch(failed);
    if (area === 'sandbox' && version === 'hcaptcha' && services.captcha)
      return void serveWeb(req, res, services.captcha, prefix).catch(failed);
    if (area === 'functions' && version === 'v1') {
      if (!services.functionsPort)
        return reply(res, 503, { message: 'Edge functions are not running' });
      return proxy(req, res, services.functionsPort, `${rest}${url.search}`, forwarded(req));
    }
    if (url.pathname === '/' || url.pathname === '/health')
      return reply(res, 200, { status: 'ok', name: 'shortlane-local-stack' });
    reply(res, 404, { message: 'no Route matched with those values' });
  });
}

export function listen(server: http.Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
}

export const notImplemented: WebHandler = async () => json({ message: 'Not implemented' }, 501);

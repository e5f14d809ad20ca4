import http from 'node:http';
import type net from 'node:net';
import { clientResolver, parseTrustedProxies } from './client-address.ts';
import type { StackConfig } from './config.ts';
import type { FunctionsRoute } from './functions/router.ts';
import {
  CORS_ANSWER_HEADERS,
  CORS_HEADERS,
  json,
  serveWebRequest,
  type WebHandler,
} from './http.ts';
import type { RequestHead } from './http-framing.ts';
import { forwardHeaders, proxy } from './proxy.ts';
import type { RestRules } from './rest-relay.ts';

/**
 * The one front door on :54321, standing in for Supabase's Kong: CORS, the apikey check, and a
 * route per service. Most REST requests do not reach this server: the front relays them at the
 * byte level (rest-relay.ts, applying restRelayRules below) until a connection asks for anything
 * else; the rest are proxied here to PostgREST as a raw stream (proxy.ts). Functions are handed
 * to the functions router in-process, which proxies them to the function's process, so a
 * function call costs one HTTP hop; auth and storage are in-process fetch handlers.
 *
 * Short links mostly never reach this server: its socket is the front's (gateway-front.ts), which
 * reads the first request head of each connection and relays a connection that begins with a
 * short domain's Host, whole, to the `r` function's process (functions/relay.ts; a shim there,
 * functions/relay-shim.js, gives each request the path, client address and CORS headers this
 * server would). What reaches the short-domain route below is a short link asked on a connection
 * that began with another host, and connections the relay could not take (`r` failing to boot).
 */

/** The function that answers every request on a short domain. */
export const SHORT_DOMAIN_FUNCTION = 'r';

export interface GatewayServices {
  auth: WebHandler;
  storage: WebHandler;
  /** The functions router (functions.ts), if functions run. */
  functions?: FunctionsRoute;
  /** Hostnames whose every request is a short-link redirect, served by the `r` function. */
  isShortDomain?: (host: string) => boolean;
  /** The local hCaptcha stand-in, at /sandbox/hcaptcha (no apikey, as hCaptcha needs none). */
  captcha?: WebHandler;
  /** The local Stripe stand-in, at /sandbox/stripe (its API checks its own secret key). */
  stripe?: WebHandler;
  /** The local Paddle Billing stand-in, at /sandbox/paddle (API, paddle.js, checkout frame). */
  paddle?: WebHandler;
  /** The DNS sandbox's API, at /sandbox/dns (it checks the service-role key itself). */
  dns?: WebHandler;
  /** The registrar sandbox (Name.com's API), at /sandbox/registrar (it checks its own Basic auth). */
  registrar?: WebHandler;
  /** The sandbox SAML identity provider, at /sandbox/saml-idp (browsers reach it: no apikey). */
  samlIdp?: WebHandler;
}

// Auth endpoints a browser reaches by following an e-mail link carry no apikey (as in Kong).
// So are SAML's metadata and ACS, which identity providers and their POST forms reach (Supabase's
// Kong has open routes for both).
const OPEN_AUTH_PATHS = new Set([
  '/verify',
  '/callback',
  '/authorize',
  '/sso/saml/acs',
  '/sso/saml/metadata',
]);

function apiKeyOf(req: http.IncomingMessage, url: URL): string | undefined {
  const header = req.headers.apikey;
  return (
    (Array.isArray(header) ? header[0] : header) ?? url.searchParams.get('apikey') ?? undefined
  );
}

function reply(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json', ...CORS_ANSWER_HEADERS });
  res.end(JSON.stringify(body));
}

const CORS_ANSWER_LIST = Object.entries(CORS_ANSWER_HEADERS).flat();
const CORS_FULL_LIST = Object.entries(CORS_HEADERS).flat();

function hasHeader(rawHeaders: string[], name: string): boolean {
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() === name) return true;
  }
  return false;
}

const CORS_PREFIX = 'access-control-';

/** A CORS field's name (lower-cased): the gateway's own take its place in every answer. */
const isCorsField = (name: string) => name.startsWith(CORS_PREFIX);

/**
 * The upstream's response headers (hop-by-hop ones already dropped by the proxy) with the
 * gateway's CORS headers `cors` in place of any of its own: one pass, as it runs on every answer.
 */
function replaceCors(headers: string[], cors: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < headers.length; i += 2) {
    const name = headers[i]!;
    if (
      name.length > CORS_PREFIX.length &&
      name.slice(0, CORS_PREFIX.length).toLowerCase() === CORS_PREFIX
    )
      continue;
    out.push(name, headers[i + 1]!);
  }
  for (const entry of cors) out.push(entry);
  return out;
}

/** An answer of the gateway's own services (REST, Auth, Storage): the CORS of an actual request. */
const withCors = (headers: string[]) => replaceCors(headers, CORS_ANSWER_LIST);

/**
 * A short link's answer: the whole set in place of any of `r`'s own, as the relay shim sets them
 * on the relayed path (functions/relay-shim.js), so that both paths answer alike.
 */
const withShortLinkCors = (headers: string[]) => replaceCors(headers, CORS_FULL_LIST);

/**
 * A function's answer keeps its own CORS headers when it sends them: on Supabase, functions
 * handle CORS themselves (the gateway neither answers their preflights nor rewrites their
 * headers), so the public API's Idempotency-Key and X-RateLimit-* work from a browser only if
 * the function says so. Without them, the gateway's apply.
 */
function withFunctionCors(rawHeaders: string[]): string[] {
  return hasHeader(rawHeaders, 'access-control-allow-origin')
    ? rawHeaders
    : replaceCors(rawHeaders, CORS_FULL_LIST);
}

/**
 * Every service behind the gateway learns the client from X-Forwarded-For and X-Real-IP, which
 * the gateway sets to the one address it trusts (client-address.ts): whatever the caller wrote
 * there is replaced, so Auth, Storage, PostgREST and the functions can believe them.
 */
const isClientHeader = (name: string) => name === 'x-forwarded-for' || name === 'x-real-ip';

/**
 * The client's headers for PostgREST: apikey removed, the key as bearer when none came, and the
 * client's address.
 */
function restHeaders(rawHeaders: string[], apiKey: string | undefined, client: string): string[] {
  let authorized = false;
  const headers = forwardHeaders(rawHeaders, (name, value) => {
    if (name === 'apikey' || (name === 'authorization' && !value) || isClientHeader(name))
      return true;
    if (name === 'authorization') authorized = true;
    return false;
  });
  if (!authorized && apiKey) headers.push('authorization', `Bearer ${apiKey}`);
  headers.push('x-forwarded-for', client, 'x-real-ip', client);
  return headers;
}

/** The client's headers for a function, naming the client as the gateway decided it. */
function functionHeaders(rawHeaders: string[], client: string): string[] {
  return forwardHeaders(rawHeaders, isClientHeader, [
    'x-forwarded-for',
    client,
    'x-real-ip',
    client,
  ]);
}

const badGateway = (res: http.ServerResponse) => () => reply(res, 502, BAD_GATEWAY);

/** The path and query of an absolute-form (or `*`) request target. */
function pathAndQuery(target: string | undefined, origin: string): string {
  const url = new URL(target ?? '/', origin);
  return `${url.pathname}${url.search}`;
}

const BAD_GATEWAY = { message: 'An invalid response was received from the upstream server' };

/**
 * A request target the WHATWG URL parser leaves as it is (no dot segments, percent escapes or
 * characters it would escape in the path; none it would escape in the query), under /rest/v1:
 * its PostgREST path is a slice. Any other target is parsed as the HTTP server's path does it.
 */
const PLAIN_REST_TARGET =
  /^\/rest\/v1(?:\/[\w\-~!$&()*+,;=:@/]*)?(?:\?[\w\-.~!$&()*+,;=:@/?%{}|^`[\]]*)?$/;

/** PostgREST's path and query for a /rest/v1 target, and its `apikey` query parameter. */
function restTarget(
  target: string,
  origin: string,
): { path: string; queryKey: string | null } | undefined {
  if (PLAIN_REST_TARGET.test(target)) {
    const question = target.indexOf('?');
    const pathname = question < 0 ? target : target.slice(0, question);
    const search = question < 0 || question === target.length - 1 ? '' : target.slice(question);
    return {
      path: `${pathname.slice('/rest/v1'.length) || '/'}${search}`,
      queryKey: search.includes('apikey') ? new URLSearchParams(search).get('apikey') : null,
    };
  }
  const url = new URL(target, origin);
  const [, area, version] = url.pathname.split('/');
  if (area !== 'rest' || version !== 'v1') return undefined;
  return {
    path: `${url.pathname.slice('/rest/v1'.length) || '/'}${url.search}`,
    queryKey: url.searchParams.get('apikey'),
  };
}

/**
 * What the gateway's HTTP server and its byte-level REST relay both judge by, built once for
 * each from the config: its own origin, the keys it takes, and who the client is.
 */
function gatewayBasics(config: StackConfig) {
  return {
    origin: `http://127.0.0.1:${config.gatewayPort}`,
    validKeys: new Set([config.anonKey, config.serviceRoleKey]),
    resolveClient: clientResolver(parseTrustedProxies(config.trustedProxies.join(','))),
  };
}

const RELAYED_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The gateway's REST rules for the byte-level relay (rest-relay.ts), the same as its HTTP path
 * applies below: a request is relayed only when this server would proxy it to PostgREST as it is
 * (a known apikey, not a short domain's Host, no preflight, upgrade, 100-continue or
 * `Connection: close`); anything else, 401s included, is left to this server.
 */
export function restRelayRules(config: StackConfig, services: GatewayServices): RestRules {
  const { origin, validKeys, resolveClient } = gatewayBasics(config);
  const isShortDomain = services.functions ? services.isShortDomain : undefined;
  const badGatewayBody = Buffer.from(JSON.stringify(BAD_GATEWAY));
  const badGatewayFields = ['content-type', 'application/json', ...CORS_ANSWER_LIST];
  return {
    request({ method, target, fields }: RequestHead, peer: string) {
      if (!RELAYED_METHODS.has(method)) return undefined;
      let host: string | undefined;
      let apiKey: string | undefined;
      let forwardedFor: string | undefined;
      for (let i = 0; i < fields.length; i += 2) {
        const name = fields[i]!.toLowerCase();
        const value = fields[i + 1]!;
        if (name === 'host') {
          if (host !== undefined) return undefined;
          host = value;
        } else if (name === 'apikey') {
          if (apiKey !== undefined) return undefined;
          apiKey = value;
        } else if (name === 'x-forwarded-for')
          // As Node joins repeated X-Forwarded-For fields.
          forwardedFor = forwardedFor === undefined ? value : `${forwardedFor}, ${value}`;
        else if (name === 'expect' || name === 'upgrade') return undefined;
        else if (
          name === 'connection' &&
          /(?:^|,)[ \t]*(?:close|upgrade)[ \t]*(?:,|$)/i.test(value)
        )
          return undefined;
      }
      if (host === undefined) return undefined;
      if (isShortDomain?.(host.replace(/:\d+$/, '').toLowerCase())) return undefined;
      const rest = restTarget(target, origin);
      if (!rest) return undefined;
      apiKey ??= rest.queryKey ?? undefined;
      if (!apiKey || !validKeys.has(apiKey)) return undefined;
      const headers = restHeaders(fields, apiKey, resolveClient(peer, forwardedFor));
      let head = `${method} ${rest.path} HTTP/1.1\r\n`;
      for (let i = 0; i < headers.length; i += 2) head += `${headers[i]}: ${headers[i + 1]}\r\n`;
      return `${head}\r\n`;
    },
    withholds: isCorsField,
    answerFields: CORS_ANSWER_LIST,
    badGateway: () => ({
      line: 'HTTP/1.1 502 Bad Gateway',
      fields: [
        ...badGatewayFields,
        'Date',
        new Date().toUTCString(),
        'Content-Length',
        String(badGatewayBody.length),
      ],
      body: badGatewayBody,
    }),
  };
}

export function createGateway(config: StackConfig, services: GatewayServices): http.Server {
  const { origin, validKeys, resolveClient } = gatewayBasics(config);
  const clientOf = (req: http.IncomingMessage) =>
    resolveClient(req.socket.remoteAddress ?? '', req.headers['x-forwarded-for']);

  const serveWeb = (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    handler: WebHandler,
    prefix: string,
  ) =>
    serveWebRequest(req, res, origin, async (request) => {
      const url = new URL(request.url);
      url.pathname = url.pathname.slice(prefix.length) || '/';
      const forwarded = new Request(url, request);
      const client = clientOf(req);
      forwarded.headers.set('x-forwarded-for', client);
      forwarded.headers.set('x-real-ip', client);
      let response: Response;
      try {
        response = await handler(forwarded);
      } catch (error) {
        // Answered here, not by the caller, so that the body the handler left is still settled.
        console.error(error);
        response = json({ message: 'Internal server error' }, 500);
      }
      for (const [name, value] of Object.entries(CORS_ANSWER_HEADERS))
        response.headers.set(name, value);
      return response;
    });

  return http.createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    if (services.functions && services.isShortDomain?.(host)) {
      // The path as the visitor sent it, as Kong passes it on: r parses it once, itself.
      const target = req.url?.startsWith('/') ? req.url : pathAndQuery(req.url, origin);
      const headers = functionHeaders(req.rawHeaders, clientOf(req));
      services.functions(
        req,
        res,
        `/${SHORT_DOMAIN_FUNCTION}${target}`,
        headers,
        withShortLinkCors,
      );
      return;
    }
    const url = new URL(req.url ?? '/', origin);
    const [, area, version] = url.pathname.split('/');
    // Functions answer their own preflights, as on Supabase (see withFunctionCors).
    if (req.method === 'OPTIONS' && !(area === 'functions' && version === 'v1')) {
      res.writeHead(200, CORS_HEADERS);
      res.end();
      return;
    }
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
      return proxy(req, res, {
        port: config.postgrestPort,
        path: `${rest}${url.search}`,
        headers: restHeaders(req.rawHeaders, apiKey, clientOf(req)),
        responseHeaders: withCors,
        onFailure: badGateway(res),
      });
    }
    if (area === 'auth' && version === 'v1')
      return void serveWeb(req, res, services.auth, prefix).catch(failed);
    if (area === 'storage' && version === 'v1')
      return void serveWeb(req, res, services.storage, prefix).catch(failed);
    if (area === 'sandbox' && version === 'hcaptcha' && services.captcha)
      return void serveWeb(req, res, services.captcha, prefix).catch(failed);
    if (area === 'sandbox' && version === 'stripe' && services.stripe)
      return void serveWeb(req, res, services.stripe, prefix).catch(failed);
    if (area === 'sandbox' && version === 'paddle' && services.paddle)
      return void serveWeb(req, res, services.paddle, prefix).catch(failed);
    if (area === 'sandbox' && version === 'dns' && services.dns)
      return void serveWeb(req, res, services.dns, prefix).catch(failed);
    if (area === 'sandbox' && version === 'registrar' && services.registrar)
      return void serveWeb(req, res, services.registrar, prefix).catch(failed);
    if (area === 'sandbox' && version === 'saml-idp' && services.samlIdp)
      return void serveWeb(req, res, services.samlIdp, prefix).catch(failed);
    if (area === 'functions' && version === 'v1') {
      if (!services.functions)
        return reply(res, 503, { message: 'Edge functions are not running' });
      const headers = functionHeaders(req.rawHeaders, clientOf(req));
      return services.functions(req, res, `${rest}${url.search}`, headers, withFunctionCors);
    }
    if (url.pathname === '/' || url.pathname === '/health')
      return reply(res, 200, { status: 'ok', name: 'shortlane-local-stack' });
    reply(res, 404, { message: 'no Route matched with those values' });
  });
}

export function listen(server: net.Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
}

export const notImplemented: WebHandler = async () => json({ message: 'Not implemented' }, 501);

import { timingSafeEqual } from 'node:crypto';
import { json, type WebHandler } from '../http.ts';
import { invalidArgument, NameComError } from './errors.ts';
import {
  domainKey,
  FAILURE_ERRORS,
  FAILURE_OPERATIONS,
  RegistrarRegistry,
  type ArmedFailure,
  type OrderResult,
  type RegistryOptions,
  type SandboxDomain,
} from './registry.ts';

/**
 * A local stand-in for Name.com, mounted by the gateway at /sandbox/registrar: the four calls of
 * its Core API v4 the registrar adapter (supabase/functions/_shared/registrar) makes, with the
 * same paths, HTTP Basic auth, JSON shapes (default values omitted) and `{message, details}`
 * error bodies, plus X-Idempotency-Key (a completed order is replayed to a retry with the same
 * key; a refused one is not kept, so it may be tried again):
 *
 *   POST /v4/domains:checkAvailability    {domainNames}                    → {results}
 *   POST /v4/domains                      {domain, years?, purchasePrice?} → {domain, order, totalPaid}
 *   POST /v4/domains/{domainName}:renew   {years?, purchasePrice?}         → {domain, order, totalPaid}
 *   GET  /v4/domains/{domainName}                                          → domain
 *
 * Availability is deterministic: a name registered here, or on the taken list, is unavailable;
 * a premium name is sold at its own price; any other name with a TLD on the price list
 * (prices.ts) is available; a name that is not a domain name gets Name.com's 400 body.
 *
 * The control API, for tests and development, takes the same Basic credentials:
 *
 *   GET    /control/domains                  the domains registered here
 *   GET    /control/domains/{name}           one of them
 *   PATCH  /control/domains/{name}           {expireDate}: moves its expiry
 *   DELETE /control/domains/{name}           forgets the registration
 *   GET    /control/taken                    names registered elsewhere
 *   PUT    /control/taken/{name}             marks a name taken; DELETE frees it
 *   GET    /control/premium                  premium names and their prices
 *   PUT    /control/premium/{name}           {purchasePrice, renewalPrice?}; DELETE: no longer
 *   GET    /control/failures                 the armed failures
 *   POST   /control/failures                 {operation: register|renew, domainName?,
 *                                            error: payment|unavailable|unreachable}: the next
 *                                            matching call (any name without domainName) fails
 *                                            so, once: 402 Insufficient Funds, 400 Domain is not
 *                                            available, 502 Registry Connection Unavailable
 *   DELETE /control/failures[?domainName=]   disarms them (all, or those for one name)
 *   GET    /control/prices                   the price list per TLD
 */

/** Local-only credentials (Name.com test accounts end in -test): they unlock only this sandbox. */
export const SANDBOX_REGISTRAR_USERNAME = 'shortlane-test';
export const SANDBOX_REGISTRAR_TOKEN = 'shortlanelocalregistrarsandboxtoken0000';

export interface RegistrarSandboxOptions extends RegistryOptions {
  username?: string;
  token?: string;
}

export interface RegistrarSandbox {
  handler: WebHandler;
  registry: RegistrarRegistry;
}

function same(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function basicCredentials(header: string | null): { username: string; token: string } | null {
  const encoded = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? '')?.[1];
  if (!encoded) return null;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? null : { username: decoded.slice(0, colon), token: decoded.slice(colon + 1) };
}

async function bodyOf(request: Request): Promise<Record<string, unknown>> {
  const text = await request.text();
  if (text.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw invalidArgument('The request body is not valid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalidArgument('The request body must be a JSON object');
  return body as Record<string, unknown>;
}

/** What Name.com keeps of an idempotent call: the request it answered, and the answer. */
interface Replay {
  fingerprint: string;
  status: number;
  body: unknown;
}

/** Name.com leaves out fields at their default value: a false autorenewEnabled is not sent. */
function wireDomain(domain: SandboxDomain): Partial<SandboxDomain> {
  const { autorenewEnabled, ...rest } = domain;
  return autorenewEnabled ? domain : rest;
}

const onTheWire = (order: OrderResult) => ({ ...order, domain: wireDomain(order.domain) });

const control = (message: string, status: number) => json({ message }, status);
const noContent = () => new Response(null, { status: 204 });

export function createRegistrarSandbox(options: RegistrarSandboxOptions = {}): RegistrarSandbox {
  const username = options.username ?? SANDBOX_REGISTRAR_USERNAME;
  const token = options.token ?? SANDBOX_REGISTRAR_TOKEN;
  const registry = new RegistrarRegistry(options);
  const replays = new Map<string, Replay>();

  /** Runs a billable call once per X-Idempotency-Key, replaying its answer to a retry. */
  async function idempotent(
    request: Request,
    route: string,
    run: (body: Record<string, unknown>) => unknown,
  ): Promise<Response> {
    const key = request.headers.get('x-idempotency-key');
    const body = await bodyOf(request);
    if (!key) return json(run(body));
    const fingerprint = `${route} ${JSON.stringify(body)}`;
    const seen = replays.get(key);
    if (seen) {
      if (seen.fingerprint !== fingerprint)
        throw new NameComError(409, 'Idempotency key has been reused for a different request');
      return json(seen.body, seen.status, {
        'x-idempotency-key': key,
        'x-idempotent-replay': '1',
      });
    }
    // Only a completed order is kept: a refused one (payment failed) may be tried again.
    const answer = run(body);
    replays.set(key, { fingerprint, status: 200, body: answer });
    return json(answer, 200, { 'x-idempotency-key': key });
  }

  async function api(request: Request, path: string): Promise<Response> {
    const isPost = request.method === 'POST';
    // Name.com refuses a POST that does not say it sends JSON.
    if (isPost && !/^application\/json\b/i.test(request.headers.get('content-type') ?? ''))
      throw new NameComError(
        415,
        "The 'Content-Type' header must be 'application/json' for this request.",
      );
    if (path === '/v4/domains:checkAvailability' && isPost) {
      const body = await bodyOf(request);
      return json({ results: registry.checkAvailability(body.domainNames) });
    }
    if (path === '/v4/domains' && isPost)
      return idempotent(request, path, (body) => onTheWire(registry.createDomain(body)));
    const renew = /^\/v4\/domains\/([^/]+):renew$/.exec(path);
    if (renew && isPost)
      return idempotent(request, path, (body) => onTheWire(registry.renewDomain(renew[1]!, body)));
    const one = /^\/v4\/domains\/([^/:]+)$/.exec(path);
    if (one && request.method === 'GET') return json(wireDomain(registry.getDomain(one[1]!)));
    if (renew || one || path === '/v4/domains' || path === '/v4/domains:checkAvailability')
      throw new NameComError(405, 'Method Not Allowed');
    throw new NameComError(404, 'Not Found', `No route for ${request.method} ${path}`);
  }

  async function controlApi(request: Request, parts: string[]): Promise<Response> {
    const [resource, rawName] = parts;
    const method = request.method;
    if (parts.length > 2) return control('Not found', 404);
    let name: string | undefined;
    if (rawName !== undefined) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(rawName);
      } catch {
        decoded = rawName;
      }
      const key = domainKey(decoded);
      if (!key) return control(`"${rawName}" is not a domain name.`, 422);
      name = key;
    }
    switch (`${method} ${resource}${name ? '/:name' : ''}`) {
      case 'GET domains':
        return json({ domains: registry.domains() });
      case 'GET domains/:name': {
        const held = registry.domains().find((domain) => domain.domainName === name);
        return held ? json(held) : control('Not registered here.', 404);
      }
      case 'PATCH domains/:name': {
        const body = await bodyOf(request);
        if (typeof body.expireDate !== 'string' || Number.isNaN(Date.parse(body.expireDate)))
          return control('expireDate must be an ISO 8601 date.', 422);
        const moved = registry.setExpireDate(name!, body.expireDate);
        return moved ? json(moved) : control('Not registered here.', 404);
      }
      case 'DELETE domains/:name':
        return registry.deleteDomain(name!) ? noContent() : control('Not registered here.', 404);
      case 'GET taken':
        return json({ taken: registry.taken() });
      case 'PUT taken/:name':
      case 'DELETE taken/:name':
        registry.setTaken(name!, method === 'PUT');
        return noContent();
      case 'GET premium':
        return json({ premium: registry.premium() });
      case 'PUT premium/:name': {
        const body = await bodyOf(request);
        const isPrice = (value: unknown) =>
          typeof value === 'number' && Number.isFinite(value) && value >= 0;
        if (
          !isPrice(body.purchasePrice) ||
          !(body.renewalPrice === undefined || isPrice(body.renewalPrice))
        )
          return control('purchasePrice (and renewalPrice, if given) must be amounts in USD.', 422);
        registry.setPremium(name!, {
          purchasePrice: body.purchasePrice as number,
          ...(body.renewalPrice === undefined ? {} : { renewalPrice: body.renewalPrice as number }),
        });
        return noContent();
      }
      case 'DELETE premium/:name':
        registry.setPremium(name!, null);
        return noContent();
      case 'GET failures':
        return json({ failures: registry.failures() });
      case 'POST failures': {
        const body = await bodyOf(request);
        const operation = FAILURE_OPERATIONS.find((value) => value === body.operation);
        const error = FAILURE_ERRORS.find((value) => value === body.error);
        if (!operation)
          return control(`operation must be ${FAILURE_OPERATIONS.join(' or ')}.`, 422);
        if (!error) return control(`error must be one of ${FAILURE_ERRORS.join(', ')}.`, 422);
        const failure: ArmedFailure = { operation, error };
        if (body.domainName !== undefined) {
          const key = domainKey(body.domainName);
          if (!key) return control('domainName must be a domain name.', 422);
          failure.domainName = key;
        }
        registry.armFailure(failure);
        return json({ failure }, 201);
      }
      case 'DELETE failures': {
        const raw = new URL(request.url).searchParams.get('domainName');
        const key = raw === null ? undefined : domainKey(raw);
        if (key === null) return control('domainName must be a domain name.', 422);
        return json({ cleared: registry.clearFailures(key) });
      }
      case 'GET prices':
        return json({ prices: registry.tldPrices() });
    }
    return control('Not found', 404);
  }

  const handler: WebHandler = async (request) => {
    const path = new URL(request.url).pathname.replace(/\/+$/, '') || '/';
    try {
      const given = basicCredentials(request.headers.get('authorization'));
      if (!given || !same(given.username, username) || !same(given.token, token))
        throw new NameComError(401, 'Unauthorized');
      const parts = path.split('/').filter(Boolean);
      if (parts[0] === 'control') {
        try {
          return await controlApi(request, parts.slice(1));
        } catch (error) {
          if (error instanceof NameComError) return control(error.details ?? error.message, 400);
          throw error;
        }
      }
      return await api(request, path);
    } catch (error) {
      if (error instanceof NameComError) return error.toResponse();
      throw error;
    }
  };

  return { handler, registry };
}

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { json, type WebHandler } from './http.ts';

/**
 * A local stand-in for hCaptcha, mounted by the gateway at /sandbox/hcaptcha. The portal's
 * sandbox widget "solves" by asking POST /token for a response token; the edge functions check
 * it with POST /siteverify exactly as they check a real one at api.hcaptcha.com (same form
 * fields, same JSON answer, same error codes). Tokens are single use, bound to the sitekey they
 * were issued for, and live 299 999 ms (the spec's bot-check expiry).
 *
 * Tokens are self-describing (`P1_<payload>.<hmac>`, as hCaptcha's are opaque `P1_` strings):
 * expiry needs no storage, and only tokens already verified are remembered, until they expire.
 */

/** hCaptcha's published test keys: safe to mirror, they protect nothing. */
export const SANDBOX_SITEKEY = '10000000-ffff-ffff-ffff-000000000001';
export const SANDBOX_SECRET = '0x0000000000000000000000000000000000000000';
export const SANDBOX_TOKEN_LIFETIME_MS = 299_999;

/** The siteverify error codes this sandbox answers with (a subset of hCaptcha's). */
export type SiteverifyErrorCode =
  | 'missing-input-secret'
  | 'invalid-input-secret'
  | 'missing-input-response'
  | 'invalid-input-response'
  | 'invalid-or-already-seen-response'
  | 'sitekey-secret-mismatch'
  | 'bad-request';

export interface SandboxSite {
  sitekey: string;
  secret: string;
}

export interface CaptchaSandboxOptions {
  sites?: SandboxSite[];
  lifetimeMs?: number;
  /** Milliseconds since the epoch; tests move it to expire tokens. */
  now?: () => number;
}

interface TokenClaims {
  sitekey: string;
  /** Issue time, ms. */
  iat: number;
  hostname: string;
  nonce: string;
}

const FORM = 'application/x-www-form-urlencoded';
const base64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

function hostnameOf(request: Request): string {
  const origin = request.headers.get('origin') ?? request.headers.get('referer');
  if (origin) {
    try {
      return new URL(origin).hostname;
    } catch {
      // An unreadable Origin says nothing about the page: fall through.
    }
  }
  return 'localhost';
}

const mediaType = (request: Request) =>
  request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();

/** The widget's request: form-encoded or JSON, whichever its fetch sends. */
async function widgetFields(request: Request): Promise<URLSearchParams | null> {
  const type = mediaType(request);
  const body = await request.text();
  if (type === FORM) return new URLSearchParams(body);
  if (type === 'application/json') {
    try {
      const value: unknown = JSON.parse(body);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
      const entries = Object.entries(value).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string',
      );
      return new URLSearchParams(entries);
    } catch {
      return null;
    }
  }
  return body === '' ? new URLSearchParams() : null;
}

const failure = (...codes: SiteverifyErrorCode[]) => json({ success: false, 'error-codes': codes });

export function createCaptchaSandbox(options: CaptchaSandboxOptions = {}): WebHandler {
  const sites = options.sites ?? [{ sitekey: SANDBOX_SITEKEY, secret: SANDBOX_SECRET }];
  const lifetimeMs = options.lifetimeMs ?? SANDBOX_TOKEN_LIFETIME_MS;
  const now = options.now ?? Date.now;
  const signingKey = randomBytes(32);
  /** token → when it stops mattering (its expiry): single use is enforced until then. */
  const seen = new Map<string, number>();

  const sign = (payload: string) =>
    createHmac('sha256', signingKey).update(payload).digest('base64url');

  function issue(sitekey: string, hostname: string): string {
    const claims: TokenClaims = {
      sitekey,
      iat: now(),
      hostname,
      nonce: randomBytes(16).toString('base64url'),
    };
    const payload = base64url(JSON.stringify(claims));
    return `P1_${payload}.${sign(payload)}`;
  }

  function read(token: string): TokenClaims | null {
    const match = token.match(/^P1_([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/);
    if (!match?.[1] || !match[2]) return null;
    const expected = Buffer.from(sign(match[1]));
    const given = Buffer.from(match[2]);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    return JSON.parse(Buffer.from(match[1], 'base64url').toString('utf8')) as TokenClaims;
  }

  function forgetExpired(at: number) {
    for (const [token, expiresAt] of seen) if (expiresAt <= at) seen.delete(token);
  }

  async function token(request: Request): Promise<Response> {
    const fields = await widgetFields(request);
    const sitekey = fields?.get('sitekey');
    if (!sitekey) return json({ success: false, 'error-codes': ['missing-input-sitekey'] }, 400);
    if (!sites.some((site) => site.sitekey === sitekey))
      return json({ success: false, 'error-codes': ['invalid-sitekey'] }, 400);
    return json({
      success: true,
      response: issue(sitekey, hostnameOf(request)),
      sitekey,
      expires_in_ms: lifetimeMs,
    });
  }

  async function siteverify(request: Request): Promise<Response> {
    // siteverify takes a form-encoded body only, as hCaptcha's does.
    if (mediaType(request) !== FORM) return failure('bad-request');
    const fields = new URLSearchParams(await request.text());
    const secret = fields.get('secret');
    const response = fields.get('response');
    const expectedSitekey = fields.get('sitekey');
    if (!secret) return failure('missing-input-secret');
    const site = sites.find((candidate) => candidate.secret === secret);
    if (!site) return failure('invalid-input-secret');
    if (!response) return failure('missing-input-response');
    if (expectedSitekey && expectedSitekey !== site.sitekey)
      return failure('sitekey-secret-mismatch');
    const claims = read(response);
    if (!claims) return failure('invalid-input-response');
    if (claims.sitekey !== site.sitekey) return failure('sitekey-secret-mismatch');

    const at = now();
    forgetExpired(at);
    const expiresAt = claims.iat + lifetimeMs;
    // hCaptcha gives one code for both replayed and expired tokens.
    if (at >= expiresAt || seen.has(response)) return failure('invalid-or-already-seen-response');
    seen.set(response, expiresAt);
    return json({
      success: true,
      challenge_ts: new Date(claims.iat).toISOString(),
      hostname: claims.hostname,
      credit: false,
    });
  }

  return async (request) => {
    const path = new URL(request.url).pathname.replace(/\/+$/, '');
    const route = path === '/token' ? token : path === '/siteverify' ? siteverify : undefined;
    if (!route) return json({ message: 'Not found' }, 404);
    if (request.method !== 'POST')
      return json({ message: 'Method not allowed' }, 405, { allow: 'POST' });
    return route(request);
  };
}

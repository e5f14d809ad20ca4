import { isIP } from 'node:net';
import type pg from 'pg';
import type { Mailer } from '../mail.ts';
import type { AuthRateLimits } from './rate-limits.ts';
import type { AuthSettings } from './settings.ts';

/** What every handler of the auth service works with. */
export interface AuthContext {
  settings: AuthSettings;
  /** Connected as supabase_auth_admin, the owner of the auth schema. */
  pool: pg.Pool;
  mailer: Mailer;
  /** GoTrue's per-address request limits and the project's e-mail limit. */
  rateLimits: AuthRateLimits;
}

/** Facts about the HTTP request GoTrue stores with sessions, challenges and audit entries. */
export interface ClientInfo {
  ip: string;
  userAgent: string | null;
}

/**
 * The client as the gateway names it in X-Forwarded-For: the gateway puts there only the address
 * it trusts (its socket's peer, or what a configured trusted proxy forwarded), as Kong does for
 * GoTrue, which reads the header's first address. A request that reached this service some other
 * way (a test calling the handler) counts as local.
 */
export function clientInfo(request: Request): ClientInfo {
  const forwarded = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim();
  return {
    ip: forwarded && isIP(forwarded) ? forwarded : '127.0.0.1',
    userAgent: request.headers.get('user-agent'),
  };
}

import { isIP } from 'node:net';
import type pg from 'pg';
import type { Mailer } from '../mail.ts';
import type { AuthSettings } from './settings.ts';

/** What every handler of the auth service works with. */
export interface AuthContext {
  settings: AuthSettings;
  /** Connected as supabase_auth_admin, the owner of the auth schema. */
  pool: pg.Pool;
  mailer: Mailer;
}

/** Facts about the HTTP request GoTrue stores with sessions, challenges and audit entries. */
export interface ClientInfo {
  ip: string;
  userAgent: string | null;
}

/**
 * The gateway listens on loopback only, so every client is local; a proxy in front of it may
 * name the real client in X-Forwarded-For, which GoTrue honours too.
 */
export function clientInfo(request: Request): ClientInfo {
  const forwarded = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim();
  return {
    ip: forwarded && isIP(forwarded) ? forwarded : '127.0.0.1',
    userAgent: request.headers.get('user-agent'),
  };
}

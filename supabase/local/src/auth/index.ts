import type pg from 'pg';
import type { StackConfig } from '../config.ts';
import { notImplemented } from '../gateway.ts';
import type { WebHandler } from '../http.ts';
import type { Mailer } from '../mail.ts';

export interface AuthDependencies {
  config: StackConfig;
  /** Connected as supabase_auth_admin, the owner of the auth schema (as GoTrue connects). */
  pool: pg.Pool;
  mailer: Mailer;
}

/** GoTrue-compatible HTTP API; requests arrive with the /auth/v1 prefix removed. */
export function createAuthService(_deps: AuthDependencies): WebHandler {
  return notImplemented;
}

import type pg from 'pg';
import type { StackConfig } from '../config.ts';
import type { WebHandler } from '../http.ts';
import type { Mailer } from '../mail.ts';
import type { AuthContext } from './context.ts';
import { adminFactorRoutes } from './handlers/admin-factors.ts';
import { adminLinkRoutes } from './handlers/admin-links.ts';
import { adminSsoRoutes } from './handlers/admin-sso.ts';
import { adminRoutes } from './handlers/admin.ts';
import { disabledFeatureRoutes } from './handlers/disabled.ts';
import { logoutRoutes } from './handlers/logout.ts';
import { metaRoutes } from './handlers/meta.ts';
import { mfaRoutes } from './handlers/mfa.ts';
import { recoverRoutes } from './handlers/recover.ts';
import { signupRoutes } from './handlers/signup.ts';
import { ssoRoutes } from './handlers/sso.ts';
import { tokenRoutes } from './handlers/token.ts';
import { userRoutes } from './handlers/user.ts';
import { verifyRoutes } from './handlers/verify.ts';
import {
  AuthRateLimits,
  loadRateLimitSettings,
  type AuthRateLimitSettings,
} from './rate-limits.ts';
import { Router } from './router.ts';
import { ensureSsoSchema } from './saml/schema.ts';
import { loadAuthSettings, type AuthSettings } from './settings.ts';

export type { AuthSettings } from './settings.ts';

export interface AuthDependencies {
  config: StackConfig;
  /** Connected as supabase_auth_admin, the owner of the auth schema (as GoTrue connects). */
  pool: pg.Pool;
  mailer: Mailer;
  /** Replaces settings read from supabase/config.toml (tools and tests). */
  settings?: Partial<AuthSettings>;
  /** Replaces rate limits read from supabase/config.toml and STACK_AUTH_RATE_LIMIT_* (tests). */
  rateLimits?: Partial<AuthRateLimitSettings>;
}

/** GoTrue-compatible HTTP API; requests arrive with the /auth/v1 prefix removed. */
export function createAuthService(deps: AuthDependencies): WebHandler {
  const context: AuthContext = {
    settings: loadAuthSettings(deps.config, deps.settings),
    pool: deps.pool,
    mailer: deps.mailer,
    rateLimits: new AuthRateLimits(loadRateLimitSettings(deps.rateLimits)),
  };
  const router = new Router();
  if (context.settings.saml.enabled) {
    ensureSsoSchema(deps.pool).catch((error: unknown) =>
      console.error('auth: could not create the SSO tables', error),
    );
  }
  const sso = context.settings.saml.enabled ? [ssoRoutes, adminSsoRoutes] : [];
  for (const register of [
    ...sso,
    metaRoutes,
    signupRoutes,
    tokenRoutes,
    verifyRoutes,
    recoverRoutes,
    logoutRoutes,
    userRoutes,
    mfaRoutes,
    adminRoutes,
    adminFactorRoutes,
    adminLinkRoutes,
    disabledFeatureRoutes,
  ]) {
    register(router, context);
  }
  return router.handle;
}

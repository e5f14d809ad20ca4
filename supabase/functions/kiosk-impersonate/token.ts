/**
 * The impersonation token: an access token for the target user, signed with the project's JWT
 * secret (HS256, as Auth signs), naming the impersonating staff member in an `impersonator`
 * claim (their user id) and the audit log row in `impersonation_id`. It belongs to no Auth
 * session, so it cannot be refreshed: the impersonation ends when it expires.
 */
import type { User } from '@supabase/supabase-js';
import type { Impersonator } from '../_shared/kiosk/staff.ts';
import { signHs256 } from '../_shared/jwt.ts';

/** How long an impersonation lasts at most. */
export const IMPERSONATION_SECONDS = 3600;

export interface ImpersonationToken {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
}

/**
 * The claims Auth puts in a user's access token (iss, sub, aud, exp, iat, email, phone,
 * app_metadata, user_metadata, role, aal, amr, is_anonymous), without session_id, at aal1 (an
 * impersonation never passes the user's second factor), with `impersonation` as the method;
 * plus `impersonator` and `impersonation_id`.
 */
export async function impersonationToken(options: {
  secret: string;
  issuer: string;
  user: User;
  impersonator: Impersonator;
  now?: Date;
}): Promise<ImpersonationToken> {
  const issuedAt = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const expiresAt = issuedAt + IMPERSONATION_SECONDS;
  const { user } = options;
  const access_token = await signHs256(options.secret, {
    iss: options.issuer,
    sub: user.id,
    aud: user.aud || 'authenticated',
    exp: expiresAt,
    iat: issuedAt,
    email: user.email ?? '',
    phone: user.phone ?? '',
    app_metadata: user.app_metadata ?? {},
    user_metadata: user.user_metadata ?? {},
    role: user.role || 'authenticated',
    aal: 'aal1',
    amr: [{ method: 'impersonation', timestamp: issuedAt }],
    is_anonymous: user.is_anonymous ?? false,
    impersonator: options.impersonator.user_id,
    impersonation_id: options.impersonator.impersonation_id,
  });
  return {
    access_token,
    token_type: 'bearer',
    expires_in: IMPERSONATION_SECONDS,
    expires_at: expiresAt,
  };
}

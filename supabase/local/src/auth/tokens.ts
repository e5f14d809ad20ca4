import { signToken, type AccessTokenClaims } from '../jwt.ts';
import { recordAudit } from './audit.ts';
import type { AuthContext, ClientInfo } from './context.ts';
import { CommitThenFail, transaction, type Db } from './db.ts';
import { AuthApiError, badRequest } from './errors.ts';
import {
  addAmrClaim,
  assurance,
  createRefreshToken,
  createSession,
  findActiveRefreshToken,
  lockRefreshToken,
  lockSession,
  markSessionRefreshed,
  revokeSessionTokens,
  setSessionAal,
  swapRefreshToken,
  type AuthenticationMethod,
} from './sessions.ts';
import type { AuthSettings } from './settings.ts';
import { findUserById, isBanned, lockUser, type User } from './users.ts';
import { userJson } from './user-json.ts';

/** GoTrue's AccessTokenResponse. */
export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: ReturnType<typeof userJson>;
}

export async function accessToken(
  db: Db,
  settings: AuthSettings,
  user: User,
  sessionId: string,
): Promise<{ token: string; expiresAt: number }> {
  const { aal, amr } = await assurance(db, sessionId);
  const issuedAt = Math.floor(Date.now() / 1000);
  const expiresAt = issuedAt + settings.jwtExpirySeconds;
  // Key order follows GoTrue's claims struct, so tokens read the same when decoded.
  const claims: AccessTokenClaims = {
    iss: settings.jwtIssuer,
    sub: user.id,
    aud: user.aud ?? settings.audience,
    exp: expiresAt,
    iat: issuedAt,
    email: user.email ?? '',
    phone: user.phone ?? '',
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    role: user.role ?? '',
    aal,
    amr,
    session_id: sessionId,
    is_anonymous: user.is_anonymous,
  };
  return { token: await signToken(settings.jwtSecret, claims), expiresAt };
}

async function tokenResponse(
  db: Db,
  settings: AuthSettings,
  userId: string,
  sessionId: string,
  refreshToken: string,
): Promise<TokenResponse> {
  const user = await findUserById(db, userId);
  if (!user) throw new AuthApiError(500, 'unexpected_failure', 'User disappeared while signing in');
  const { token, expiresAt } = await accessToken(db, settings, user, sessionId);
  return {
    access_token: token,
    token_type: 'bearer',
    expires_in: expiresAt - Math.floor(Date.now() / 1000),
    expires_at: expiresAt,
    refresh_token: refreshToken,
    user: userJson(user),
  };
}

/** A new session for a user who just authenticated (GoTrue's IssueRefreshToken). */
export async function issueSession(
  db: Db,
  settings: AuthSettings,
  userId: string,
  method: AuthenticationMethod,
  client: ClientInfo,
): Promise<TokenResponse> {
  const sessionId = await createSession(db, userId, client);
  const refreshToken = await createRefreshToken(db, userId, sessionId, null);
  await db.query('update auth.users set last_sign_in_at = now() where id = $1', [userId]);
  await addAmrClaim(db, sessionId, method);
  return tokenResponse(db, settings, userId, sessionId, refreshToken);
}

/**
 * After a second factor: the session gains the claim, is raised to aal2 and gets a fresh
 * refresh token so the aal1 one can no longer mint aal2 sessions (updateMFASessionAndClaims).
 */
export async function upgradeSession(
  db: Db,
  settings: AuthSettings,
  userId: string,
  sessionId: string,
  method: AuthenticationMethod,
  factorId: string,
): Promise<TokenResponse> {
  await addAmrClaim(db, sessionId, method);
  const current = await findActiveRefreshToken(db, sessionId);
  const refreshToken = current
    ? await swapRefreshToken(db, current, sessionId)
    : await createRefreshToken(db, userId, sessionId, null);
  const { aal } = await assurance(db, sessionId);
  await setSessionAal(db, sessionId, aal, factorId);
  return tokenResponse(db, settings, userId, sessionId, refreshToken);
}

const LEGACY_REFRESH_TOKEN = /^[a-z0-9]{12}$/;

/** grant_type=refresh_token with rotation and GoTrue's reuse detection. */
export async function refreshTokenGrant(
  { settings, pool }: AuthContext,
  presented: string,
  client: ClientInfo,
): Promise<TokenResponse> {
  if (presented.length < 12 || (presented.length === 12 && !LEGACY_REFRESH_TOKEN.test(presented))) {
    throw badRequest('validation_failed', 'Refresh token is not valid');
  }
  if (presented.length > 12) {
    // Only legacy (database-stored) refresh tokens are issued here, so a longer one is not ours.
    throw badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
  }
  return transaction(pool, async (tx) => {
    const token = await lockRefreshToken(tx, presented);
    if (!token) {
      throw badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
    }
    const user = await findUserById(tx, token.user_id);
    if (!user) {
      throw badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
    }
    if (isBanned(user)) throw badRequest('user_banned', 'Invalid Refresh Token: User Banned');
    const session = token.session_id ? await lockSession(tx, token.session_id) : undefined;
    if (!session) {
      await tx.query('delete from auth.refresh_tokens where id = $1', [token.id]);
      throw new CommitThenFail(
        badRequest('session_not_found', 'Invalid Refresh Token: No Valid Session Found'),
      );
    }
    if (session.not_after && Date.now() > session.not_after.getTime()) {
      throw badRequest('session_expired', 'Invalid Refresh Token: Session Expired');
    }
    await lockUser(tx, user.id);

    let issued: string | undefined;
    if (token.revoked) {
      const active = await findActiveRefreshToken(tx, session.id);
      if (active && active.parent === token.token) {
        // The client lost the answer to its last refresh: hand it the token it missed.
        issued = active.token;
      } else {
        const reuseUntil =
          token.updated_at.getTime() + settings.refreshTokenReuseIntervalSeconds * 1000;
        if (Date.now() > reuseUntil) {
          if (settings.refreshTokenRotation) await revokeSessionTokens(tx, session.id);
          throw new CommitThenFail(
            badRequest('refresh_token_already_used', 'Invalid Refresh Token: Already Used'),
          );
        }
      }
    }
    await recordAudit(tx, user, 'token_refreshed', client);
    if (!issued) {
      await recordAudit(tx, user, 'token_revoked', client);
      issued = await swapRefreshToken(tx, token, session.id);
    }
    await markSessionRefreshed(tx, session.id, client);
    return tokenResponse(tx, settings, user.id, session.id, issued);
  });
}

import { errors as joseErrors, jwtVerify } from 'jose';
import type { AccessTokenClaims } from '../jwt.ts';
import type { AuthContext } from './context.ts';
import { NIL_UUID } from './db.ts';
import { badRequest, forbidden, unauthorized } from './errors.ts';
import { isUuid } from './params.ts';
import { findSession, type SessionRow } from './sessions.ts';
import { findUserById, isBanned, type User } from './users.ts';

/**
 * GoTrue's requireAuthentication and requireAdminCredentials: the bearer token is parsed the way
 * golang-jwt parses it (so failures read the same), then its user and session are loaded.
 */

export interface Authenticated {
  claims: AccessTokenClaims;
  user: User;
  /** Absent only for tokens without a session_id claim (hand-made ones). */
  session: SessionRow | undefined;
}

const encoder = new TextEncoder();

function bearerOf(request: Request): string {
  const match = request.headers.get('authorization')?.match(/^Bearer\s+(\S+)\s*$/i);
  if (!match?.[1]) {
    throw unauthorized('no_authorization', 'This endpoint requires a valid Bearer token');
  }
  return match[1];
}

/** A JWT segment's JSON object, or golang-jwt's complaint about it. */
function decodeSegment(
  segment: string,
  what: 'header' | 'claim',
): { value: Record<string, unknown> } | { failure: string } {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  } catch (error) {
    return {
      failure: `token is malformed: could not JSON decode ${what}: ${(error as Error).message}`,
    };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      failure: `token is malformed: could not JSON decode ${what}: json: cannot unmarshal ${typeof value} into a map`,
    };
  }
  return { value: value as Record<string, unknown> };
}

/** Why golang-jwt v5 refuses a token, in its words. */
async function jwtFailure(token: string, secret: string): Promise<string | undefined> {
  const parts = token.split('.');
  if (parts.length !== 3) return 'token is malformed: token contains an invalid number of segments';
  const header = decodeSegment(parts[0]!, 'header');
  if ('failure' in header) return header.failure;
  const claims = decodeSegment(parts[1]!, 'claim');
  if ('failure' in claims) return claims.failure;
  const alg = header.value.alg;
  if (alg !== 'HS256') {
    return `token signature is invalid: signing method ${String(alg)} is invalid`;
  }
  try {
    await jwtVerify(token, encoder.encode(secret), { algorithms: ['HS256'] });
    return undefined;
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) return 'token has invalid claims: token is expired';
    if (error instanceof joseErrors.JWTClaimValidationFailed && error.claim === 'nbf')
      return 'token has invalid claims: token is not valid yet';
    if (error instanceof joseErrors.JWTClaimValidationFailed)
      return `token has invalid claims: ${error.message}`;
    if (error instanceof joseErrors.JWSSignatureVerificationFailed)
      return 'token signature is invalid: signature is invalid';
    return `token is malformed: ${(error as Error).message}`;
  }
}

async function parseClaims(context: AuthContext, request: Request): Promise<AccessTokenClaims> {
  const token = bearerOf(request);
  const failure = await jwtFailure(token, context.settings.jwtSecret);
  if (failure) {
    throw forbidden('bad_jwt', `invalid JWT: unable to parse or verify signature, ${failure}`);
  }
  const decoded = decodeSegment(token.split('.')[1]!, 'claim');
  return ('value' in decoded ? decoded.value : {}) as AccessTokenClaims;
}

async function loadUserAndSession(
  context: AuthContext,
  claims: AccessTokenClaims,
): Promise<Authenticated> {
  const subject = claims.sub;
  if (typeof subject !== 'string' || subject === '') {
    throw forbidden('bad_jwt', 'invalid claim: missing sub claim');
  }
  if (!isUuid(subject)) throw badRequest('bad_jwt', 'invalid claim: sub claim must be a UUID');
  const user = await findUserById(context.pool, subject);
  if (!user) throw forbidden('user_not_found', 'User from sub claim in JWT does not exist');

  let session: SessionRow | undefined;
  const sessionId = claims.session_id;
  if (typeof sessionId === 'string' && sessionId !== '' && sessionId !== NIL_UUID) {
    if (!isUuid(sessionId)) {
      throw forbidden('bad_jwt', 'invalid claim: session_id claim must be a UUID');
    }
    session = await findSession(context.pool, sessionId);
    if (!session) {
      throw forbidden('session_not_found', 'Session from session_id claim in JWT does not exist');
    }
  }
  return { claims, user, session };
}

export async function requireAuthentication(
  context: AuthContext,
  request: Request,
): Promise<Authenticated> {
  const claims = await parseClaims(context, request);
  const authenticated = await loadUserAndSession(context, claims);
  if (isBanned(authenticated.user)) throw forbidden('user_banned', 'User is banned');
  return authenticated;
}

/** The admin API: any token whose role is an admin role (service_role), else "User not allowed". */
export async function requireAdmin(context: AuthContext, request: Request): Promise<string> {
  const claims = await parseClaims(context, request);
  if (
    typeof claims.session_id === 'string' &&
    claims.session_id !== '' &&
    claims.session_id !== NIL_UUID
  ) {
    // A user token with an admin role still has to belong to a live session.
    await loadUserAndSession(context, claims);
  }
  if (!context.settings.adminRoles.includes(claims.role)) {
    throw forbidden('not_admin', 'User not allowed');
  }
  return claims.role;
}

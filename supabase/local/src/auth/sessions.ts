import { randomUUID } from 'node:crypto';
import type { ClientInfo } from './context.ts';
import { NIL_UUID, type Db } from './db.ts';
import { secureAlphanumeric } from './one-time-tokens.ts';

/**
 * auth.sessions, auth.refresh_tokens and auth.mfa_amr_claims: a session is one sign-in; its
 * refresh tokens form a chain (each names its parent) of which only the newest is unrevoked;
 * its AMR claims record how the user authenticated and decide its assurance level.
 */

export interface SessionRow {
  id: string;
  user_id: string;
  created_at: Date;
  updated_at: Date;
  factor_id: string | null;
  aal: 'aal1' | 'aal2' | 'aal3' | null;
  not_after: Date | null;
}

export interface RefreshTokenRow {
  id: string;
  token: string;
  user_id: string;
  revoked: boolean;
  created_at: Date;
  updated_at: Date;
  parent: string | null;
  session_id: string | null;
}

/** GoTrue's authentication methods, as stored in mfa_amr_claims and shown in the amr claim. */
export type AuthenticationMethod =
  | 'password'
  | 'otp'
  | 'totp'
  | 'recovery'
  | 'invite'
  | 'magiclink'
  | 'email/signup'
  | 'email_change'
  | 'anonymous'
  | 'sso/saml';

const SECOND_FACTOR_METHODS = new Set(['totp', 'mfa/phone', 'mfa/webauthn']);

export interface AmrEntry {
  method: string;
  timestamp: number;
}

export async function findSession(db: Db, id: string): Promise<SessionRow | undefined> {
  const { rows } = await db.query<SessionRow>('select * from auth.sessions where id = $1', [id]);
  return rows[0];
}

export async function createSession(
  db: Db,
  userId: string,
  client: ClientInfo,
  factorId: string | null = null,
): Promise<string> {
  const id = randomUUID();
  await db.query(
    `insert into auth.sessions (id, user_id, created_at, updated_at, factor_id, aal, user_agent, ip)
     values ($1, $2, now(), now(), $3, 'aal1', $4, $5)`,
    [id, userId, factorId, client.userAgent, client.ip],
  );
  return id;
}

/** A new refresh token in the session's chain. */
export async function createRefreshToken(
  db: Db,
  userId: string,
  sessionId: string,
  parent: string | null,
): Promise<string> {
  const token = secureAlphanumeric(12);
  await db.query(
    `insert into auth.refresh_tokens
       (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
     values ($1, $2, $3, false, now(), now(), $4, $5)`,
    [NIL_UUID, token, userId, parent, sessionId],
  );
  return token;
}

/** The token row, locked for the transaction so concurrent refreshes of it serialise. */
export async function lockRefreshToken(
  db: Db,
  token: string,
): Promise<RefreshTokenRow | undefined> {
  const { rows } = await db.query<RefreshTokenRow>(
    'select * from auth.refresh_tokens where token = $1 for update',
    [token],
  );
  return rows[0];
}

export async function lockSession(db: Db, id: string): Promise<SessionRow | undefined> {
  const { rows } = await db.query<SessionRow>(
    'select * from auth.sessions where id = $1 for update',
    [id],
  );
  return rows[0];
}

export async function findActiveRefreshToken(
  db: Db,
  sessionId: string,
): Promise<RefreshTokenRow | undefined> {
  const { rows } = await db.query<RefreshTokenRow>(
    `select * from auth.refresh_tokens
      where session_id = $1 and revoked = false order by id desc limit 1`,
    [sessionId],
  );
  return rows[0];
}

/** Rotation: revoke the presented token and chain a new one to it. */
export async function swapRefreshToken(
  db: Db,
  token: RefreshTokenRow,
  sessionId: string,
): Promise<string> {
  await db.query(
    'update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1',
    [token.id],
  );
  return createRefreshToken(db, token.user_id, sessionId, token.token);
}

/** Reuse detected: every token of the session is revoked (GoTrue's RevokeTokenFamily). */
export async function revokeSessionTokens(db: Db, sessionId: string): Promise<void> {
  await db.query(
    `update auth.refresh_tokens set revoked = true, updated_at = now()
      where session_id = $1 and revoked = false`,
    [sessionId],
  );
}

export async function markSessionRefreshed(
  db: Db,
  sessionId: string,
  client: ClientInfo,
): Promise<void> {
  await db.query(
    `update auth.sessions set refreshed_at = timezone('utc', now()), user_agent = $2, ip = $3,
            updated_at = now()
      where id = $1`,
    [sessionId, client.userAgent, client.ip],
  );
}

export async function addAmrClaim(
  db: Db,
  sessionId: string,
  method: AuthenticationMethod,
): Promise<void> {
  await db.query(
    `insert into auth.mfa_amr_claims (id, session_id, created_at, updated_at, authentication_method)
     values ($1, $2, now(), now(), $3)
     on conflict on constraint mfa_amr_claims_session_id_authentication_method_pkey
     do update set updated_at = now()`,
    [randomUUID(), sessionId, method],
  );
}

/** The session's assurance level and AMR, most recent method first (CalculateAALAndAMR). */
export async function assurance(
  db: Db,
  sessionId: string,
): Promise<{ aal: 'aal1' | 'aal2'; amr: AmrEntry[] }> {
  const { rows } = await db.query<{ authentication_method: string; updated_at: Date }>(
    'select authentication_method, updated_at from auth.mfa_amr_claims where session_id = $1',
    [sessionId],
  );
  const amr = rows
    .map((row) => ({
      method: row.authentication_method,
      timestamp: Math.floor(row.updated_at.getTime() / 1000),
    }))
    .sort((a, b) => b.timestamp - a.timestamp);
  const aal = rows.some((row) => SECOND_FACTOR_METHODS.has(row.authentication_method))
    ? 'aal2'
    : 'aal1';
  return { aal, amr };
}

export async function setSessionAal(
  db: Db,
  sessionId: string,
  aal: 'aal1' | 'aal2',
  factorId: string | null,
): Promise<void> {
  await db.query(
    'update auth.sessions set aal = $2, factor_id = $3, updated_at = now() where id = $1',
    [sessionId, aal, factorId],
  );
}

export async function deleteSession(db: Db, sessionId: string): Promise<void> {
  await db.query('delete from auth.sessions where id = $1', [sessionId]);
}

export async function deleteUserSessions(db: Db, userId: string): Promise<void> {
  await db.query('delete from auth.sessions where user_id = $1', [userId]);
}

export async function deleteOtherSessions(db: Db, userId: string, keep: string): Promise<void> {
  await db.query('delete from auth.sessions where user_id = $1 and id <> $2', [userId, keep]);
}

/** After an MFA verification, sessions of the user still below aal2 are ended. */
export async function deleteSessionsBelowAal2(db: Db, userId: string): Promise<void> {
  await db.query(`delete from auth.sessions where user_id = $1 and aal < 'aal2'`, [userId]);
}

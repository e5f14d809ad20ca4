/**
 * kiosk-impersonate: staff see the portal as a user sees it, and come back (token.ts: the
 * token's `impersonator` and `impersonation_id` claims).
 *
 *   POST { action: "start", user_id }  (a staff member's token)
 *     → { access_token, token_type, expires_in, expires_at, impersonation_id, user }
 *   POST { action: "stop" }            (the impersonation token itself)
 *     → { impersonation_id, impersonator_id }
 *
 * Start checks the caller is staff, that the target exists, is not staff (no borrowing another
 * staff member's powers) and is not banned, records `impersonation.started` in the kiosk audit
 * log, and mints the token (token.ts) naming that log row. Stop records
 * `impersonation.stopped` once per impersonation (a second stop answers the same, records
 * nothing). The portal keeps the staff member's own session aside meanwhile and restores it at
 * /app/kiosk/user/stop-impersonating.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { callerOf } from '../_shared/caller.ts';
import { requireEnv } from '../_shared/env.ts';
import { handler, HttpError, json } from '../_shared/http.ts';
import { recordKioskAction } from '../_shared/kiosk/audit.ts';
import { invalid, readAction, readBody, readUserId } from '../_shared/kiosk/request.ts';
import { impersonationClaim, permissionDenied, requireStaff } from '../_shared/kiosk/staff.ts';
import { sql } from '../_shared/sql.ts';
import { serviceClient } from '../_shared/supabase.ts';
import { impersonationToken } from './token.ts';

export const IMPERSONATE_ACTIONS = ['start', 'stop'] as const;

export interface ImpersonateDependencies {
  admin: () => SupabaseClient;
  /** The secret Auth signs access tokens with (AUTH_JWT_SECRET). */
  jwtSecret: () => string;
  /** The token issuer, as Auth writes it: <SUPABASE_URL>/auth/v1. */
  issuer: () => string;
}

export const impersonateDependenciesFromEnv = (): ImpersonateDependencies => ({
  admin: serviceClient,
  jwtSecret: () => requireEnv('AUTH_JWT_SECRET'),
  issuer: () => `${requireEnv('SUPABASE_URL').replace(/\/+$/, '')}/auth/v1`,
});

async function start(
  request: Request,
  body: Record<string, unknown>,
  deps: ImpersonateDependencies,
) {
  const staff = await requireStaff(request);
  const userId = readUserId(body);
  if (userId === staff.id) throw invalid('user_id', 'You cannot impersonate yourself.');
  const { data, error } = await deps.admin().auth.admin.getUserById(userId);
  if (error?.status === 404 || (!error && !data.user)) {
    throw new HttpError(404, 'User not found', 'user_not_found');
  }
  if (error) throw error;
  const user = data.user;
  const [profile] = await sql()<{ is_developer: boolean }[]>`
    select is_developer from public.profiles where id = ${userId}`;
  if (profile?.is_developer) {
    throw new HttpError(403, 'Staff members cannot be impersonated', 'cannot_impersonate_staff');
  }
  if (user.banned_until && new Date(user.banned_until) > new Date()) {
    throw new HttpError(422, 'A banned user cannot be impersonated', 'user_banned', {
      user_id: ['A banned user cannot be impersonated'],
    });
  }
  const impersonationId = await recordKioskAction({
    actorId: staff.id,
    action: 'impersonation.started',
    subjectUserId: userId,
  });
  const token = await impersonationToken({
    secret: deps.jwtSecret(),
    issuer: deps.issuer(),
    user,
    impersonator: { user_id: staff.id, impersonation_id: impersonationId },
  });
  return json({
    ...token,
    impersonation_id: impersonationId,
    user: { id: user.id, email: user.email ?? null },
  });
}

async function stop(request: Request) {
  const { claims } = callerOf(request);
  const impersonator = impersonationClaim(claims);
  if (!impersonator || typeof claims.sub !== 'string') {
    throw new HttpError(422, 'This session is not an impersonation', 'not_impersonating');
  }
  if (!Number.isInteger(impersonator.impersonation_id)) throw permissionDenied();
  const [started] = await sql()<{ id: string }[]>`
    select id from public.kiosk_audit_log
    where id = ${impersonator.impersonation_id} and action = 'impersonation.started'
      and actor_id = ${impersonator.user_id} and subject_user_id = ${claims.sub}`;
  // The token is signed, so this only happens if the log row was removed: refuse to guess.
  if (!started) throw permissionDenied();
  await sql()`
    insert into public.kiosk_audit_log (actor_id, action, subject_user_id, details)
    values (${impersonator.user_id}, 'impersonation.stopped', ${claims.sub},
      ${sql().json({ impersonation_id: String(impersonator.impersonation_id) })})
    on conflict ((details ->> 'impersonation_id')) where action = 'impersonation.stopped'
    do nothing`;
  return json({
    impersonation_id: impersonator.impersonation_id,
    impersonator_id: impersonator.user_id,
  });
}

export function createImpersonateHandler(
  deps: ImpersonateDependencies = impersonateDependenciesFromEnv(),
) {
  return handler(async (request) => {
    const body = await readBody(request);
    const action = readAction(body, IMPERSONATE_ACTIONS);
    return action === 'start' ? start(request, body, deps) : stop(request);
  });
}

/**
 * kiosk-users: the users screen's actions that only Auth can carry out, for staff only.
 *
 *   POST { action: "ban",       user_id }  bans the user (no sign-in, no token refresh)
 *   POST { action: "unban",     user_id }  lifts the ban
 *   POST { action: "reset_mfa", user_id }  deletes every MFA factor (the user enrols again)
 *
 * Staff are checked first (requireStaff), then the Auth admin API is called with the service
 * role, and each action is written to the kiosk audit log. A ban does not end access tokens
 * already issued: they lapse within the JWT expiry (an hour), as with GoTrue.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { handler, HttpError, json } from '../_shared/http.ts';
import { recordKioskAction } from '../_shared/kiosk/audit.ts';
import { readAction, readBody, readUserId } from '../_shared/kiosk/request.ts';
import { requireStaff } from '../_shared/kiosk/staff.ts';
import { serviceClient } from '../_shared/supabase.ts';

export const USER_ACTIONS = ['ban', 'unban', 'reset_mfa'] as const;

/** GoTrue's way of saying "until further notice": a ban of about a hundred years. */
export const PERMANENT_BAN = '876000h';

const userNotFound = () => new HttpError(404, 'User not found', 'user_not_found');

async function existingUser(admin: SupabaseClient, userId: string) {
  const { data, error } = await admin.auth.admin.getUserById(userId);
  if (error?.status === 404 || (!error && !data.user)) throw userNotFound();
  if (error) throw error;
  return data.user;
}

export function createKioskUsersHandler(admin: () => SupabaseClient = serviceClient) {
  return handler(async (request) => {
    const staff = await requireStaff(request);
    const body = await readBody(request);
    const action = readAction(body, USER_ACTIONS);
    const userId = readUserId(body);
    if (userId === staff.id && action === 'ban') {
      throw new HttpError(422, 'You cannot ban yourself', 'cannot_target_self', {
        user_id: ['You cannot ban yourself'],
      });
    }
    const client = admin();
    await existingUser(client, userId);

    if (action === 'reset_mfa') {
      const { data, error } = await client.auth.admin.mfa.listFactors({ userId });
      if (error) throw error;
      for (const factor of data.factors) {
        const removed = await client.auth.admin.mfa.deleteFactor({ id: factor.id, userId });
        if (removed.error) throw removed.error;
      }
      await recordKioskAction({
        actorId: staff.id,
        action: 'user.mfa_reset',
        subjectUserId: userId,
        details: { factors: data.factors.map((factor) => factor.factor_type) },
      });
      return json({ user_id: userId, deleted_factors: data.factors.length });
    }

    const banned = action === 'ban';
    const { data, error } = await client.auth.admin.updateUserById(userId, {
      ban_duration: banned ? PERMANENT_BAN : 'none',
    });
    if (error) throw error;
    await recordKioskAction({
      actorId: staff.id,
      action: banned ? 'user.banned' : 'user.unbanned',
      subjectUserId: userId,
    });
    return json({ user_id: userId, banned_until: data.user.banned_until ?? null });
  });
}

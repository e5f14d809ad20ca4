import { randomUUID } from 'node:crypto';
import type { ClientInfo } from './context.ts';
import { NIL_UUID, type Db } from './db.ts';

/** GoTrue's audit actions and the log type each is filed under (models.ActionLogTypeMap). */
const LOG_TYPES = {
  login: 'account',
  logout: 'account',
  user_signedup: 'team',
  user_invited: 'team',
  user_deleted: 'team',
  token_revoked: 'token',
  token_refreshed: 'token',
  user_modified: 'user',
  user_recovery_requested: 'user',
  user_reauthenticate_requested: 'user',
  user_confirmation_requested: 'user',
  user_repeated_signup: 'user',
  user_updated_password: 'user',
  factor_in_progress: 'factor',
  factor_unenrolled: 'factor',
  challenge_created: 'factor',
  verification_attempted: 'factor',
  factor_deleted: 'factor',
} as const;

export type AuditAction = keyof typeof LOG_TYPES;

/** Who acted: a user row, or the admin role behind a service_role token. */
export interface AuditActor {
  id: string;
  email: string | null;
  phone: string | null;
  is_sso_user?: boolean;
  raw_user_meta_data?: Record<string, unknown> | null;
}

export function adminActor(role: string): AuditActor {
  return { id: NIL_UUID, email: role, phone: null };
}

export async function recordAudit(
  db: Db,
  actor: AuditActor,
  action: AuditAction,
  client: ClientInfo,
  traits?: Record<string, unknown>,
): Promise<void> {
  const payload: Record<string, unknown> = {
    actor_id: actor.id,
    actor_via_sso: actor.is_sso_user ?? false,
    actor_username: actor.phone || actor.email || '',
    action,
    log_type: LOG_TYPES[action],
  };
  const fullName = actor.raw_user_meta_data?.full_name;
  if (fullName !== undefined) payload.actor_name = fullName;
  if (traits) payload.traits = traits;
  await db.query(
    `insert into auth.audit_log_entries (instance_id, id, payload, created_at, ip_address)
     values ($1, $2, $3, now(), $4)`,
    [NIL_UUID, randomUUID(), JSON.stringify(payload), client.ip],
  );
}

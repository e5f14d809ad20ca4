/** Writes the kiosk audit log (public.kiosk_audit_log): who did what to whom, and details. */
import { plainJson, sql } from '../sql.ts';

export type KioskAction =
  | 'user.banned'
  | 'user.unbanned'
  | 'user.mfa_reset'
  | 'impersonation.started'
  | 'impersonation.stopped'
  | 'dns.zone_created'
  | 'dns.zone_deleted'
  | 'dns.zones_synced'
  | 'subscription.cancelled'
  | 'order.refunded';

export interface KioskAuditEntry {
  actorId: string | null;
  action: KioskAction;
  subjectUserId?: string | null;
  details?: Record<string, unknown>;
}

/** Records the entry and returns its id. */
export async function recordKioskAction(entry: KioskAuditEntry): Promise<number> {
  const [row] = await sql()<{ id: string }[]>`
    insert into public.kiosk_audit_log (actor_id, action, subject_user_id, details)
    values (${entry.actorId}, ${entry.action}, ${entry.subjectUserId ?? null},
      ${sql().json(plainJson(entry.details ?? {}))})
    returning id`;
  if (!row) throw new Error('kiosk_audit_log: the insert returned no row');
  return Number(row.id);
}

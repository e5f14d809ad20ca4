/**
 * What every kiosk function starts with: the caller must be a signed-in staff member. The
 * database decides (app.is_staff() as the caller, through asCaller), so a function and a
 * row-level security policy can never disagree on who is staff. An impersonation session never
 * acts as staff, whoever it impersonates.
 */
import { callerOf } from '../caller.ts';
import { HttpError } from '../http.ts';
import { asCaller } from '../sql.ts';

export interface StaffMember {
  id: string;
  email: string | null;
}

export const permissionDenied = () => new HttpError(403, 'Permission denied', 'permission_denied');

/**
 * The impersonation a token carries (see kiosk-impersonate), or null: its `impersonator` claim
 * (the staff member's user id, which the portal reads to offer "Back To My Account") and its
 * `impersonation_id` claim (the kiosk_audit_log row that recorded the start).
 */
export function impersonationClaim(claims: Record<string, unknown>): Impersonator | null {
  const { impersonator, impersonation_id } = claims;
  // Any impersonator claim at all marks the token, even a malformed one: never staff.
  if (impersonator === undefined || impersonator === null) return null;
  if (typeof impersonator !== 'string' || typeof impersonation_id !== 'number') {
    return { user_id: String(impersonator), impersonation_id: Number.NaN };
  }
  return { user_id: impersonator, impersonation_id };
}

export interface Impersonator {
  /** The staff member who started the impersonation. */
  user_id: string;
  /** The kiosk_audit_log row that recorded the start. */
  impersonation_id: number;
}

export async function requireStaff(request: Request): Promise<StaffMember> {
  const { claims } = callerOf(request);
  if (claims.role !== 'authenticated' || typeof claims.sub !== 'string') throw permissionDenied();
  if (impersonationClaim(claims)) throw permissionDenied();
  const [row] = await asCaller(
    request,
    (sql) =>
      sql<{ staff: boolean; email: string | null }[]>`
        select app.is_staff() as staff, app.caller_email() as email`,
  );
  if (!row?.staff) throw permissionDenied();
  return { id: claims.sub, email: row.email };
}

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

/** The impersonation a token carries (see kiosk-impersonate), or null. */
export function impersonationClaim(claims: Record<string, unknown>): Impersonator | null {
  const appMetadata = claims.app_metadata;
  if (typeof appMetadata !== 'object' || appMetadata === null) return null;
  const impersonator = (appMetadata as Record<string, unknown>).impersonator;
  if (typeof impersonator !== 'object' || impersonator === null) return null;
  const { user_id, impersonation_id } = impersonator as Record<string, unknown>;
  if (typeof user_id !== 'string' || typeof impersonation_id !== 'number') return null;
  return { user_id, impersonation_id };
}

/** The `impersonator` claim in app_metadata of an impersonation token. */
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

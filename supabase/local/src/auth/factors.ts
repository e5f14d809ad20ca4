import type { Db } from './db.ts';
import type { FactorRow } from './users.ts';

/** Lifecycle rules of auth.mfa_factors shared by the user and admin APIs. */

/** Unverified factors nobody challenged within the expiry are abandoned enrollments. */
export async function deleteExpiredFactors(db: Db, expirySeconds: number): Promise<void> {
  await db.query(
    `delete from auth.mfa_factors f
      where f.status <> 'verified'
        and not exists (select 1 from auth.mfa_challenges c where c.factor_id = f.id)
        and f.created_at + make_interval(secs => $1) < now()`,
    [expirySeconds],
  );
}

/** Removes the factor's claim from sessions it raised and takes them back to aal1. */
export async function downgradeSessions(db: Db, factor: FactorRow): Promise<void> {
  await db.query(
    `delete from auth.mfa_amr_claims
      where authentication_method = 'totp'
        and session_id in (select id from auth.sessions where factor_id = $1)`,
    [factor.id],
  );
  await db.query(
    `update auth.sessions set aal = 'aal1', factor_id = null, updated_at = now()
      where user_id = $1 and factor_id = $2`,
    [factor.user_id, factor.id],
  );
}

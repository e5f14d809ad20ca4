/**
 * Which account a billing call acts for: the caller's own (settings/…), a team's
 * (organization/{org}/team/{team}/…) or an organization's (organization/{org}/…), and whether the
 * caller may manage its plan (app.billing_account decides, as the caller).
 */
import { callerOf } from '../_shared/caller.ts';
import { HttpError } from '../_shared/http.ts';
import { isImpersonation } from '../_shared/impersonation.ts';
import { invalid } from '../_shared/kiosk/request.ts';
import { permissionDenied } from '../_shared/kiosk/staff.ts';
import { asCaller, type Sql } from '../_shared/sql.ts';

export interface BillingScope {
  organization: string | null;
  team: string | null;
}

export const PERSONAL: BillingScope = { organization: null, team: null };

export interface BillingAccount {
  accountId: string;
  userId: string;
  email: string | null;
  scope: BillingScope;
}

// Slugs are lower-case words and dashes; `_` stands for "no organization" (a standalone team).
const SLUG = /^(?:[a-z0-9]+(?:-[a-z0-9]+)*|_)$/;

/** A path's scope and what follows `subscription`, or null when it names no subscription. */
export function scopedSubscriptionPath(path: string): { scope: BillingScope; rest: string } | null {
  const personal = /^\/settings\/subscription(\/.*)?$/.exec(path);
  if (personal) return { scope: PERSONAL, rest: personal[1] ?? '' };
  const team = /^\/organization\/([^/]+)\/team\/([^/]+)\/subscription(\/.*)?$/.exec(path);
  if (team) return { scope: { organization: team[1]!, team: team[2]! }, rest: team[3] ?? '' };
  const organization = /^\/organization\/([^/]+)\/subscription(\/.*)?$/.exec(path);
  if (organization)
    return { scope: { organization: organization[1]!, team: null }, rest: organization[2] ?? '' };
  return null;
}

/** A scope named in a body (new-subscription's optional `organization` and `team`). */
export function scopeFromBody(body: Record<string, unknown>): BillingScope {
  const read = (field: 'organization' | 'team') => {
    const value = body[field];
    if (value === undefined || value === null || value === '') return null;
    if (typeof value !== 'string' || !SLUG.test(value))
      throw invalid(field, `The ${field} must be a slug.`);
    return value;
  };
  const scope = { organization: read('organization'), team: read('team') };
  if (scope.team !== null && scope.organization === null)
    throw invalid('organization', 'A team is named with its organization.');
  return scope;
}

/** The signed-in caller (not an impersonating staff member). */
export function callerId(request: Request): string {
  const { claims } = callerOf(request);
  if (claims.role !== 'authenticated' || typeof claims.sub !== 'string') throw permissionDenied();
  if (isImpersonation(claims)) throw permissionDenied();
  return claims.sub;
}

export async function billingAccount(
  request: Request,
  db: Sql,
  scope: BillingScope,
): Promise<BillingAccount> {
  const userId = callerId(request);
  for (const slug of [scope.organization, scope.team])
    if (slug !== null && !SLUG.test(slug))
      throw new HttpError(404, 'Not Found', 'account_not_found');
  const [row] = await asCaller(
    request,
    (tx) => tx<{ account_id: string | null }[]>`
      select app.billing_account(${scope.organization}, ${scope.team}) as account_id`,
  );
  // An account that does not exist and one the caller may not bill answer alike.
  if (!row?.account_id) throw permissionDenied();
  const [profile] = await db<{ email: string | null }[]>`
    select email from public.profiles where id = ${userId}`;
  return { accountId: row.account_id, userId, email: profile?.email ?? null, scope };
}

/** Whether the caller may manage this account's billing (a checkout's account, say). */
export async function mayManageBilling(request: Request, accountId: string): Promise<boolean> {
  callerId(request);
  const [row] = await asCaller(
    request,
    (tx) => tx<{ allowed: boolean }[]>`select app.may_manage_billing(${accountId}) as allowed`,
  );
  return row?.allowed === true;
}

/** Where the portal shows a scope's subscription pages (under /app). */
export function subscriptionPagePath(scope: BillingScope): string {
  if (scope.team !== null)
    return `/app/organization/${scope.organization}/team/${scope.team}/subscription`;
  if (scope.organization !== null)
    return `/app/organizations/${scope.organization}/settings/profile/subscription`;
  return '/app/settings/subscription';
}

/** The scope as the portal names it in links (its scopeFromKey reads it back); null: personal. */
export function scopeKey(scope: BillingScope): string | null {
  if (scope.team !== null) return `team:${scope.organization}/${scope.team}`;
  if (scope.organization !== null) return `organization:${scope.organization}`;
  return null;
}

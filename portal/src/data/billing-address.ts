import type { SubscriptionScope } from './subscription/scope.ts';
import type { PortalSupabase } from '../lib/supabase.ts';

/**
 * A plan with force_billing_address is sold only once the account's billing address is on file:
 * new-subscription answers 422 naming `billing_address` until then (the global handler shows its
 * message), and the checkout button leads to the tax details page for that account instead.
 */
export async function refusedForBillingAddress(error: unknown): Promise<boolean> {
  const response = (error as { context?: unknown } | null)?.context;
  if (!(response instanceof Response) || response.status !== 422) return false;
  try {
    const body = (await response.clone().json()) as { errors?: Record<string, unknown> };
    return Boolean(body.errors && 'billing_address' in body.errors);
  } catch {
    return false;
  }
}

/** The account a subscription scope bills (RLS answers what the caller may see). */
export async function scopeAccountId(
  supabase: PortalSupabase,
  userId: string,
  scope: SubscriptionScope,
): Promise<string | null> {
  if (scope.kind === 'personal') {
    const { data } = await supabase
      .from('profiles')
      .select('personal_account_id')
      .eq('id', userId)
      .maybeSingle();
    return data?.personal_account_id ?? null;
  }
  if (scope.kind === 'organization') {
    const { data } = await supabase
      .from('organizations')
      .select('account_id')
      .eq('slug', scope.org)
      .maybeSingle();
    return data?.account_id ?? null;
  }
  const query = supabase
    .from('teams')
    .select('account_id, organizations(slug)')
    .eq('slug', scope.team);
  const { data } = await query;
  const team = (data ?? []).find((row) =>
    scope.org === '_'
      ? row.organizations === null
      : (row.organizations as { slug: string } | null)?.slug === scope.org,
  );
  return team?.account_id ?? null;
}

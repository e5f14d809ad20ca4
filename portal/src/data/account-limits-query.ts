import type { LimitsData, LimitUsage } from '@shortlane/shared/credits.ts';
import { useQuery } from '@tanstack/react-query';
import { useSupabase } from '../lib/servicesContext.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { accountLimitKeys } from './keys.ts';
import { ApiError, unwrap } from './unwrap.ts';
import { useUserId } from './use-user-id.ts';

function isLimitUsage(value: unknown): value is LimitUsage {
  if (typeof value !== 'object' || value === null) return false;
  const usage = value as Record<string, unknown>;
  const countOrNull = (field: unknown) => field === null || typeof field === 'number';
  return (
    typeof usage.used === 'number' &&
    countOrNull(usage.limit) &&
    countOrNull(usage.soft_limit) &&
    typeof usage.overage === 'boolean'
  );
}

/** The limits data of an account (public.account_limits), keyed by limit name. */
export async function fetchAccountLimits(
  supabase: PortalSupabase,
  accountId: string,
): Promise<LimitsData> {
  const data = unwrap(await supabase.rpc('account_limits', { p_account_id: accountId }));
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new ApiError('account_limits answered no limits.', 200, data);
  }
  const limits: Record<string, LimitUsage> = {};
  for (const [name, usage] of Object.entries(data)) {
    if (isLimitUsage(usage)) limits[name] = usage;
  }
  return limits;
}

/** Limits of the account links are created in; null while signed out or no account is known. */
export function useAccountLimitsQuery(accountId: string | null | undefined) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: accountLimitKeys.detail(userId ?? '', accountId ?? ''),
    queryFn: () => fetchAccountLimits(supabase, accountId!),
    enabled: userId != null && accountId != null,
  });
}

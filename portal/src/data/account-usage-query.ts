import { useQuery } from '@tanstack/react-query';
import { useSupabase } from '../lib/servicesContext.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { accountUsageKeys } from './keys.ts';
import { ApiError, unwrap } from './unwrap.ts';
import { useUserId } from './use-user-id.ts';

/** One count option: used is null for an allowance with no account-wide count. */
export interface OptionUsage {
  used: number | null;
  /** Null means unlimited. */
  limit: number | null;
  soft_limit: number | null;
  overage: boolean;
}

export interface AccountUsage {
  periodStartsAt: string;
  periodEndsAt: string;
  limits: Readonly<Record<string, OptionUsage>>;
}

const countOrNull = (value: unknown): value is number | null =>
  value === null || typeof value === 'number';

function isOptionUsage(value: unknown): value is OptionUsage {
  if (typeof value !== 'object' || value === null) return false;
  const usage = value as Record<string, unknown>;
  return (
    countOrNull(usage.used) &&
    countOrNull(usage.limit) &&
    countOrNull(usage.soft_limit) &&
    typeof usage.overage === 'boolean'
  );
}

/** public.account_usage, checked: options of an unexpected shape are left out. */
export async function fetchAccountUsage(
  supabase: PortalSupabase,
  accountId: string,
): Promise<AccountUsage> {
  const data: unknown = unwrap(await supabase.rpc('account_usage', { p_account_id: accountId }));
  const record = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  const { period_starts_at: start, period_ends_at: end, limits } = record;
  if (typeof start !== 'string' || typeof end !== 'string' || typeof limits !== 'object') {
    throw new ApiError('account_usage answered no usage.', 200, data);
  }
  const checked: Record<string, OptionUsage> = {};
  for (const [name, usage] of Object.entries(limits ?? {})) {
    if (isOptionUsage(usage)) checked[name] = usage;
  }
  return { periodStartsAt: start, periodEndsAt: end, limits: checked };
}

/** The usage of an account; idle while signed out or while the account is not known yet. */
export function useAccountUsageQuery(accountId: string | null | undefined) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: accountUsageKeys.detail(userId ?? '', accountId ?? ''),
    queryFn: () => fetchAccountUsage(supabase, accountId!),
    enabled: userId != null && accountId != null,
  });
}

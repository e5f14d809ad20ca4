import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSupabase } from '../lib/servicesContext.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { accountLimitKeys, accountUsageKeys } from './keys.ts';
import { ApiError, unwrap } from './unwrap.ts';
import { useUserId } from './use-user-id.ts';

/** One count option: used is null for an allowance with no account-wide count. */
export interface OptionUsage {
  used: number | null;
  /** Null means unlimited. */
  limit: number | null;
  soft_limit: number | null;
  overage: boolean;
  /** Units past the limit while overage is on (billed at the period's end). */
  over?: number;
}

/** A closed period's overage as billed (public.overage_charges). */
export interface OverageCharge {
  id: string;
  period_starts_at: string;
  period_ends_at: string;
  units: number;
  /** Minor units; null until priced and reported. */
  amount: number | null;
  currency: string;
  status: 'pending' | 'reported' | 'failed';
}

export interface AccountUsage {
  periodStartsAt: string;
  periodEndsAt: string;
  limits: Readonly<Record<string, OptionUsage>>;
  /** The account has a paid plan that overage can be billed on. */
  overageAvailable: boolean;
  currency: string;
  charges: readonly OverageCharge[];
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

function isCharge(value: unknown): value is OverageCharge {
  if (typeof value !== 'object' || value === null) return false;
  const charge = value as Record<string, unknown>;
  return (
    typeof charge.id === 'string' &&
    typeof charge.period_starts_at === 'string' &&
    typeof charge.period_ends_at === 'string' &&
    typeof charge.units === 'number' &&
    countOrNull(charge.amount) &&
    typeof charge.currency === 'string' &&
    typeof charge.status === 'string'
  );
}

/** public.account_usage, checked: options of an unexpected shape are left out. */
export async function fetchAccountUsage(
  supabase: PortalSupabase,
  accountId: string,
): Promise<AccountUsage> {
  return readAccountUsage(
    unwrap(await supabase.rpc('account_usage', { p_account_id: accountId })) as unknown,
  );
}

/** public.set_overage: turns overage on or off; answers the usage as it now is. */
export async function setOverage(
  supabase: PortalSupabase,
  accountId: string,
  enabled: boolean,
): Promise<AccountUsage> {
  return readAccountUsage(
    unwrap(
      await supabase.rpc('set_overage', { p_account_id: accountId, p_enabled: enabled }),
    ) as unknown,
  );
}

function readAccountUsage(data: unknown): AccountUsage {
  const record = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  const { period_starts_at: start, period_ends_at: end, limits } = record;
  if (typeof start !== 'string' || typeof end !== 'string' || typeof limits !== 'object') {
    throw new ApiError('account_usage answered no usage.', 200, data);
  }
  const checked: Record<string, OptionUsage> = {};
  for (const [name, usage] of Object.entries(limits ?? {})) {
    if (isOptionUsage(usage)) checked[name] = usage;
  }
  return {
    periodStartsAt: start,
    periodEndsAt: end,
    limits: checked,
    overageAvailable: record.overage_available === true,
    currency: typeof record.currency === 'string' ? record.currency : 'USD',
    charges: Array.isArray(record.charges) ? record.charges.filter(isCharge) : [],
  };
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

/** Manage Overages: the switch, which refreshes the usage it changes. */
export function useSetOverageMutation(accountId: string) {
  const supabase = useSupabase();
  const userId = useUserId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) => setOverage(supabase, accountId, enabled),
    onSuccess: (usage) => {
      queryClient.setQueryData(accountUsageKeys.detail(userId ?? '', accountId), usage);
      // The create popover's plan-limit modal reads whether overage is usable.
      void queryClient.invalidateQueries({ queryKey: accountLimitKeys.all(userId ?? '') });
    },
  });
}

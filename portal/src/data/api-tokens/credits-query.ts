import { useQuery } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import type { PortalSupabase } from '../../lib/supabase.ts';
import { ApiError, unwrap } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';
import { apiTokenKeys } from './keys.ts';

/** What the account's plan allows in API calls (null: unlimited) and what its tokens spent. */
export interface ApiCredits {
  used: number;
  limit: number | null;
}

function isApiCredits(value: unknown): value is ApiCredits {
  if (typeof value !== 'object' || value === null) return false;
  const { used, limit } = value as Record<string, unknown>;
  return typeof used === 'number' && (limit === null || typeof limit === 'number');
}

export async function fetchApiCredits(
  supabase: PortalSupabase,
  accountId: string,
): Promise<ApiCredits> {
  const data: unknown = unwrap(await supabase.rpc('api_credits', { p_account_id: accountId }));
  if (!isApiCredits(data)) throw new ApiError('api_credits answered no credits.', 200, data);
  return data;
}

export function useApiCreditsQuery(accountId: string | null) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: apiTokenKeys.credits(userId ?? '', accountId ?? ''),
    queryFn: () => fetchApiCredits(supabase, accountId!),
    enabled: userId != null && accountId != null,
  });
}

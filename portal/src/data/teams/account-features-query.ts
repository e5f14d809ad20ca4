import { useQuery } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import { teamKeys } from '../keys.ts';
import { unwrap } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';

/** The features that apply to an account (public.account_features): team mode uses a team's. */
export function useAccountFeaturesQuery(accountId: string | null) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: teamKeys.features(userId ?? '', accountId ?? ''),
    queryFn: async () =>
      unwrap(await supabase.rpc('account_features', { p_account_id: accountId! })),
    enabled: userId != null && accountId != null,
  });
}

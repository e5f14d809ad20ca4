import { hasUserStatusFlag } from '@shortlane/shared/constants.ts';
import { useQuery } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import { unwrap } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';
import { affiliateLinkKeys } from './keys.ts';

/** True while the signed-in person allows affiliate links (no status flag 4). */
export function useMyAffiliateLinksQuery() {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: affiliateLinkKeys.mine(userId ?? ''),
    queryFn: async () => {
      const answer = await supabase.from('profiles').select('status').eq('id', userId!).single();
      return !hasUserStatusFlag(unwrap(answer).status, 'noAffiliate');
    },
    enabled: userId != null,
  });
}

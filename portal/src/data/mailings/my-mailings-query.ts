import { hasUserStatusFlag } from '@shortlane/shared/constants.ts';
import { useQuery } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import { unwrap } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';
import { mailingKeys } from './keys.ts';

/** True while the signed-in person receives product e-mails. */
export function useMyMailingsQuery() {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: mailingKeys.mine(userId ?? ''),
    queryFn: async () => {
      const answer = await supabase.from('profiles').select('status').eq('id', userId!).single();
      return !hasUserStatusFlag(unwrap(answer).status, 'noMailings');
    },
    enabled: userId != null,
  });
}

import { useQuery } from '@tanstack/react-query';
import { POLL_INTERVAL_MS } from '@shortlane/shared/constants.ts';
import { SKIP_GLOBAL_ERRORS_HEADER } from '../api/globalResponses.ts';
import { useSupabase } from '../lib/servicesContext.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { notificationKeys } from './keys.ts';
import { ApiError } from './unwrap.ts';
import { useUserId } from './use-user-id.ts';

/** How many of the user's notifications are unread (RLS shows only their own). */
export async function fetchUnreadNotificationCount(supabase: PortalSupabase): Promise<number> {
  const { count, error, status } = await supabase
    .from('notifications')
    .select('id', { count: 'exact', head: true })
    .is('read_at', null)
    // The spec: notification load errors are ignored silently.
    .setHeader(SKIP_GLOBAL_ERRORS_HEADER, '1');
  if (error) throw new ApiError(error.message, status, error);
  return count ?? 0;
}

/** Polled every 120 000 ms, as the spec polls notifications. */
export function useUnreadNotificationCountQuery() {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: notificationKeys.unreadCount(userId ?? ''),
    queryFn: () => fetchUnreadNotificationCount(supabase),
    enabled: userId != null,
    refetchInterval: POLL_INTERVAL_MS,
  });
}

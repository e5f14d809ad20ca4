import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSupabase } from '../lib/servicesContext.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { notificationKeys } from './keys.ts';
import { unwrap } from './unwrap.ts';
import { useUserId } from './use-user-id.ts';

/** PUT notifications/read: these notifications become read. */
export async function markNotificationsRead(
  supabase: PortalSupabase,
  ids: readonly string[],
): Promise<void> {
  if (ids.length === 0) return;
  unwrap(await supabase.rpc('mark_notifications_read', { p_notification_ids: [...ids] }));
}

/** PUT user/last-read-announcements-at: every announcement published so far becomes read. */
export async function markAnnouncementsRead(supabase: PortalSupabase): Promise<string> {
  return unwrap(await supabase.rpc('mark_announcements_read'));
}

/** Ids sent per mark_notifications_read call: a short URL and body, however many are unread. */
export const MARK_READ_BATCH = 500;

/** Everything read: all unread notifications (not only the ones on screen) and announcements. */
export async function markEverythingRead(supabase: PortalSupabase): Promise<void> {
  for (;;) {
    const unread = unwrap(
      await supabase.from('notifications').select('id').is('read_at', null).limit(MARK_READ_BATCH),
    );
    await markNotificationsRead(
      supabase,
      unread.map((row) => row.id),
    );
    if (unread.length < MARK_READ_BATCH) break;
  }
  await markAnnouncementsRead(supabase);
}

/** The bell and the page read the same rows: a change refreshes both. */
function useRefreshFeed() {
  const queryClient = useQueryClient();
  const userId = useUserId();
  return () =>
    userId == null
      ? Promise.resolve()
      : queryClient.invalidateQueries({ queryKey: notificationKeys.all(userId) });
}

export function useMarkNotificationsReadMutation() {
  const supabase = useSupabase();
  const refresh = useRefreshFeed();
  return useMutation({
    mutationFn: (ids: readonly string[]) => markNotificationsRead(supabase, ids),
    onSuccess: refresh,
  });
}

export function useMarkAnnouncementsReadMutation() {
  const supabase = useSupabase();
  const refresh = useRefreshFeed();
  return useMutation({
    mutationFn: () => markAnnouncementsRead(supabase),
    onSuccess: refresh,
  });
}

export function useMarkEverythingReadMutation() {
  const supabase = useSupabase();
  const refresh = useRefreshFeed();
  return useMutation({
    mutationFn: () => markEverythingRead(supabase),
    onSuccess: refresh,
  });
}

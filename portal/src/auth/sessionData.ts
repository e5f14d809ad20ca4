import type { QueryClient } from '@tanstack/react-query';
import { fetchCartQuantity } from '../data/cart-quantity-query.ts';
import { fetchPendingInvitations } from '../data/invitations-query.ts';
import { cartKeys, invitationKeys } from '../data/keys.ts';
import { prefetchRecentFeed } from '../data/notifications-query.ts';
import type { PortalSupabase } from '../lib/supabase.ts';

/**
 * On login (app-shell 4): the invitations, notifications and cart of the user who signed in,
 * under the same keys the shell reads them by, so they are there before the menus open. On
 * logout they go with the rest of the cache (App's onSignedOut).
 */
export function loadSessionData(
  queryClient: QueryClient,
  supabase: PortalSupabase,
  user: { id: string; email?: string | null },
): Promise<unknown> {
  const loads: Promise<void>[] = [
    prefetchRecentFeed(queryClient, supabase, user.id),
    queryClient.prefetchQuery({
      queryKey: cartKeys.quantity(user.id),
      queryFn: () => fetchCartQuantity(supabase),
    }),
  ];
  const email = user.email;
  if (email) {
    loads.push(
      queryClient.prefetchQuery({
        queryKey: invitationKeys.pending(user.id),
        queryFn: () => fetchPendingInvitations(supabase, email),
      }),
    );
  }
  return Promise.all(loads);
}

import type { QueryClient } from '@tanstack/react-query';
import type { Profile } from '../data/profile-query.ts';
import { secondFactorDue } from '../features/two-factor/assurance.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { prefetchAppState } from '../state/prefetchAppState.ts';

/** What a page's first requests are asked with (a page module's `prefetchData`). */
export interface FirstRequestContext {
  queryClient: QueryClient;
  supabase: PortalSupabase;
  /** The signed-in user, once the session may act for the account (useUserId's rule). */
  userId: string;
  profile: Profile;
  /** The address the page opens at. */
  location: { pathname: string; search: string };
}

/**
 * Asks, from the entry and before React's first render, what the opening page shows first: the
 * shell's account state (the guards wait for it), then the page's own requests (`prefetchData`),
 * each as soon as the answer before it is in, rather than once the shell has rendered and each
 * answer's render has run. On a slow
 * phone those renders are most of the wait for the page's largest paint. The queries are the
 * components' own (same keys and functions), so the components find them under way or answered
 * and ask nothing twice. A guest, or a session that owes its second factor, asks nothing here:
 * nothing of the account is read before the second factor (useUserId). A failure is left to
 * the components, which ask again and show it.
 */
export async function startFirstRequests(
  queryClient: QueryClient,
  supabase: PortalSupabase,
  location: FirstRequestContext['location'],
  prefetchPage: (context: FirstRequestContext) => Promise<void>,
): Promise<void> {
  try {
    const { data } = await supabase.auth.getSession();
    const session = data.session;
    if (!session || secondFactorDue(session)) return;
    const userId = session.user.id;
    const profile = await prefetchAppState(queryClient, supabase, userId);
    await prefetchPage({ queryClient, supabase, userId, profile, location });
  } catch {
    // The components' own queries ask again and say what went wrong.
  }
}

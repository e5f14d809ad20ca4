import type { QueryClient } from '@tanstack/react-query';
import { accountQuery } from '../data/account-query.ts';
import { domainsQuery } from '../data/domains-query.ts';
import { operationCostsQuery } from '../data/operation-costs-query.ts';
import { myOrganizationsQuery } from '../data/organizations-query.ts';
import { plansQuery } from '../data/plans-query.ts';
import { profileQuery, type Profile } from '../data/profile-query.ts';
import { sessionClaimsQuery } from '../data/session-claims-query.ts';
import { subscriptionsQuery } from '../data/subscriptions-query.ts';
import { myTeamsQuery } from '../data/teams-query.ts';
import type { PortalSupabase } from '../lib/supabase.ts';

/**
 * AppStateProvider's queries for a user whose session may act for the account (useUserId's
 * rule), asked outside React: all at once, and the account's own as soon as the profile names
 * it. A team's features (team mode) are left to the provider, which knows the team. Answers the
 * profile; a failure is the provider's to show (its queries ask again).
 */
export async function prefetchAppState(
  queryClient: QueryClient,
  supabase: PortalSupabase,
  userId: string,
): Promise<Profile> {
  void queryClient.prefetchQuery(plansQuery(supabase));
  void queryClient.prefetchQuery(operationCostsQuery(supabase));
  void queryClient.prefetchQuery(domainsQuery(supabase, userId));
  void queryClient.prefetchQuery(myTeamsQuery(supabase, userId));
  void queryClient.prefetchQuery(myOrganizationsQuery(supabase, userId));
  void queryClient.prefetchQuery(sessionClaimsQuery(supabase, userId));
  const profile = await queryClient.fetchQuery(profileQuery(supabase, userId));
  const accountId = profile.personal_account_id;
  void queryClient.prefetchQuery(accountQuery(supabase, userId, accountId));
  void queryClient.prefetchQuery(subscriptionsQuery(supabase, userId, accountId));
  return profile;
}

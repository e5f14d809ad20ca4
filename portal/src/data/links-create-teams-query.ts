import { useQuery } from '@tanstack/react-query';
import { useSupabase } from '../lib/servicesContext.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { teamKeys } from './keys.ts';
import { unwrap } from './unwrap.ts';
import { useUserId } from './use-user-id.ts';

/** The accounts behind a team: its own, and its organization's (whose domains it may use). */
export interface TeamAccounts {
  teamId: string;
  accountId: string;
  organizationAccountId: string | null;
}

export async function fetchTeamAccounts(
  supabase: PortalSupabase,
  teamIds: readonly string[],
): Promise<TeamAccounts[]> {
  if (teamIds.length === 0) return [];
  const rows = unwrap(
    await supabase
      .from('teams')
      .select('id, account_id, organization:organizations(account_id)')
      .in('id', teamIds),
  );
  return rows.map((row) => ({
    teamId: row.id,
    accountId: row.account_id,
    organizationAccountId: row.organization?.account_id ?? null,
  }));
}

/** Accounts of the viewer's teams, for choosing the domains a team's links may use. */
export function useTeamAccountsQuery(teamIds: readonly string[]) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: [...teamKeys.all(userId ?? ''), 'accounts', [...teamIds].sort()],
    queryFn: () => fetchTeamAccounts(supabase, teamIds),
    enabled: userId != null,
  });
}

import { useQuery } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import type { PortalSupabase } from '../../lib/supabase.ts';
import { teamKeys } from '../keys.ts';
import { STANDALONE_TEAM_ORG } from '../teams-query.ts';
import { unwrap } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';

/** One team as its pages show it, with what the caller may do there. */
export interface TeamDetail {
  id: string;
  accountId: string;
  slug: string;
  name: string;
  photoUrl: string | null;
  /** The organization's slug, or STANDALONE_TEAM_ORG. */
  orgSlug: string;
  ownerId: string | null;
  /** public.my_team_permissions: `settings` (profile), `members` (membership)… */
  permissions: readonly string[];
}

const COLUMNS = 'id, account_id, slug, name, photo_url, account:accounts(owner_id)';

export async function fetchTeam(
  supabase: PortalSupabase,
  orgSlug: string,
  teamSlug: string,
): Promise<TeamDetail | null> {
  const query =
    orgSlug === STANDALONE_TEAM_ORG
      ? supabase.from('teams').select(COLUMNS).eq('slug', teamSlug).is('organization_id', null)
      : supabase
          .from('teams')
          .select(`${COLUMNS}, organization:organizations!inner(slug)`)
          .eq('slug', teamSlug)
          .eq('organization.slug', orgSlug);
  const result = await query.maybeSingle();
  if (result.error) return unwrap(result);
  const row = result.data;
  if (!row) return null;
  const permissions = unwrap(await supabase.rpc('my_team_permissions', { p_team_id: row.id }));
  return {
    id: row.id,
    accountId: row.account_id,
    slug: row.slug,
    name: row.name,
    photoUrl: row.photo_url,
    orgSlug,
    // The owner's account row is readable to the team's people; null if RLS hides it.
    ownerId: row.account?.owner_id ?? null,
    permissions,
  };
}

export function useTeamQuery(orgSlug: string, teamSlug: string) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: teamKeys.detail(userId ?? '', orgSlug, teamSlug),
    queryFn: () => fetchTeam(supabase, orgSlug, teamSlug),
    enabled: userId != null,
  });
}

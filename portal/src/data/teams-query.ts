import { queryOptions, useQuery } from '@tanstack/react-query';
import { useSupabase } from '../lib/servicesContext.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { teamKeys } from './keys.ts';
import { unwrap } from './unwrap.ts';
import { useUserId } from './use-user-id.ts';

/**
 * Team pages live at organization/{org}/team/{team}. A team outside any organization has no
 * organization slug; this stands in for it (slugs are lower-case words, so it never clashes).
 */
export const STANDALONE_TEAM_ORG = '_';

export interface TeamSummary {
  id: string;
  /** The team's account (what owns its links, features and limits). */
  accountId: string;
  slug: string;
  name: string;
  role: string;
  /** The organization's slug, or STANDALONE_TEAM_ORG. */
  orgSlug: string;
}

/** The teams the user is a member of. */
export async function fetchMyTeams(
  supabase: PortalSupabase,
  userId: string,
): Promise<TeamSummary[]> {
  const rows = unwrap(
    await supabase
      .from('team_members')
      .select(
        'role, team:teams!inner(id, account_id, slug, name, archived_at, organization:organizations(slug))',
      )
      .eq('user_id', userId),
  );
  return rows
    .filter((row) => row.team.archived_at == null)
    .map((row) => ({
      id: row.team.id,
      accountId: row.team.account_id,
      slug: row.team.slug,
      name: row.team.name,
      role: row.role,
      orgSlug: row.team.organization?.slug ?? STANDALONE_TEAM_ORG,
    }));
}

/** The query behind useMyTeamsQuery, also asked from the entry (state/prefetchAppState.ts). */
export function myTeamsQuery(supabase: PortalSupabase, userId: string | null) {
  return queryOptions({
    queryKey: teamKeys.mine(userId ?? ''),
    queryFn: () => fetchMyTeams(supabase, userId!),
    enabled: userId != null,
  });
}

export function useMyTeamsQuery() {
  return useQuery(myTeamsQuery(useSupabase(), useUserId()));
}

/** A team found by its page's slugs, with the account its settings (API tokens…) belong to. */
export interface TeamBySlug {
  id: string;
  name: string;
  account_id: string;
}

/** The team at organization/{org}/team/{team} if the user may see it, else null. */
export async function fetchTeamBySlug(
  supabase: PortalSupabase,
  orgSlug: string,
  teamSlug: string,
): Promise<TeamBySlug | null> {
  if (orgSlug === STANDALONE_TEAM_ORG) {
    const result = await supabase
      .from('teams')
      .select('id, name, account_id')
      .eq('slug', teamSlug)
      .is('organization_id', null)
      .maybeSingle();
    return result.error ? unwrap(result) : result.data;
  }
  const result = await supabase
    .from('teams')
    .select('id, name, account_id, organization:organizations!inner(slug)')
    .eq('slug', teamSlug)
    .eq('organization.slug', orgSlug)
    .maybeSingle();
  if (result.error) return unwrap(result);
  return (
    result.data && {
      id: result.data.id,
      name: result.data.name,
      account_id: result.data.account_id,
    }
  );
}

export function useTeamBySlugQuery(orgSlug: string, teamSlug: string, enabled = true) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: teamKeys.bySlug(userId ?? '', orgSlug, teamSlug),
    queryFn: () => fetchTeamBySlug(supabase, orgSlug, teamSlug),
    enabled: enabled && userId != null,
  });
}

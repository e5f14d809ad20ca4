import { useQuery } from '@tanstack/react-query';
import type { TeamRole } from '@shortlane/shared/constants.ts';
import type { OrganizationFacts } from '@shortlane/shared/permissions.ts';
import { useSupabase } from '../lib/servicesContext.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { organizationKeys } from './keys.ts';
import { unwrap } from './unwrap.ts';
import { useUserId } from './use-user-id.ts';

/**
 * An organization as the permission rules of shared/src/permissions.ts take it (owner, the
 * user's role, the teams and the user's place in each), for the landing rule and onboarding.
 */
export interface OrganizationWithFacts {
  id: string;
  slug: string;
  name: string;
  accountId: string;
  archived: boolean;
  facts: OrganizationFacts;
}

export function useOrganizationFactsQuery(orgSlug: string | null) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: [...organizationKeys.mine(userId ?? ''), 'facts', orgSlug ?? ''],
    queryFn: async (): Promise<OrganizationWithFacts | null> => {
      const result = await supabase
        .from('organizations')
        .select(
          'id, slug, name, account_id, archived_at, account:accounts(owner_id), organization_users(user_id, role:organization_roles(permissions)), teams(slug, name, archived_at, created_at, team_members(user_id, role))',
        )
        .eq('slug', orgSlug!)
        .order('created_at', { referencedTable: 'teams' })
        .maybeSingle();
      const row = result.error ? unwrap(result) : result.data;
      if (!row) return null;
      const ownRole = row.organization_users.find((user) => user.user_id === userId)?.role;
      return {
        id: row.id,
        slug: row.slug,
        name: row.name,
        accountId: row.account_id,
        archived: row.archived_at != null,
        facts: {
          owner: { id: row.account?.owner_id ?? '' },
          role: ownRole ? { permissions: ownRole.permissions.map((name) => ({ name })) } : null,
          teams: row.teams
            .filter((team) => team.archived_at == null)
            .map((team) => {
              const mine = team.team_members.find((member) => member.user_id === userId);
              return {
                slug: team.slug,
                name: team.name,
                membership: mine ? { role: mine.role as TeamRole } : null,
              };
            }),
        },
      };
    },
    enabled: userId != null && orgSlug != null && orgSlug !== '',
  });
}

/** How many rows a filtered table has, without reading them. */
async function countOf(query: PromiseLike<{ count: number | null; error: unknown }>) {
  const result = await query;
  if (result.error) throw result.error;
  return result.count ?? 0;
}

export interface OnboardingCounts {
  domainCount: number;
  userCount: number;
  teamCount: number;
  otherTeamMemberCount: number;
}

/** What the organization already has, for the re-onboarding skip rules. */
export async function fetchOnboardingCounts(
  supabase: PortalSupabase,
  organization: { id: string; accountId: string },
  userId: string,
): Promise<OnboardingCounts> {
  const head = { count: 'exact', head: true } as const;
  const [domainCount, orgUserCount, invitationCount, teamCount, otherTeamMemberCount] =
    await Promise.all([
      countOf(
        supabase
          .from('domains')
          .select('id', head)
          .eq('account_id', organization.accountId)
          .eq('is_deleted', false),
      ),
      countOf(
        supabase
          .from('organization_users')
          .select('user_id', head)
          .eq('organization_id', organization.id),
      ),
      countOf(
        supabase
          .from('invitations')
          .select('id', head)
          .eq('organization_id', organization.id)
          .is('team_id', null)
          .eq('status', 'pending'),
      ),
      countOf(supabase.from('teams').select('id', head).eq('organization_id', organization.id)),
      countOf(
        supabase
          .from('team_members')
          .select('user_id, team:teams!inner(organization_id)', head)
          .eq('team.organization_id', organization.id)
          .neq('user_id', userId),
      ),
    ]);
  return {
    domainCount,
    userCount: orgUserCount + invitationCount,
    teamCount,
    otherTeamMemberCount,
  };
}

export function useOnboardingCountsQuery(organization: { id: string; accountId: string } | null) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: [...organizationKeys.mine(userId ?? ''), organization?.id ?? '', 'onboarding'],
    queryFn: () => fetchOnboardingCounts(supabase, organization!, userId!),
    enabled: userId != null && organization != null,
  });
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import { organizationKeys } from '../keys.ts';
import { refreshAppState } from '../refresh.ts';
import { unwrap } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';

/**
 * An organization's teams as its settings pages show them (public.organization_teams: holders
 * of teams, members or supervisor), archived ones included, with member and link counts.
 */
export interface OrganizationTeam {
  id: string;
  accountId: string;
  slug: string;
  name: string;
  archived: boolean;
  /** The team account's owner: their membership cannot be changed. */
  ownerId: string | null;
  members: number;
  links: number;
}

/** A person of the organization: its owner or one of its users. */
export interface OrganizationPerson {
  userId: string;
  name: string;
  email: string;
}

const teamsKey = (userId: string, organizationId: string) =>
  [...organizationKeys.mine(userId), organizationId, 'teams'] as const;
const peopleKey = (userId: string, organizationId: string) =>
  [...organizationKeys.mine(userId), organizationId, 'people'] as const;

export function useOrganizationTeamsQuery(organizationId: string | null) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: teamsKey(userId ?? '', organizationId ?? ''),
    queryFn: async (): Promise<OrganizationTeam[]> => {
      const rows = unwrap(
        await supabase.rpc('organization_teams', { p_organization_id: organizationId! }),
      );
      return rows.map((row) => ({
        id: row.id,
        accountId: row.account_id,
        slug: row.slug,
        name: row.name,
        archived: row.archived_at != null,
        ownerId: row.owner_id,
        members: Number(row.members),
        links: Number(row.links),
      }));
    },
    enabled: userId != null && organizationId != null,
  });
}

const personOf = (
  userId: string,
  profile: { name: string; email: string } | null,
): OrganizationPerson => ({
  userId,
  name: profile?.name || profile?.email.split('@')[0] || '',
  email: profile?.email ?? '',
});

/** Whom a team can be given from the organization: its owner, then its users by name. */
export function useOrganizationPeopleQuery(organizationId: string | null) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: peopleKey(userId ?? '', organizationId ?? ''),
    queryFn: async (): Promise<OrganizationPerson[]> => {
      const [organization, users] = await Promise.all([
        supabase
          .from('organizations')
          .select('account:accounts(owner_id)')
          .eq('id', organizationId!)
          .single(),
        supabase
          .from('organization_users')
          .select('user_id, profile:profiles(name, email)')
          .eq('organization_id', organizationId!),
      ]);
      const ownerId = unwrap(organization).account?.owner_id ?? null;
      // accounts.owner_id points at auth.users, which the API cannot embed: a second read.
      const ownerRead = ownerId
        ? await supabase.from('profiles').select('name, email').eq('id', ownerId).maybeSingle()
        : null;
      const owner = ownerRead?.error ? unwrap(ownerRead) : (ownerRead?.data ?? null);
      const people = unwrap(users).map((row) => personOf(row.user_id, row.profile));
      people.sort((a, b) => a.name.localeCompare(b.name));
      return ownerId ? [personOf(ownerId, owner), ...people] : people;
    },
    enabled: userId != null && organizationId != null,
  });
}

/** Team changes move the user's teams too (team mode, the navigation): the whole state refreshes. */
function useOrganizationTeamMutation<Input, Output>(run: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  const userId = useUserId();
  return useMutation({
    mutationFn: run,
    onSuccess: () => (userId == null ? undefined : refreshAppState(queryClient, userId)),
  });
}

/** create_team inside the organization (the `teams` permission, the plan's max_teams). */
export function useCreateOrganizationTeamMutation(organizationId: string) {
  const supabase = useSupabase();
  return useOrganizationTeamMutation(async (input: { name: string; slug: string }) =>
    unwrap(
      await supabase.rpc('create_team', {
        p_name: input.name,
        p_slug: input.slug,
        p_organization_id: organizationId,
      }),
    ),
  );
}

export function useArchiveTeamMutation() {
  const supabase = useSupabase();
  return useOrganizationTeamMutation(async (input: { teamId: string; archive: boolean }) =>
    unwrap(
      await supabase.rpc('archive_team', { p_team_id: input.teamId, p_archive: input.archive }),
    ),
  );
}

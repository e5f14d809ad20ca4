import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import { inviteByEmail } from '../invitations/invitation-mail.ts';
import { organizationKeys } from '../keys.ts';
import { unwrap } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';

/**
 * organization/{org}/settings/users: the organization's people (its owner, then its users with
 * their role), its pending invitations, and the writes the page makes. The database decides who
 * may do what (users: change role, remove; invitations: invite, withdraw).
 */
export interface OrganizationPerson {
  userId: string;
  name: string;
  email: string;
  /** Null for the owner, who holds every permission. */
  roleId: string | null;
  roleName: string;
  isOwner: boolean;
}

export interface OrganizationInvitation {
  id: string;
  email: string;
  roleName: string;
  createdAt: string;
}

export const organizationUsersKey = (userId: string, organizationId: string) =>
  [...organizationKeys.mine(userId), organizationId, 'users'] as const;

const displayName = (profile: { name: string; email: string } | null) =>
  profile?.name || profile?.email.split('@')[0] || '';

interface PeopleRow {
  account: { owner_id: string } | null;
  organization_users: {
    user_id: string;
    role_id: string;
    created_at: string;
    profile: { name: string; email: string } | null;
    role: { name: string } | null;
  }[];
}

export function useOrganizationPeopleQuery(organizationId: string | null) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: [...organizationUsersKey(userId ?? '', organizationId ?? ''), 'people'],
    queryFn: async (): Promise<OrganizationPerson[]> => {
      const organization = unwrap<PeopleRow>(
        await supabase
          .from('organizations')
          .select(
            'account:accounts(owner_id), organization_users(user_id, role_id, created_at, profile:profiles(name, email), role:organization_roles(name))',
          )
          .eq('id', organizationId!)
          .single(),
      );
      // accounts.owner_id points at auth.users, so the owner's profile is a read of its own.
      const ownerId = organization.account?.owner_id ?? null;
      const ownerResult =
        ownerId == null
          ? null
          : await supabase
              .from('profiles')
              .select('id, name, email')
              .eq('id', ownerId)
              .maybeSingle();
      const owner = ownerResult?.error ? unwrap(ownerResult) : (ownerResult?.data ?? null);
      const users = [...organization.organization_users]
        .sort((a, b) => a.created_at.localeCompare(b.created_at))
        .map((row) => ({
          userId: row.user_id,
          name: displayName(row.profile),
          email: row.profile?.email ?? '',
          roleId: row.role_id,
          roleName: row.role?.name ?? '',
          isOwner: false,
        }));
      return owner
        ? [
            {
              userId: owner.id,
              name: displayName(owner),
              email: owner.email,
              roleId: null,
              roleName: 'Owner',
              isOwner: true,
            },
            ...users,
          ]
        : users;
    },
    enabled: userId != null && organizationId != null,
  });
}

/** Pending organization invitations (readable by holders of `invitations` and their senders). */
export function useOrganizationInvitationsQuery(organizationId: string | null, enabled: boolean) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: [...organizationUsersKey(userId ?? '', organizationId ?? ''), 'invitations'],
    queryFn: async (): Promise<OrganizationInvitation[]> => {
      const rows = unwrap(
        await supabase
          .from('invitations')
          .select('id, email, created_at, organization_role:organization_roles(name)')
          .eq('organization_id', organizationId!)
          .is('team_id', null)
          .eq('status', 'pending')
          .order('created_at'),
      );
      return rows.map((row) => ({
        id: row.id,
        email: row.email,
        roleName: row.organization_role?.name ?? '',
        createdAt: row.created_at,
      }));
    },
    enabled: enabled && userId != null && organizationId != null,
  });
}

/** Void RPCs answer no body: only the error matters. */
function check(result: {
  error: { message: string; code?: string; details?: string | null; hint?: string | null } | null;
  status: number;
}) {
  if (result.error) unwrap({ data: null, error: result.error, status: result.status });
}

export function useOrganizationUserMutations(organizationId: string) {
  const supabase = useSupabase();
  const userId = useUserId();
  const queryClient = useQueryClient();
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: organizationUsersKey(userId ?? '', organizationId) });
  const invite = useMutation({
    mutationFn: (input: { email: string; roleId: string }) =>
      inviteByEmail(supabase, {
        email: input.email,
        inviterId: userId!,
        target: { kind: 'organization', organizationId, roleId: input.roleId },
      }),
    onSuccess: refresh,
  });
  const changeRole = useMutation({
    mutationFn: async (input: { userId: string; roleId: string }) =>
      unwrap(
        await supabase.rpc('change_organization_user_role', {
          p_organization_id: organizationId,
          p_user_id: input.userId,
          p_role_id: input.roleId,
        }),
      ),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: async (memberId: string) =>
      check(
        await supabase.rpc('remove_organization_user', {
          p_organization_id: organizationId,
          p_user_id: memberId,
        }),
      ),
    onSuccess: refresh,
  });
  const withdraw = useMutation({
    mutationFn: async (invitationId: string) =>
      unwrap(
        await supabase.from('invitations').delete().eq('id', invitationId).select('id').single(),
      ),
    onSuccess: refresh,
  });
  return { invite, changeRole, remove, withdraw };
}

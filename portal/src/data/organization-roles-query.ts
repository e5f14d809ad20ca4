import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OrgPermission } from '@shortlane/shared/permissions.ts';
import { useSupabase } from '../lib/servicesContext.ts';
import { organizationKeys } from './keys.ts';
import { saveOwnedRow } from './save-owned-row.ts';
import { unwrap } from './unwrap.ts';
import { useUserId } from './use-user-id.ts';

/**
 * An organization's roles (organization/{org}/settings/roles): read by its members, written by
 * holders of `roles` (the table's policies decide; nothing here checks it again).
 */
export interface OrganizationRole {
  id: string;
  name: string;
  permissions: OrgPermission[];
  /** How many people hold it. */
  users: number;
}

export interface RoleDraft {
  name: string;
  permissions: OrgPermission[];
}

const rolesKey = (userId: string, organizationId: string) =>
  [...organizationKeys.mine(userId), organizationId, 'roles'] as const;

export function useOrganizationRolesQuery(organizationId: string | null) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: rolesKey(userId ?? '', organizationId ?? ''),
    queryFn: async (): Promise<OrganizationRole[]> => {
      const rows = unwrap(
        await supabase
          .from('organization_roles')
          .select('id, name, permissions, organization_users(count)')
          .eq('organization_id', organizationId!)
          .order('name'),
      );
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        permissions: (row.permissions ?? []) as OrgPermission[],
        users: row.organization_users[0]?.count ?? 0,
      }));
    },
    enabled: userId != null && organizationId != null,
  });
}

/** Creates (no id) or updates a role; deletes with `remove`. Each refreshes the list. */
export function useOrganizationRoleMutations(organizationId: string) {
  const supabase = useSupabase();
  const userId = useUserId();
  const queryClient = useQueryClient();
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: rolesKey(userId ?? '', organizationId) });
  const save = useMutation({
    mutationFn: ({ id, draft }: { id: string | null; draft: RoleDraft }) =>
      saveOwnedRow(supabase, {
        table: 'organization_roles',
        id,
        values: { name: draft.name.trim(), permissions: draft.permissions },
        owner: { organization_id: organizationId },
      }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: async (id: string) => {
      unwrap(await supabase.from('organization_roles').delete().eq('id', id).select('id').single());
    },
    onSuccess: refresh,
  });
  return { save, remove };
}

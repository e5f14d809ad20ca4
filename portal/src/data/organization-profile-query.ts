import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSupabase } from '../lib/servicesContext.ts';
import { organizationKeys } from './keys.ts';
import { unwrap } from './unwrap.ts';
import { useUserId } from './use-user-id.ts';

/**
 * An organization's profile (organization/{org}/settings/profile), its archive state and what
 * restoring it brings back. The table's policies and the RPCs decide who may change what.
 */
export interface OrganizationProfile {
  id: string;
  slug: string;
  name: string;
  photoUrl: string | null;
  archivedAt: string | null;
  ownerId: string;
}

export interface OrganizationProfileDraft {
  name: string;
  slug: string;
}

/** What the restore-organization modal shows (organization_restore_summary). */
export interface RestoreSummary {
  admins: { name: string; email: string }[];
  adminCount: number;
  teamCount: number;
  memberCount: number;
  linkCount: number;
}

export function useOrganizationProfileQuery(orgSlug: string) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: [...organizationKeys.mine(userId ?? ''), 'profile', orgSlug],
    queryFn: async (): Promise<OrganizationProfile | null> => {
      const result = await supabase
        .from('organizations')
        .select('id, slug, name, photo_url, archived_at, account:accounts(owner_id)')
        .eq('slug', orgSlug)
        .maybeSingle();
      const row = result.error ? unwrap(result) : result.data;
      if (!row) return null;
      return {
        id: row.id,
        slug: row.slug,
        name: row.name,
        photoUrl: row.photo_url,
        archivedAt: row.archived_at,
        ownerId: row.account?.owner_id ?? '',
      };
    },
    enabled: userId != null,
  });
}

/**
 * Every organization query of the user: names, slugs and archive states show in many places.
 * Not awaited: the write is done, and the person hears so before the lists come back.
 */
function useRefreshOrganizations() {
  const queryClient = useQueryClient();
  const userId = useUserId();
  return () => {
    void queryClient.invalidateQueries({ queryKey: organizationKeys.mine(userId ?? '') });
  };
}

export function useOrganizationProfileMutations(organizationId: string) {
  const supabase = useSupabase();
  const refresh = useRefreshOrganizations();
  const save = useMutation({
    mutationFn: async (draft: OrganizationProfileDraft) => {
      const slug = draft.slug.trim();
      // A row back proves the policy let the update through (none: no `profile` permission).
      unwrap(
        await supabase
          .from('organizations')
          .update({ name: draft.name.trim(), slug })
          .eq('id', organizationId)
          .select('id')
          .single(),
      );
      return slug;
    },
    onSuccess: refresh,
  });
  const archive = useMutation({
    mutationFn: async (archived: boolean) => {
      unwrap(
        await supabase.rpc('archive_organization', {
          p_organization_id: organizationId,
          p_archive: archived,
        }),
      );
    },
    onSuccess: refresh,
  });
  return { save, archive };
}

export function useRestoreSummaryQuery(organizationId: string, enabled: boolean) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: [...organizationKeys.mine(userId ?? ''), organizationId, 'restore-summary'],
    queryFn: async (): Promise<RestoreSummary> => {
      const summary = unwrap(
        await supabase.rpc('organization_restore_summary', { p_organization_id: organizationId }),
      ) as {
        admins: { name: string; email: string }[];
        admin_count: number;
        team_count: number;
        member_count: number;
        link_count: number;
      };
      return {
        admins: summary.admins,
        adminCount: summary.admin_count,
        teamCount: summary.team_count,
        memberCount: summary.member_count,
        linkCount: summary.link_count,
      };
    },
    enabled: enabled && userId != null,
  });
}

export function useCreateOrganizationMutation() {
  const supabase = useSupabase();
  const refresh = useRefreshOrganizations();
  return useMutation({
    mutationFn: async (draft: OrganizationProfileDraft) => {
      unwrap(
        await supabase.rpc('create_organization', {
          p_name: draft.name.trim(),
          p_slug: draft.slug.trim(),
        }),
      );
      return draft.slug.trim();
    },
    onSuccess: refresh,
  });
}

import { queryOptions, useQuery } from '@tanstack/react-query';
import { useSupabase } from '../lib/servicesContext.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { organizationKeys } from './keys.ts';
import { unwrap } from './unwrap.ts';
import { useUserId } from './use-user-id.ts';

export interface OrganizationSummary {
  id: string;
  slug: string;
  name: string;
  archived: boolean;
  /** Only the owner restores an archived organization. */
  isOwner: boolean;
}

/**
 * The organizations the user owns or is a user of. Staff may read every organization, so
 * membership is checked here rather than left to RLS. (The account row, which names the owner,
 * may be unreadable to an organization user: then the organization_users row vouches.)
 */
export async function fetchMyOrganizations(
  supabase: PortalSupabase,
  userId: string,
): Promise<OrganizationSummary[]> {
  const rows = unwrap(
    await supabase
      .from('organizations')
      .select(
        'id, slug, name, archived_at, account:accounts(owner_id), organization_users(user_id)',
      )
      .order('name'),
  );
  return rows
    .filter(
      (row) =>
        row.account?.owner_id === userId ||
        row.organization_users.some((member) => member.user_id === userId),
    )
    .map((row) => ({
      id: row.id,
      slug: row.slug,
      name: row.name,
      archived: row.archived_at != null,
      isOwner: row.account?.owner_id === userId,
    }));
}

/** The query behind useMyOrganizationsQuery, also asked from the entry (state/prefetchAppState.ts). */
export function myOrganizationsQuery(
  supabase: PortalSupabase,
  userId: string | null,
  enabled = true,
) {
  return queryOptions({
    queryKey: organizationKeys.mine(userId ?? ''),
    queryFn: () => fetchMyOrganizations(supabase, userId!),
    enabled: enabled && userId != null,
  });
}

export function useMyOrganizationsQuery(enabled = true) {
  return useQuery(myOrganizationsQuery(useSupabase(), useUserId(), enabled));
}

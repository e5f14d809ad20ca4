import { queryOptions, useQuery } from '@tanstack/react-query';
import { useSupabase } from '../lib/servicesContext.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { domainKeys } from './keys.ts';
import { unwrap, type Row } from './unwrap.ts';
import { useUserId } from './use-user-id.ts';

const DOMAIN_COLUMNS =
  'id, domain, kind, account_id, is_disabled, require_email_verification, subscribed_only, allow_for_guests, guest_can_use_custom_alias';

export type DomainRow = Pick<
  Row<'domains'>,
  | 'id'
  | 'domain'
  | 'kind'
  | 'account_id'
  | 'is_disabled'
  | 'require_email_verification'
  | 'subscribed_only'
  | 'allow_for_guests'
  | 'guest_can_use_custom_alias'
>;

/** The domains the viewer may see (RLS decides): the common ones, plus their own when signed in. */
export async function fetchDomains(supabase: PortalSupabase): Promise<DomainRow[]> {
  return unwrap(
    await supabase
      .from('domains')
      .select(DOMAIN_COLUMNS)
      .eq('is_deleted', false)
      .order('kind')
      .order('domain'),
  );
}

/** The query behind useDomainsQuery, also asked from the entry (state/prefetchAppState.ts). */
export function domainsQuery(supabase: PortalSupabase, userId: string | null) {
  return queryOptions({
    queryKey: domainKeys.list(userId),
    queryFn: () => fetchDomains(supabase),
  });
}

export function useDomainsQuery() {
  return useQuery(domainsQuery(useSupabase(), useUserId()));
}

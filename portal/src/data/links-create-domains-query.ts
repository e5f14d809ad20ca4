import { useQuery } from '@tanstack/react-query';
import { useSupabase } from '../lib/servicesContext.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { domainKeys } from './keys.ts';
import { unwrap } from './unwrap.ts';
import { useUserId } from './use-user-id.ts';

/** A domain as the create form weighs it: its flags, owner and (organization domains) teams. */
export interface CreateFormDomainRow {
  domain: string;
  kind: string;
  account_id: string | null;
  is_disabled: boolean;
  is_blocked: boolean;
  require_email_verification: boolean;
  subscribed_only: boolean;
  allow_for_guests: boolean;
  guest_can_use_custom_alias: boolean;
  for_all_teams: boolean;
  domain_teams: { team: { slug: string } | null }[];
}

const COLUMNS =
  'domain, kind, account_id, is_disabled, is_blocked, require_email_verification, subscribed_only, allow_for_guests, guest_can_use_custom_alias, for_all_teams';

/**
 * Every domain the viewer may read (RLS decides), not deleted and verified (the redirect serves
 * no other, and create_link refuses them: a branded domain appears once it passes); the form
 * filters and sorts. Guests read common domains only, and may not read domain_teams at all:
 * their rows get none.
 */
export async function fetchCreateFormDomains(
  supabase: PortalSupabase,
  signedIn: boolean,
): Promise<CreateFormDomainRow[]> {
  if (!signedIn) {
    const rows = unwrap(
      await supabase
        .from('domains')
        .select(COLUMNS)
        .eq('is_deleted', false)
        .eq('verification_status', 'verified'),
    );
    return rows.map((row) => ({ ...row, domain_teams: [] }));
  }
  return unwrap(
    await supabase
      .from('domains')
      .select(`${COLUMNS}, domain_teams(team:teams(slug))`)
      .eq('is_deleted', false)
      .eq('verification_status', 'verified'),
  );
}

export function useCreateFormDomainsQuery() {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: [...domainKeys.list(userId), 'create-form'],
    queryFn: () => fetchCreateFormDomains(supabase, userId != null),
  });
}

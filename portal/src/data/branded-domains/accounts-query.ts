import { useQuery } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import type { PortalSupabase } from '../../lib/supabase.ts';
import { unwrap } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';
import { brandedDomainKeys } from './keys.ts';

export type DomainAccountKind = 'personal' | 'team' | 'organization';

export interface DomainAccount {
  accountId: string;
  kind: DomainAccountKind;
  name: string;
  organizationSlug: string | null;
  features: {
    addBrandedDomains: boolean;
    addVanitySubdomains: boolean;
    rootRedirect: boolean;
    notFoundRedirect: boolean;
  };
}

const KINDS: readonly string[] = ['personal', 'team', 'organization'];
const isKind = (kind: string): kind is DomainAccountKind => KINDS.includes(kind);

/**
 * The accounts whose domains the user manages (public.domain_accounts: the `domains` permission
 * the policies ask for), personal first, with the plan features the pages gate on.
 */
export async function fetchDomainAccounts(supabase: PortalSupabase): Promise<DomainAccount[]> {
  const rows = unwrap(await supabase.rpc('domain_accounts'));
  return rows.flatMap((row) =>
    isKind(row.kind)
      ? [
          {
            accountId: row.account_id,
            kind: row.kind,
            name: row.name,
            organizationSlug: row.organization_slug,
            features: {
              addBrandedDomains: row.add_branded_domains,
              addVanitySubdomains: row.add_vanity_subdomains,
              rootRedirect: row.domain_root_redirect,
              notFoundRedirect: row.domain_404_redirect,
            },
          },
        ]
      : [],
  );
}

export function useDomainAccountsQuery() {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: brandedDomainKeys.accounts(userId ?? ''),
    queryFn: () => fetchDomainAccounts(supabase),
    enabled: userId != null,
  });
}

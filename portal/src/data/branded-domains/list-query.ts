import { useQuery } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import type { PortalSupabase } from '../../lib/supabase.ts';
import { unwrap, type Row } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';
import { brandedDomainKeys } from './keys.ts';

export const BRANDED_DOMAIN_COLUMNS =
  'id, domain, kind, account_id, base_domain_id, for_all_teams, root_redirect_url, not_found_redirect_url, verification_status, verification_token, verification_problem, verification_checked_at, verification_next_check_at, verification_deadline, verified_at, created_at';

export type BrandedDomain = Pick<
  Row<'domains'>,
  | 'id'
  | 'domain'
  | 'kind'
  | 'account_id'
  | 'base_domain_id'
  | 'for_all_teams'
  | 'root_redirect_url'
  | 'not_found_redirect_url'
  | 'verification_status'
  | 'verification_token'
  | 'verification_problem'
  | 'verification_checked_at'
  | 'verification_next_check_at'
  | 'verification_deadline'
  | 'verified_at'
  | 'created_at'
>;

export interface BrandedDomainListItem extends BrandedDomain {
  links: number;
}

/** One account's live domains, newest first, each with how many links it carries. */
export async function fetchBrandedDomains(
  supabase: PortalSupabase,
  accountId: string,
): Promise<BrandedDomainListItem[]> {
  const rows = unwrap(
    await supabase
      .from('domains')
      .select(BRANDED_DOMAIN_COLUMNS)
      .eq('account_id', accountId)
      .eq('is_deleted', false)
      .order('created_at', { ascending: false }),
  );
  if (rows.length === 0) return [];
  const counts = unwrap(
    await supabase.rpc('domain_link_counts', { p_domain_ids: rows.map((row) => row.id) }),
  );
  const byId = new Map(counts.map((count) => [count.domain_id, Number(count.links)]));
  return rows.map((row) => ({ ...row, links: byId.get(row.id) ?? 0 }));
}

export function useBrandedDomainsQuery(accountId: string | null) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: brandedDomainKeys.list(userId ?? '', accountId ?? ''),
    queryFn: () => fetchBrandedDomains(supabase, accountId!),
    enabled: userId != null && accountId != null,
  });
}

export interface DomainUsage {
  domains: number;
  subdomains: number;
  vanity: number;
  maxDomains: number | null;
  maxSubdomains: number | null;
  maxDomainsSubdomains: number | null;
  maxVanitySubdomains: number | null;
  discountedDomainCount: number | null;
}

const count = (value: number | string | null) => (value == null ? null : Number(value));

/** What the plan allows and what the account holds (public.account_domain_usage). */
export async function fetchDomainUsage(
  supabase: PortalSupabase,
  accountId: string,
): Promise<DomainUsage> {
  const [row] = unwrap(await supabase.rpc('account_domain_usage', { p_account_id: accountId }));
  if (!row) throw new Error('No domain usage came back.');
  return {
    domains: Number(row.domains),
    subdomains: Number(row.subdomains),
    vanity: Number(row.vanity),
    maxDomains: count(row.max_domains),
    maxSubdomains: count(row.max_subdomains),
    maxDomainsSubdomains: count(row.max_domains_subdomains),
    maxVanitySubdomains: count(row.max_vanity_subdomains),
    discountedDomainCount: count(row.discounted_domain_count),
  };
}

export function useDomainUsageQuery(accountId: string | null) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: brandedDomainKeys.usage(userId ?? '', accountId ?? ''),
    queryFn: () => fetchDomainUsage(supabase, accountId!),
    enabled: userId != null && accountId != null,
  });
}

import { useQuery } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import type { PortalSupabase } from '../../lib/supabase.ts';
import { unwrap } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';
import { brandedDomainKeys } from './keys.ts';
import { BRANDED_DOMAIN_COLUMNS, type BrandedDomain } from './list-query.ts';

export interface DomainWithTeams extends BrandedDomain {
  teamIds: string[];
}

/**
 * One live domain the user may read, by id or by name (a live name is unique), with the teams
 * an organization domain applies to; null when there is none.
 */
export async function fetchBrandedDomain(
  supabase: PortalSupabase,
  by: { id: string } | { name: string },
): Promise<DomainWithTeams | null> {
  const query = supabase.from('domains').select(BRANDED_DOMAIN_COLUMNS).eq('is_deleted', false);
  const { data, error, status } = await (
    'id' in by ? query.eq('id', by.id) : query.eq('domain', by.name.toLowerCase())
  ).maybeSingle();
  if (error) unwrap({ data, error, status });
  if (!data || data.kind === 'common') return null;
  const teams =
    data.kind === 'organization'
      ? unwrap(await supabase.from('domain_teams').select('team_id').eq('domain_id', data.id))
      : [];
  return { ...data, teamIds: teams.map((team) => team.team_id) };
}

export function useBrandedDomainQuery(by: { id: string } | { name: string } | null) {
  const supabase = useSupabase();
  const userId = useUserId();
  const key = by == null ? '' : 'id' in by ? `id:${by.id}` : `name:${by.name.toLowerCase()}`;
  return useQuery({
    queryKey: brandedDomainKeys.detail(userId ?? '', key),
    queryFn: () => fetchBrandedDomain(supabase, by!),
    enabled: userId != null && by != null,
  });
}

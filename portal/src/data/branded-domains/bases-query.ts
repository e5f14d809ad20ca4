import { useQuery } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import { unwrap } from '../unwrap.ts';
import { brandedDomainKeys } from './keys.ts';

/** Our domains under which vanity subdomains may be claimed (public.vanity_base_domains). */
export function useVanityBaseDomainsQuery() {
  const supabase = useSupabase();
  return useQuery({
    queryKey: brandedDomainKeys.bases(),
    queryFn: async () => unwrap(await supabase.rpc('vanity_base_domains')),
  });
}

import { useQuery } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import { unwrap, type Row } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';
import { ssoKeys } from './keys.ts';

export type SsoSetting = Row<'organization_sso'>;
export type SsoDomain = Row<'organization_sso_domains'>;

export interface OrganizationSso {
  /** Null until an identity provider is registered. */
  setting: SsoSetting | null;
  domains: SsoDomain[];
}

/** Read by whoever sees the organization (the policies decide), written by holders of SSO. */
export function useOrganizationSsoQuery(organizationId: string | null) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: ssoKeys.setting(userId ?? '', organizationId ?? ''),
    queryFn: async (): Promise<OrganizationSso> => {
      const [setting, domains] = await Promise.all([
        supabase
          .from('organization_sso')
          .select('*')
          .eq('organization_id', organizationId!)
          .maybeSingle(),
        supabase
          .from('organization_sso_domains')
          .select('*')
          .eq('organization_id', organizationId!)
          .order('domain'),
      ]);
      if (setting.error) unwrap(setting);
      return { setting: setting.data, domains: unwrap(domains) };
    },
    enabled: userId != null && organizationId != null,
  });
}

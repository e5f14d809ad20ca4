import { useQuery } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import { unwrap } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';
import { brandedDomainKeys } from './keys.ts';

export interface OrganizationTeam {
  id: string;
  name: string;
}

/** The live teams of the organization that owns an account, for choosing a domain's teams. */
export function useOrganizationTeamsQuery(organizationAccountId: string | null) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: [
      ...brandedDomainKeys.all(userId ?? ''),
      'organization-teams',
      organizationAccountId ?? '',
    ],
    queryFn: async (): Promise<OrganizationTeam[]> => {
      const rows = unwrap(
        await supabase
          .from('teams')
          .select('id, name, archived_at, organization:organizations!inner(account_id)')
          .eq('organization.account_id', organizationAccountId!)
          .is('archived_at', null)
          .order('name'),
      );
      return rows.map((row) => ({ id: row.id, name: row.name }));
    },
    enabled: userId != null && organizationAccountId != null,
  });
}

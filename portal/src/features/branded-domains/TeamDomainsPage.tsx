import { Alert, Stack, Text, Title } from '@mantine/core';
import { SettingsSection } from '../../components/SettingsSection.tsx';
import type { DomainAccount } from '../../data/branded-domains/accounts-query.ts';
import { fetchBrandedDomain } from '../../data/branded-domains/domain-query.ts';
import { useBrandedDomainsQuery } from '../../data/branded-domains/list-query.ts';
import { useOrganizationTeamsQuery } from '../../data/branded-domains/organization-teams-query.ts';
import { useQuery } from '@tanstack/react-query';
import { brandedDomainKeys } from '../../data/branded-domains/keys.ts';
import { useUserId } from '../../data/use-user-id.ts';
import { useConfig, useSupabase } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { DomainScopeGate } from './DomainScopeGate.tsx';
import { DomainTeamsEditor } from './DomainTeamsEditor.tsx';

/**
 * org.settings.teams.domains: which of the organization's domains each team may use. One block
 * per domain: all teams, or the chosen ones.
 */
export default function TeamDomainsPage() {
  const { productName } = useConfig();
  usePageTitle('Team domains', productName);
  return (
    <Stack gap="lg">
      <Title order={1}>Team domains</Title>
      <DomainScopeGate>{({ account }) => <TeamDomains account={account} />}</DomainScopeGate>
    </Stack>
  );
}

function TeamDomains({ account }: { account: DomainAccount }) {
  const supabase = useSupabase();
  const userId = useUserId();
  const domains = useBrandedDomainsQuery(account.accountId);
  const teams = useOrganizationTeamsQuery(account.accountId);
  const ids = (domains.data ?? []).map((domain) => domain.id);
  // The teams each domain has now (domain_teams), read with the domains.
  const withTeams = useQuery({
    queryKey: brandedDomainKeys.detail(userId ?? '', `teams:${ids.join(',')}`),
    queryFn: async () =>
      Promise.all(ids.map((id) => fetchBrandedDomain(supabase, { id }))).then((rows) =>
        rows.flatMap((row) => (row ? [row] : [])),
      ),
    enabled: domains.isSuccess && ids.length > 0,
  });
  if (domains.isPending || teams.isPending) return <Text>Loading…</Text>;
  if (domains.isError || teams.isError || withTeams.isError) {
    return <Alert color="red">The domains or teams could not be loaded.</Alert>;
  }
  if (ids.length === 0) return <Text c="dimmed">The organization has no domains yet.</Text>;
  if (!withTeams.data) return <Text>Loading…</Text>;
  return (
    <Stack gap="md">
      {withTeams.data.map((domain) => (
        <SettingsSection key={domain.id} title={domain.domain}>
          <DomainTeamsEditor domain={domain} teams={teams.data} />
        </SettingsSection>
      ))}
    </Stack>
  );
}

import { Alert, Loader, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useLocation, useParams } from 'react-router-dom';
import { useProfileQuery } from '../../data/profile-query.ts';
import { useUserId } from '../../data/use-user-id.ts';
import { billingDocumentKeys } from '../../data/billing-documents/keys.ts';
import { useSupabase } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { useCurrentRouteName } from '../../routes/currentRoute.ts';
import { TeamSettingsFrame } from '../teams/TeamSettingsFrame.tsx';

/** Whose billing a page shows: the user's own, a team's or an organization's account. */
export type BillingScope = 'user' | 'team' | 'organization';

export function billingScopeOf(route: string): BillingScope {
  if (route.startsWith('team.')) return 'team';
  if (route.startsWith('org.')) return 'organization';
  return 'user';
}

type Render = (accountId: string, returnPath: string) => ReactNode;

function Titled({ title, children }: { title: string; children: ReactNode }) {
  usePageTitle(title);
  return (
    <Stack gap="lg">
      <Title order={1}>{title}</Title>
      {children}
    </Stack>
  );
}

function UserAccount({ title, children }: { title: string; children: Render }) {
  const { pathname } = useLocation();
  const profile = useProfileQuery();
  const accountId = profile.data?.personal_account_id;
  return (
    <Titled title={title}>
      {accountId ? children(accountId, pathname) : <Loader size="sm" />}
    </Titled>
  );
}

function OrganizationAccount({ title, children }: { title: string; children: Render }) {
  const { org = '' } = useParams();
  const { pathname } = useLocation();
  const supabase = useSupabase();
  const userId = useUserId();
  const account = useQuery({
    queryKey: billingDocumentKeys.organizationAccount(userId ?? '', org),
    enabled: userId != null,
    queryFn: async () => {
      const { data, error } = await supabase
        .from('organizations')
        .select('account_id')
        .eq('slug', org)
        .maybeSingle();
      if (error) throw error;
      return data?.account_id ?? null;
    },
  });
  return (
    <Titled title={title}>
      {account.isPending && <Loader size="sm" />}
      {account.isError && <Alert color="red" title="The organization could not be loaded" />}
      {account.isSuccess &&
        (account.data ? (
          children(account.data, pathname)
        ) : (
          <Alert title="Unknown organization.">This organization is not yours to see.</Alert>
        ))}
    </Titled>
  );
}

/**
 * Renders a billing page's body for the account its route names (settings, a team's page or an
 * organization's), with that page's own path to come back to from the provider.
 */
export function BillingAccountScope({ title, children }: { title: string; children: Render }) {
  const scope = billingScopeOf(useCurrentRouteName());
  const { pathname } = useLocation();
  if (scope === 'team')
    return (
      <TeamSettingsFrame title={title}>
        {(team) => children(team.accountId, pathname)}
      </TeamSettingsFrame>
    );
  if (scope === 'organization')
    return <OrganizationAccount title={title}>{children}</OrganizationAccount>;
  return <UserAccount title={title}>{children}</UserAccount>;
}

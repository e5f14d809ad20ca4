import { Alert, Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { DomainAccount } from '../../data/branded-domains/accounts-query.ts';
import { useDomainUsageQuery } from '../../data/branded-domains/list-query.ts';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { href } from '../../routes/paths.ts';
import { SubdomainForm } from './CreateSubdomainPage.tsx';
import { DomainScopeGate } from './DomainScopeGate.tsx';

/**
 * settings/create-tiny: the short domains a personal plan gives without owning a domain. A vanity
 * subdomain (name.<one of our base domains>, the same claim as create-subdomain, live at once)
 * and the plan's discounted domains (plan option discounted_domain_count): a domain bought
 * through us whose first year is charged at our cost; we register it, set its DNS and verify it.
 */
export default function CreateTinyPage() {
  const { productName } = useConfig();
  usePageTitle('Add a short domain', productName);
  return (
    <Stack gap="lg">
      <Title order={1}>Add a short domain</Title>
      <DomainScopeGate>
        {({ account }) => (
          <Stack gap="xl">
            <Stack gap="sm" component="section" aria-labelledby="create-tiny-vanity">
              <Title order={2} size="h3" id="create-tiny-vanity">
                A vanity subdomain
              </Title>
              <SubdomainForm account={account} />
            </Stack>
            <Stack gap="sm" component="section" aria-labelledby="create-tiny-discounted">
              <Title order={2} size="h3" id="create-tiny-discounted">
                A discounted domain
              </Title>
              <DiscountedDomains account={account} />
            </Stack>
          </Stack>
        )}
      </DomainScopeGate>
    </Stack>
  );
}

function DiscountedDomains({ account }: { account: DomainAccount }) {
  const usage = useDomainUsageQuery(account.accountId);
  const included = usage.data?.discountedDomainCount ?? 0;
  if (usage.isPending) return <Text>Loading…</Text>;
  if (usage.isError) return <Alert color="red">Your plan could not be loaded.</Alert>;
  if (included === 0) {
    return (
      <Alert color="blue" title="Your plan includes no discounted domains">
        <Anchor component={Link} to={href('settings.subscription')}>
          See the plans that include them
        </Anchor>
      </Alert>
    );
  }
  return (
    <Stack gap="md" maw={560}>
      <Text>
        Your plan includes {included} discounted {included === 1 ? 'domain' : 'domains'}: search for
        a name, and its first year is charged at the plan&apos;s price. We register it, set its DNS
        and verify it for you.
      </Text>
      <Button component={Link} to={href('purchase.domain')} w="fit-content">
        Search for a domain
      </Button>
    </Stack>
  );
}

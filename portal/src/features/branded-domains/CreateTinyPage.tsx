import { Alert, Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { DomainAccount } from '../../data/branded-domains/accounts-query.ts';
import { useDomainUsageQuery } from '../../data/branded-domains/list-query.ts';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { href } from '../../routes/paths.ts';
import { DomainScopeGate } from './DomainScopeGate.tsx';

/**
 * settings/create-tiny: the discounted domains of the plan (plan option discounted_domain_count,
 * "3 discounted domains" on Enterprise). A discounted domain is one the customer buys through us
 * at the plan's price; this page says how many the plan includes and leads to the domain search,
 * where the purchase (issue 14, items 5 and 6) applies the discount. Once bought, the domain is
 * registered, gets its DNS zone and is verified without the customer touching DNS.
 */
export default function CreateTinyPage() {
  const { productName } = useConfig();
  usePageTitle('Add a discounted domain', productName);
  return (
    <Stack gap="lg">
      <Title order={1}>Add a discounted domain</Title>
      <DomainScopeGate>{({ account }) => <DiscountedDomains account={account} />}</DomainScopeGate>
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

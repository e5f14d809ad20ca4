import { Alert, Anchor, Button, Container, Stack, Table, Text, Title } from '@mantine/core';
import { MESSAGES } from '@shortlane/shared/messages.ts';
import { Link } from 'react-router-dom';
import { LoadingFrame } from '../../components/LoadingFrame.tsx';
import { useBrandedDomainsQuery } from '../../data/branded-domains/list-query.ts';
import { useProfileQuery } from '../../data/profile-query.ts';
import { DomainStateBadge } from '../../features/branded-domains/DomainStateBadge.tsx';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { href } from '../../routes/paths.ts';

/**
 * /app/domain-purchase-verification: where the shopping cart's success page sends a domain
 * bought during a free trial (app-shell 4). Until the purchase flow records which order a domain
 * came from, the page shows the verification state of the personal account's domains, which is
 * what the buyer waits for: a bought domain is usable once it is verified.
 */
export default function DomainPurchaseVerificationPage() {
  const { productName } = useConfig();
  usePageTitle('Domain purchase verification', productName);
  const profile = useProfileQuery();
  const domains = useBrandedDomainsQuery(profile.data?.personal_account_id ?? null);
  const pending = profile.isPending || domains.isPending;
  const failed = profile.isError || domains.isError;
  return (
    <Container size="md" py="xl">
      <Stack gap="lg">
        <Title order={1}>Your domain is being set up</Title>
        <Text>
          A domain bought during your free trial is verified before links can use it. This usually
          takes a few minutes; the state below updates when you come back.
        </Text>
        {failed ? (
          <Alert color="red" role="alert" title="Your domains could not be loaded">
            <Text size="sm">{MESSAGES.somethingWentWrong}</Text>
            <Button
              mt="sm"
              size="xs"
              onClick={() => void (profile.isError ? profile.refetch() : domains.refetch())}
            >
              Try again
            </Button>
          </Alert>
        ) : pending ? (
          <LoadingFrame label="Loading your domains" minHeight={160} />
        ) : domains.data.length === 0 ? (
          <Text>
            No domain yet.{' '}
            <Anchor component={Link} to={href('purchase.domain')}>
              Buy a domain
            </Anchor>
          </Text>
        ) : (
          <Table aria-label="Your domains">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Domain</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>Verified</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {domains.data.map((row) => (
                <Table.Tr key={row.id}>
                  <Table.Td>{row.domain}</Table.Td>
                  <Table.Td>
                    <DomainStateBadge status={row.verification_status} />
                  </Table.Td>
                  <Table.Td>
                    {row.verified_at ? new Date(row.verified_at).toLocaleString() : '—'}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Anchor component={Link} to={href('settings.brandedDomains')}>
          Manage your branded domains
        </Anchor>
      </Stack>
    </Container>
  );
}

import {
  Alert,
  Anchor,
  Button,
  Group,
  Select,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { usageText } from '@shortlane/shared/branded-domains.ts';
import {
  VERIFICATION_PROBLEM_MESSAGES,
  type VerificationProblem,
} from '@shortlane/shared/domain-verification.ts';
import { Link, useSearchParams } from 'react-router-dom';
import type { DomainAccount } from '../../data/branded-domains/accounts-query.ts';
import {
  useBrandedDomainsQuery,
  useDomainUsageQuery,
  type BrandedDomainListItem,
} from '../../data/branded-domains/list-query.ts';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { useCurrentRouteName } from '../../routes/currentRoute.ts';
import { href } from '../../routes/paths.ts';
import { AddDomainButton } from './AddDomainButton.tsx';
import { DomainScopeGate } from './DomainScopeGate.tsx';
import { DomainStateBadge } from './DomainStateBadge.tsx';
import { usePurchasedDomainsQuery } from '../../data/domain-purchase/cart.ts';
import { PurchasedDomainNote } from '../domain-purchase/PurchasedDomainState.tsx';
import { formatWhen } from './formatting.ts';
import { ACCOUNT_PARAM, accountLabel, accountQuery } from './useDomainScope.ts';

/**
 * settings/branded-domains (and org.settings.domains): an account's domains with their state,
 * why a pending one has not passed yet, when it is checked next and how many links it carries;
 * the plan's room; the ways to add one.
 */
export default function DomainsPage() {
  const { productName } = useConfig();
  const isOrganization = useCurrentRouteName().startsWith('org.');
  const title = isOrganization ? 'Organization domains' : 'Branded domains';
  usePageTitle(title, productName);
  const [, setParams] = useSearchParams();
  return (
    <Stack gap="lg">
      <Title order={1}>{title}</Title>
      <DomainScopeGate>
        {({ account, choices }) => (
          <>
            {!isOrganization && choices.length > 1 && (
              <Select
                label="Account"
                data={choices.map((choice) => ({
                  value: choice.accountId,
                  label: accountLabel(choice),
                }))}
                value={account.accountId}
                onChange={(value) => value && setParams({ [ACCOUNT_PARAM]: value })}
                allowDeselect={false}
                maw={360}
              />
            )}
            <AccountDomains key={account.accountId} account={account} />
          </>
        )}
      </DomainScopeGate>
    </Stack>
  );
}

function AccountDomains({ account }: { account: DomainAccount }) {
  const domains = useBrandedDomainsQuery(account.accountId);
  const usage = useDomainUsageQuery(account.accountId);
  const query = accountQuery(account);
  const createPath = href('settings.brandedDomains.create', null, query);

  return (
    <Stack gap="md">
      <Text>
        Short links on a domain of your own. Add a domain you own and point it at us, or claim a
        vanity subdomain of ours, live at once.
      </Text>
      {usage.data && (
        <Text size="sm" aria-label="Plan usage">
          Domains {usageText(usage.data.domains, usage.data.maxDomains)} · Subdomains{' '}
          {usageText(usage.data.subdomains, usage.data.maxSubdomains)} · Domains and subdomains{' '}
          {usageText(usage.data.domains + usage.data.subdomains, usage.data.maxDomainsSubdomains)}
          {account.kind !== 'organization' && (
            <> · Vanity subdomains {usageText(usage.data.vanity, usage.data.maxVanitySubdomains)}</>
          )}
        </Text>
      )}
      <Group>
        {account.kind === 'personal' ? (
          <AddDomainButton to={createPath} />
        ) : account.kind === 'organization' || account.features.addBrandedDomains ? (
          <Button component={Link} to={createPath}>
            Add Domain
          </Button>
        ) : (
          <Text size="sm">This team&apos;s plan does not include branded domains.</Text>
        )}
        {account.kind !== 'organization' && account.features.addVanitySubdomains && (
          <Button
            variant="light"
            component={Link}
            to={href('settings.brandedDomains.createSubdomain', null, query)}
          >
            Add a vanity subdomain
          </Button>
        )}
        {account.kind === 'personal' && (
          <Anchor component={Link} to={href('settings.brandedDomains.createTiny')} size="sm">
            Discounted domains
          </Anchor>
        )}
      </Group>
      {domains.isPending ? (
        <Text size="sm">Loading domains…</Text>
      ) : domains.isError ? (
        <Alert color="red" title="The domains could not be loaded">
          <Button variant="light" size="xs" mt="xs" onClick={() => void domains.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : domains.data.length === 0 ? (
        <Text c="dimmed">No domains yet.</Text>
      ) : (
        <DomainTable rows={domains.data} query={query} />
      )}
    </Stack>
  );
}

function DomainTable({
  rows,
  query,
}: {
  rows: readonly BrandedDomainListItem[];
  query: Record<string, string>;
}) {
  // Bought domains say how their registration and renewal stand.
  const purchased = usePurchasedDomainsQuery(rows.map((row) => row.id));
  const purchaseOf = new Map((purchased.data ?? []).map((state) => [state.domain_id, state]));
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped aria-label="Domains">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Domain</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th>Problem</Table.Th>
            <Table.Th>Next check</Table.Th>
            <Table.Th>Links</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.id}>
              <Table.Td>
                {row.domain}
                {row.base_domain_id && (
                  <Text span size="xs" c="dimmed">
                    {' '}
                    (vanity)
                  </Text>
                )}
                {purchaseOf.has(row.id) && <PurchasedDomainNote state={purchaseOf.get(row.id)!} />}
              </Table.Td>
              <Table.Td>
                <DomainStateBadge status={row.verification_status} />
              </Table.Td>
              <Table.Td>
                {row.verification_problem
                  ? (VERIFICATION_PROBLEM_MESSAGES[
                      row.verification_problem as VerificationProblem
                    ] ?? row.verification_problem)
                  : '—'}
              </Table.Td>
              <Table.Td>{formatWhen(row.verification_next_check_at)}</Table.Td>
              <Table.Td>{row.links}</Table.Td>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  {row.verification_status !== 'verified' && (
                    <Anchor
                      component={Link}
                      size="sm"
                      to={href('settings.brandedDomains.verify', null, {
                        ...query,
                        domain: row.id,
                      })}
                      aria-label={`Verify ${row.domain}`}
                    >
                      Verify
                    </Anchor>
                  )}
                  <Anchor
                    component={Link}
                    size="sm"
                    to={href('settings.brandedDomains.edit', { domain: row.domain }, query)}
                    aria-label={`Settings of ${row.domain}`}
                  >
                    Settings
                  </Anchor>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

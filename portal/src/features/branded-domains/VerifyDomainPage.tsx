import { Alert, Anchor, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import {
  verificationRecordName,
  VERIFICATION_PROBLEM_MESSAGES,
  type VerificationProblem,
} from '@shortlane/shared/domain-verification.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { brandedDomainKeys } from '../../data/branded-domains/keys.ts';
import { domainKeys } from '../../data/keys.ts';
import { useUserId } from '../../data/use-user-id.ts';
import type { DomainAccount } from '../../data/branded-domains/accounts-query.ts';
import { useRestartVerificationMutation } from '../../data/branded-domains/domain-mutations.ts';
import { useBrandedDomainQuery } from '../../data/branded-domains/domain-query.ts';
import {
  useDomainVerificationQuery,
  type DomainVerification,
} from '../../data/branded-domains/verification-query.ts';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { href } from '../../routes/paths.ts';
import { CopyButton } from '../links/result/CopyButton.tsx';
import { domainError } from './domainErrors.ts';
import { DomainScopeGate } from './DomainScopeGate.tsx';
import { DomainStateBadge } from './DomainStateBadge.tsx';
import { formatWhen } from './formatting.ts';
import { accountQuery } from './useDomainScope.ts';

export interface DnsRecord {
  type: 'TXT' | 'CNAME' | 'A' | 'AAAA';
  name: string;
  value: string;
}

/**
 * The records a customer sets: the ownership TXT, and the host pointing at us, a CNAME or
 * (where a CNAME cannot be set, e.g. a zone apex) A/AAAA records to our addresses.
 */
export function dnsRecords(
  domain: string,
  token: string,
  target: DomainVerification['target'],
): { ownership: DnsRecord; cname: DnsRecord; addresses: DnsRecord[] } {
  return {
    ownership: { type: 'TXT', name: verificationRecordName(domain), value: token },
    cname: { type: 'CNAME', name: domain, value: target.cname },
    addresses: target.addresses.map((address) => ({
      type: address.includes(':') ? 'AAAA' : 'A',
      name: domain,
      value: address,
    })),
  };
}

/**
 * settings/verify?domain=<id>: the DNS records to set, each with a copy button, and the
 * verification state, refreshed with a backoff while pending; "Check now" asks at once.
 */
export default function VerifyDomainPage() {
  const { productName } = useConfig();
  usePageTitle('Verify a domain', productName);
  return (
    <Stack gap="lg">
      <Title order={1}>Verify a domain</Title>
      <DomainScopeGate>{({ account }) => <VerifyDomain account={account} />}</DomainScopeGate>
    </Stack>
  );
}

function VerifyDomain({ account }: { account: DomainAccount }) {
  const [params] = useSearchParams();
  const domainId = params.get('domain');
  const domain = useBrandedDomainQuery(domainId ? { id: domainId } : null);
  const verification = useDomainVerificationQuery(domain.data ? domain.data.id : null);
  const restart = useRestartVerificationMutation();
  const listPath = href('settings.brandedDomains', null, accountQuery(account));
  const queryClient = useQueryClient();
  const userId = useUserId();
  const verifiedNow = verification.data?.verification_status === 'verified';
  // Once it passes, the lists and the create form's domains hear of it.
  useEffect(() => {
    if (!verifiedNow || userId == null) return;
    void queryClient.invalidateQueries({
      queryKey: brandedDomainKeys.list(userId, account.accountId),
    });
    void queryClient.invalidateQueries({ queryKey: domainKeys.list(userId) });
  }, [verifiedNow, userId, account.accountId, queryClient]);

  if (domainId == null || (domain.isSuccess && domain.data == null)) {
    return (
      <Alert color="yellow" title="Domain not found">
        <Anchor component={Link} to={listPath}>
          Back to your domains
        </Anchor>
      </Alert>
    );
  }
  if (domain.isPending) return <Text>Loading…</Text>;
  if (domain.isError || !domain.data) {
    return (
      <Alert color="red" title="The domain could not be loaded">
        <Button variant="light" size="xs" mt="xs" onClick={() => void domain.refetch()}>
          Try again
        </Button>
      </Alert>
    );
  }
  const row = domain.data;
  const state = verification.data;
  const status = state?.verification_status ?? row.verification_status;
  const problem = state?.verification_problem ?? row.verification_problem;
  const records = state ? dnsRecords(row.domain, row.verification_token, state.target) : null;

  return (
    <Stack gap="md">
      <Group gap="sm">
        <Title order={2} size="h3">
          {row.domain}
        </Title>
        <DomainStateBadge status={status} />
      </Group>
      {status === 'verified' ? (
        <Alert color="teal" title="Verified">
          The domain is yours and serves your short links now. Choose it in the domain list when you
          create a link.
        </Alert>
      ) : status === 'failed' ? (
        <Alert color="red" title="Verification failed">
          <Text size="sm">
            We could not find the records before the deadline
            {problem
              ? `: ${VERIFICATION_PROBLEM_MESSAGES[problem as VerificationProblem] ?? problem}`
              : '.'}
          </Text>
          <Button
            size="xs"
            mt="xs"
            loading={restart.isPending}
            onClick={() => restart.mutate(row.id, { onSuccess: () => void verification.refetch() })}
          >
            Start again
          </Button>
          {restart.isError && <Text size="sm">{domainError(restart.error)?.message}</Text>}
        </Alert>
      ) : (
        <Alert color="yellow" title="Waiting for your DNS records">
          <Text size="sm">
            {problem
              ? (VERIFICATION_PROBLEM_MESSAGES[problem as VerificationProblem] ?? problem)
              : 'We have not checked yet.'}{' '}
            We keep checking until{' '}
            {formatWhen(state?.verification_deadline ?? row.verification_deadline)}; DNS changes can
            take a while to reach everyone.
          </Text>
        </Alert>
      )}
      <Text size="sm" aria-label="Checks">
        Last checked: {formatWhen(state?.verification_checked_at ?? row.verification_checked_at)}
        {status === 'pending' && (
          <>
            {' '}
            · Next check:{' '}
            {formatWhen(state?.verification_next_check_at ?? row.verification_next_check_at)}
          </>
        )}
      </Text>
      {status === 'pending' && (
        <Group>
          <Button
            variant="light"
            loading={verification.isFetching}
            onClick={() => void verification.refetch()}
          >
            Check now
          </Button>
        </Group>
      )}
      {verification.isError && (
        <Alert color="red" role="alert">
          {domainError(verification.error)?.message}
        </Alert>
      )}
      {records && status !== 'verified' && <RecordsTable records={records} />}
      <Anchor component={Link} to={listPath}>
        Back to your domains
      </Anchor>
    </Stack>
  );
}

function RecordsTable({ records }: { records: ReturnType<typeof dnsRecords> }) {
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        DNS records to set
      </Title>
      <Text size="sm">
        Set both at your DNS provider: the TXT record proves the domain is yours, the other one
        sends its visitors to us.
      </Text>
      <RecordRows title="Ownership" rows={[records.ownership]} />
      <RecordRows title="Host: a CNAME" rows={[records.cname]} />
      {records.addresses.length > 0 && (
        <RecordRows
          title="…or, where a CNAME cannot be set (the domain's apex), these instead"
          rows={records.addresses}
        />
      )}
    </Stack>
  );
}

function RecordRows({ title, rows }: { title: string; rows: DnsRecord[] }) {
  return (
    <Table withTableBorder aria-label={title} captionSide="top">
      <Table.Caption>{title}</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Type</Table.Th>
          <Table.Th>Name</Table.Th>
          <Table.Th>Value</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((record) => (
          <Table.Tr key={`${record.type}:${record.value}`}>
            <Table.Td>{record.type}</Table.Td>
            <Table.Td>
              <Group gap="xs" wrap="nowrap">
                <code>{record.name}</code>
                <CopyButton value={record.name} label={`Copy ${record.type} name`} />
              </Group>
            </Table.Td>
            <Table.Td>
              <Group gap="xs" wrap="nowrap">
                <code>{record.value}</code>
                <CopyButton value={record.value} label={`Copy ${record.type} value`} />
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

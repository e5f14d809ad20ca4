import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { isValidDomainName, normalizeDomainName } from '@shortlane/shared/branded-domains.ts';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { DomainAccount } from '../../data/branded-domains/accounts-query.ts';
import { useAddDomainMutation } from '../../data/branded-domains/domain-mutations.ts';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { href } from '../../routes/paths.ts';
import { domainError } from './domainErrors.ts';
import { DomainScopeGate } from './DomainScopeGate.tsx';
import { accountLabel, accountQuery } from './useDomainScope.ts';

/**
 * settings/branded-domains/create: a domain the customer owns, confirmed as used only for short
 * links (app-shell 5). The database refuses banned, ours and taken names and names beyond the
 * plan; the new domain's DNS records are shown on the verify page it leads to.
 */
export default function AddDomainPage() {
  const { productName } = useConfig();
  usePageTitle('Add a domain', productName);
  return (
    <Stack gap="lg">
      <Title order={1}>Add a domain</Title>
      <DomainScopeGate>{({ account }) => <AddDomainForm account={account} />}</DomainScopeGate>
    </Stack>
  );
}

function AddDomainForm({ account }: { account: DomainAccount }) {
  const { productName } = useConfig();
  const navigate = useNavigate();
  const add = useAddDomainMutation();
  const [name, setName] = useState('');
  const [confirmed, setConfirmed] = useState(false);
  const [errors, setErrors] = useState<{ domain?: string; confirm?: string; form?: string }>({});
  const query = accountQuery(account);
  const listPath =
    account.kind === 'organization' && account.organizationSlug
      ? href('org.settings.domains', { org: account.organizationSlug })
      : href('settings.brandedDomains', null, query);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const domain = normalizeDomainName(name);
    const found: typeof errors = {};
    if (domain === '') found.domain = 'The domain field is required.';
    else if (!isValidDomainName(domain)) found.domain = 'The domain must be a valid domain name.';
    if (!confirmed) {
      found.confirm = `Confirm that the domain will be used only for ${productName} short links.`;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    add.mutate(
      {
        accountId: account.accountId,
        domain,
        kind: account.kind === 'organization' ? 'organization' : 'branded',
      },
      {
        onSuccess: (row) =>
          void navigate(href('settings.brandedDomains.verify', null, { ...query, domain: row.id })),
        onError: (error) => {
          const refusal = domainError(error);
          if (refusal) {
            setErrors(
              refusal.field === 'domain' ? { domain: refusal.message } : { form: refusal.message },
            );
          }
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md" maw={560}>
        {account.kind !== 'personal' && <Text size="sm">For {accountLabel(account)}.</Text>}
        <Text>
          Use a domain or subdomain you own, such as <code>links.example.com</code>. Next you set
          two DNS records at your DNS provider; we check them and the domain serves your short links
          as soon as they are right.
        </Text>
        <TextInput
          label="Domain name"
          placeholder="links.example.com"
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          error={errors.domain}
          autoComplete="off"
          required
        />
        <Checkbox
          label={`I will use this domain only for ${productName} short links`}
          description="Its home page and unknown paths are answered by us, not by a website of yours."
          checked={confirmed}
          onChange={(event) => setConfirmed(event.currentTarget.checked)}
          error={errors.confirm}
        />
        {errors.form && (
          <Alert color="red" role="alert">
            {errors.form}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={add.isPending}>
            Add domain
          </Button>
          <Anchor component={Link} to={listPath}>
            Cancel
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}

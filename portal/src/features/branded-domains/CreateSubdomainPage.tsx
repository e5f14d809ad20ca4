import { Alert, Anchor, Button, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { isValidVanityLabel } from '@shortlane/shared/branded-domains.ts';
import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { DomainAccount } from '../../data/branded-domains/accounts-query.ts';
import { useVanityBaseDomainsQuery } from '../../data/branded-domains/bases-query.ts';
import { useClaimVanitySubdomainMutation } from '../../data/branded-domains/domain-mutations.ts';
import { useConfig, useNotify } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { href } from '../../routes/paths.ts';
import { domainError } from './domainErrors.ts';
import { DomainScopeGate } from './DomainScopeGate.tsx';
import { accountQuery } from './useDomainScope.ts';

/**
 * settings/create-subdomain: a vanity subdomain, name.<one of our base domains>. Nothing to
 * verify: it lives under our domain, so its links answer as soon as it is claimed. The plan's
 * max_vanity_subdomains, uniqueness and reserved names are the database's to refuse.
 */
export default function CreateSubdomainPage() {
  const { productName } = useConfig();
  usePageTitle('Add a vanity subdomain', productName);
  return (
    <Stack gap="lg">
      <Title order={1}>Add a vanity subdomain</Title>
      <DomainScopeGate>{({ account }) => <SubdomainForm account={account} />}</DomainScopeGate>
    </Stack>
  );
}

/** The claim form: a label and one of our base domains. */
export function SubdomainForm({ account }: { account: DomainAccount }) {
  const navigate = useNavigate();
  const notify = useNotify();
  const bases = useVanityBaseDomainsQuery();
  const claim = useClaimVanitySubdomainMutation();
  const [label, setLabel] = useState('');
  const [baseId, setBaseId] = useState<string | null>(null);
  const [errors, setErrors] = useState<{ subdomain?: string; base?: string; form?: string }>({});
  const listPath = href('settings.brandedDomains', null, accountQuery(account));
  const chosenBase = bases.data?.find((base) => base.id === baseId) ?? bases.data?.[0];

  if (!account.features.addVanitySubdomains) {
    return (
      <Alert color="blue" title="Vanity subdomains are not in this plan">
        <Anchor component={Link} to={href('settings.subscription')}>
          See the plans that include them
        </Anchor>
      </Alert>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const subdomain = label.trim().toLowerCase();
    if (subdomain === '') return setErrors({ subdomain: 'Subdomain required.' });
    if (!isValidVanityLabel(subdomain)) {
      return setErrors({
        subdomain: 'Use 3 to 63 letters, numbers and dashes, not starting or ending with a dash.',
      });
    }
    if (!chosenBase) return setErrors({ base: 'Choose a domain.' });
    setErrors({});
    claim.mutate(
      { accountId: account.accountId, subdomain, baseDomainId: chosenBase.id },
      {
        onSuccess: (row) => {
          notify({
            message: `${row.domain} is yours and serves your short links now.`,
            tone: 'success',
            durationMs: NOTICE_DURATION_MS.default,
          });
          void navigate(listPath);
        },
        onError: (error) => {
          const refusal = domainError(error);
          if (!refusal) return;
          setErrors(
            refusal.field === 'subdomain'
              ? { subdomain: refusal.message }
              : refusal.field === 'base_domain'
                ? { base: refusal.message }
                : { form: refusal.message },
          );
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md" maw={560}>
        <Text>
          A name of your choice under one of our domains, such as{' '}
          <code>yourname.{chosenBase?.domain ?? 'example'}</code>. It works at once, with no DNS to
          set.
        </Text>
        {bases.isError ? (
          <Alert color="red">Our domains could not be loaded.</Alert>
        ) : (
          (bases.data?.length ?? 0) > 1 && (
            <Select
              label="Domain"
              data={(bases.data ?? []).map((base) => ({ value: base.id, label: base.domain }))}
              value={chosenBase?.id ?? null}
              onChange={setBaseId}
              error={errors.base}
              allowDeselect={false}
            />
          )
        )}
        <TextInput
          label="Subdomain"
          value={label}
          onChange={(event) => setLabel(event.currentTarget.value)}
          rightSection={
            chosenBase ? (
              <Text size="sm" c="dimmed" pr="xs">
                .{chosenBase.domain}
              </Text>
            ) : null
          }
          rightSectionWidth={chosenBase ? 16 + chosenBase.domain.length * 8 : undefined}
          error={errors.subdomain ?? (bases.data?.length === 1 ? errors.base : undefined)}
          autoComplete="off"
          required
        />
        {bases.data?.length === 0 && (
          <Alert color="yellow">No domain offers vanity subdomains at the moment.</Alert>
        )}
        {errors.form && (
          <Alert color="red" role="alert">
            {errors.form}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={claim.isPending} disabled={!chosenBase}>
            Claim subdomain
          </Button>
          <Anchor component={Link} to={listPath}>
            Cancel
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}

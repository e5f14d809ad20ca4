import { Alert, Anchor, Button, Group, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { SettingsSection } from '../../components/SettingsSection.tsx';
import type { DomainAccount } from '../../data/branded-domains/accounts-query.ts';
import {
  useDeleteDomainMutation,
  useUpdateDomainRedirectsMutation,
} from '../../data/branded-domains/domain-mutations.ts';
import {
  useBrandedDomainQuery,
  type DomainWithTeams,
} from '../../data/branded-domains/domain-query.ts';
import { useOrganizationTeamsQuery } from '../../data/branded-domains/organization-teams-query.ts';
import { useConfig, useNotify } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { href } from '../../routes/paths.ts';
import { domainError } from './domainErrors.ts';
import { DomainScopeGate } from './DomainScopeGate.tsx';
import { DomainStateBadge } from './DomainStateBadge.tsx';
import { DomainTeamsEditor } from './DomainTeamsEditor.tsx';
import { accountQuery } from './useDomainScope.ts';

const HTTP_URL = /^https?:\/\/[^\s/?#]+([/?#]\S*)?$/i;

/** An optional redirect address: empty is none; anything else must be an http(s) URL. */
export function redirectError(value: string): string | undefined {
  const trimmed = value.trim();
  if (trimmed === '' || (HTTP_URL.test(trimmed) && trimmed.length <= 2048)) return undefined;
  return 'The address must be a valid URL starting with http:// or https://.';
}

/**
 * settings/edit/{domain}: the domain's root and 404 redirects (plan features
 * domain_root_redirect and domain_404_redirect), the teams of an organization domain, and
 * deletion: its links stop answering and the name can be added again later.
 */
export default function EditDomainPage() {
  const { productName } = useConfig();
  const { domain = '' } = useParams();
  usePageTitle(`Settings of ${domain}`, productName);
  return (
    <Stack gap="lg">
      <Title order={1}>Domain settings</Title>
      <DomainScopeGate>
        {({ account }) => <EditDomain account={account} name={domain} />}
      </DomainScopeGate>
    </Stack>
  );
}

function EditDomain({ account, name }: { account: DomainAccount; name: string }) {
  const domain = useBrandedDomainQuery({ name });
  const listPath =
    account.kind === 'organization' && account.organizationSlug
      ? href('org.settings.domains', { org: account.organizationSlug })
      : href('settings.brandedDomains', null, accountQuery(account));
  if (domain.isPending) return <Text>Loading…</Text>;
  if (domain.isError) {
    return (
      <Alert color="red" title="The domain could not be loaded">
        <Button variant="light" size="xs" mt="xs" onClick={() => void domain.refetch()}>
          Try again
        </Button>
      </Alert>
    );
  }
  if (domain.data == null || domain.data.account_id !== account.accountId) {
    return (
      <Alert color="yellow" title="Domain not found">
        <Anchor component={Link} to={listPath}>
          Back to your domains
        </Anchor>
      </Alert>
    );
  }
  const row = domain.data;
  return (
    <Stack gap="lg">
      <Group gap="sm">
        <Title order={2} size="h3">
          {row.domain}
        </Title>
        <DomainStateBadge status={row.verification_status} />
        {row.verification_status !== 'verified' && (
          <Anchor
            component={Link}
            to={href('settings.brandedDomains.verify', null, {
              ...accountQuery(account),
              domain: row.id,
            })}
          >
            DNS records and verification
          </Anchor>
        )}
      </Group>
      <RedirectsForm domain={row} account={account} />
      {row.kind === 'organization' && <OrganizationTeams domain={row} account={account} />}
      <DeleteDomain domain={row} listPath={listPath} />
    </Stack>
  );
}

function RedirectsForm({ domain, account }: { domain: DomainWithTeams; account: DomainAccount }) {
  const notify = useNotify();
  const save = useUpdateDomainRedirectsMutation(domain.id);
  const [root, setRoot] = useState(domain.root_redirect_url ?? '');
  const [notFound, setNotFound] = useState(domain.not_found_redirect_url ?? '');
  const [errors, setErrors] = useState<{ root?: string; notFound?: string; form?: string }>({});
  const rootAllowed = account.features.rootRedirect;
  const notFoundAllowed = account.features.notFoundRedirect;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = { root: redirectError(root), notFound: redirectError(notFound) };
    setErrors(found);
    if (found.root || found.notFound) return;
    save.mutate(
      {
        root_redirect_url: rootAllowed ? root.trim() || null : domain.root_redirect_url,
        not_found_redirect_url: notFoundAllowed
          ? notFound.trim() || null
          : domain.not_found_redirect_url,
      },
      {
        onSuccess: () =>
          notify({
            message: `Redirects of ${domain.domain} saved.`,
            tone: 'success',
            durationMs: NOTICE_DURATION_MS.default,
          }),
        onError: (error) => setErrors({ form: domainError(error)?.message }),
      },
    );
  };

  return (
    <SettingsSection title="Redirects">
      <form onSubmit={submit} noValidate>
        <Stack gap="md" maw={560}>
          <TextInput
            label="Root redirect"
            description={
              rootAllowed
                ? `Where a visit to ${domain.domain}/ goes. Empty: our default page.`
                : 'Your plan does not include a root redirect.'
            }
            placeholder="https://example.com/"
            value={root}
            onChange={(event) => setRoot(event.currentTarget.value)}
            error={errors.root}
            disabled={!rootAllowed}
          />
          <TextInput
            label="404 redirect"
            description={
              notFoundAllowed
                ? 'Where a visit to a short link that does not exist goes. Empty: our not-found page.'
                : 'Your plan does not include a 404 redirect.'
            }
            placeholder="https://example.com/not-found"
            value={notFound}
            onChange={(event) => setNotFound(event.currentTarget.value)}
            error={errors.notFound}
            disabled={!notFoundAllowed}
          />
          {errors.form && (
            <Alert color="red" role="alert">
              {errors.form}
            </Alert>
          )}
          <Group>
            <Button
              type="submit"
              loading={save.isPending}
              disabled={!rootAllowed && !notFoundAllowed}
            >
              Save redirects
            </Button>
          </Group>
        </Stack>
      </form>
    </SettingsSection>
  );
}

function OrganizationTeams({
  domain,
  account,
}: {
  domain: DomainWithTeams;
  account: DomainAccount;
}) {
  const teams = useOrganizationTeamsQuery(account.accountId);
  return (
    <SettingsSection title="Teams">
      {teams.isPending ? (
        <Text size="sm">Loading teams…</Text>
      ) : teams.isError ? (
        <Alert color="red">The teams could not be loaded.</Alert>
      ) : (
        <DomainTeamsEditor domain={domain} teams={teams.data} />
      )}
    </SettingsSection>
  );
}

function DeleteDomain({ domain, listPath }: { domain: DomainWithTeams; listPath: string }) {
  const notify = useNotify();
  const navigate = useNavigate();
  const remove = useDeleteDomainMutation();
  const [open, setOpen] = useState(false);
  return (
    <SettingsSection title="Delete domain">
      <Text size="sm" mb="sm">
        The short links on {domain.domain} stop answering. You can add the name again later, here or
        in another account.
      </Text>
      <Button color="red" variant="light" onClick={() => setOpen(true)}>
        Delete domain
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={`Delete ${domain.domain}?`}>
        <Stack gap="md">
          <Text size="sm">
            Its short links stop answering at once. This cannot be undone; the name is free to be
            added again.
          </Text>
          {remove.isError && (
            <Alert color="red" role="alert">
              {domainError(remove.error)?.message}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              Keep it
            </Button>
            <Button
              color="red"
              loading={remove.isPending}
              onClick={() =>
                // Awaited rather than mutate's own onSuccess: the refreshed domain can turn this
                // page into "not found" (unmounting this section) before the deletion settles,
                // and an unmounted observer's callbacks never run. A failure shows above.
                remove.mutateAsync(domain.id).then(
                  () => {
                    notify({
                      message: `${domain.domain} deleted.`,
                      tone: 'success',
                      durationMs: NOTICE_DURATION_MS.default,
                    });
                    void navigate(listPath);
                  },
                  () => {},
                )
              }
            >
              Delete
            </Button>
          </Group>
        </Stack>
      </Modal>
    </SettingsSection>
  );
}

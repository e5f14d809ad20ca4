import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Code,
  Container,
  Group,
  Select,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import { useState, type ReactNode } from 'react';
import { useParams } from 'react-router-dom';
import { PageLoader } from '../../components/PageLoader.tsx';
import { useOrganizationBySlugQuery } from '../../data/links-list-query.ts';
import { useOrganizationRolesQuery } from '../../data/organization-roles-query.ts';
import { SsoError, useSsoMutations } from '../../data/sso/sso-mutations.ts';
import { useOrganizationSsoQuery, type OrganizationSso } from '../../data/sso/sso-query.ts';
import { useConfig, useNotify, useServices } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { SsoSummary } from './SsoSummary.tsx';

const messageOf = (error: unknown) =>
  error instanceof SsoError ? error.message : 'Something went wrong. Try again.';

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `sso-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <Card withBorder padding="md" component="section" aria-labelledby={id}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={id}>
          {title}
        </Title>
        {children}
      </Stack>
    </Card>
  );
}

function Failure({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <Alert color="red" role="alert">
      {messageOf(error)}
    </Alert>
  );
}

function ProviderSection({
  organizationId,
  sso,
}: {
  organizationId: string;
  sso: OrganizationSso;
}) {
  const { env } = useServices();
  const notify = useNotify();
  const { saveProvider } = useSsoMutations(organizationId);
  const [url, setUrl] = useState(sso.setting?.metadata_url ?? '');
  const [xml, setXml] = useState('');
  const save = async () => {
    const metadata = xml.trim() ? { metadata_xml: xml.trim() } : { metadata_url: url.trim() };
    await saveProvider.mutateAsync(metadata);
    setXml('');
    notify({
      message: 'The identity provider has been saved.',
      durationMs: NOTICE_DURATION_MS.default,
      tone: 'success',
    });
  };
  return (
    <Section title="Identity provider">
      <Text size="sm">
        Give your identity provider our service provider metadata:{' '}
        <Code>{`${env.supabaseUrl}/auth/v1/sso/saml/metadata`}</Code>
      </Text>
      {sso.setting && (
        <Text size="sm">
          Registered: <strong>{sso.setting.entity_id}</strong>
        </Text>
      )}
      <Failure error={saveProvider.error} />
      <TextInput
        label="Metadata URL"
        placeholder="https://idp.example.com/saml/metadata"
        value={url}
        onChange={(event) => setUrl(event.currentTarget.value)}
      />
      <Textarea
        label="Or metadata XML"
        autosize
        minRows={2}
        maxRows={8}
        value={xml}
        onChange={(event) => setXml(event.currentTarget.value)}
      />
      <Group justify="flex-end">
        <Button
          loading={saveProvider.isPending}
          disabled={!url.trim() && !xml.trim()}
          onClick={() => void save().catch(() => {})}
        >
          Save identity provider
        </Button>
      </Group>
    </Section>
  );
}

function DomainsSection({ organizationId, sso }: { organizationId: string; sso: OrganizationSso }) {
  const { claimDomain, verifyDomain, removeDomain } = useSsoMutations(organizationId);
  const [domain, setDomain] = useState('');
  const failure = claimDomain.error ?? verifyDomain.error ?? removeDomain.error;
  return (
    <Section title="Domains">
      <Text size="sm">
        People whose e-mail address is at a verified domain sign in through your identity provider.
        Prove each domain with a DNS TXT record, or ask our staff to verify it.
      </Text>
      <Failure error={failure} />
      <Group align="flex-end">
        <TextInput
          label="Domain"
          placeholder="example.com"
          value={domain}
          onChange={(event) => setDomain(event.currentTarget.value)}
          style={{ flex: 1 }}
        />
        <Button
          loading={claimDomain.isPending}
          disabled={!domain.trim()}
          onClick={() =>
            void claimDomain
              .mutateAsync(domain)
              .then(() => setDomain(''))
              .catch(() => {})
          }
        >
          Claim domain
        </Button>
      </Group>
      {sso.domains.map((claim) => (
        <Card key={claim.id} withBorder padding="sm" aria-label={claim.domain}>
          <Group justify="space-between">
            <Group gap="xs">
              <Text fw={500}>{claim.domain}</Text>
              <Badge color={claim.status === 'verified' ? 'teal' : 'yellow'} variant="light">
                {claim.status === 'verified' ? 'Verified' : 'Pending'}
              </Badge>
            </Group>
            <Group gap="xs">
              {claim.status === 'pending' && (
                <Button
                  size="xs"
                  loading={verifyDomain.isPending && verifyDomain.variables === claim.id}
                  onClick={() => void verifyDomain.mutateAsync(claim.id).catch(() => {})}
                  aria-label={`Verify ${claim.domain}`}
                >
                  Verify
                </Button>
              )}
              <Button
                size="xs"
                variant="subtle"
                color="red"
                onClick={() => void removeDomain.mutateAsync(claim.id).catch(() => {})}
                aria-label={`Remove ${claim.domain}`}
              >
                Remove
              </Button>
            </Group>
          </Group>
          {claim.status === 'pending' && (
            <Text size="sm" mt="xs">
              Add a TXT record named <Code>{`_shortlane-sso.${claim.domain}`}</Code> with the value{' '}
              <Code>{claim.verification_token}</Code>, then verify.
            </Text>
          )}
        </Card>
      ))}
    </Section>
  );
}

function OptionsSection({ organizationId, sso }: { organizationId: string; sso: OrganizationSso }) {
  const notify = useNotify();
  const roles = useOrganizationRolesQuery(organizationId);
  const { saveOptions } = useSsoMutations(organizationId);
  const [roleId, setRoleId] = useState<string | null>(sso.setting?.default_role_id ?? null);
  const [requireSso, setRequireSso] = useState(sso.setting?.require_sso ?? false);
  const save = async () => {
    await saveOptions.mutateAsync({ defaultRoleId: roleId, requireSso });
    notify({
      message: 'The sign-in options have been saved.',
      durationMs: NOTICE_DURATION_MS.default,
      tone: 'success',
    });
  };
  return (
    <Section title="Sign-in options">
      <Failure error={saveOptions.error} />
      <Select
        label="Default role for new members"
        description="The role people get when they first sign in through your identity provider."
        data={(roles.data ?? []).map((role) => ({ value: role.id, label: role.name }))}
        value={roleId}
        onChange={setRoleId}
        clearable
        disabled={!sso.setting}
      />
      <Checkbox
        label="Require single sign-on for people at these domains"
        description="Their passwords stop working: they sign in through your identity provider only."
        checked={requireSso}
        onChange={(event) => setRequireSso(event.currentTarget.checked)}
        disabled={!sso.setting}
      />
      <Group justify="flex-end">
        <Button
          loading={saveOptions.isPending}
          disabled={!sso.setting}
          onClick={() => void save().catch(() => {})}
        >
          Save options
        </Button>
      </Group>
    </Section>
  );
}

/**
 * organizations/{org}/settings/profile/sso: the organization's SAML single sign-on. Holders of
 * SSO (on the Enterprise plan) register the identity provider, claim and prove e-mail domains,
 * pick the role new members get and may require single sign-on; others read the setting.
 */
export default function SsoSettingsPage() {
  const { org = '' } = useParams();
  const { productName } = useConfig();
  usePageTitle('Single sign-on', productName);
  const organization = useOrganizationBySlugQuery(org);
  const organizationId = organization.data?.id ?? null;
  const sso = useOrganizationSsoQuery(organizationId);

  if (organization.isPending || (organizationId && sso.isPending)) return <PageLoader />;
  if (organization.isError || organization.data === null || sso.isError || !sso.data) {
    return (
      <Container size="md" py="xl">
        <Title order={1}>Single sign-on</Title>
        <Alert color="red" role="alert" mt="md">
          {organization.data === null
            ? 'This organization was not found.'
            : 'Single sign-on could not be loaded.'}
        </Alert>
      </Container>
    );
  }
  const canManage = organization.data.permissions.includes('sso');
  return (
    <Container size="md" py="xl">
      <Stack gap="lg">
        <div>
          <Title order={1}>Single sign-on</Title>
          <Text mt="xs" c="gray.7">
            Let your people sign in with your SAML 2.0 identity provider (Okta, Microsoft Entra ID,
            Google Workspace…).
          </Text>
        </div>
        {canManage ? (
          <>
            <ProviderSection organizationId={organization.data.id} sso={sso.data} />
            <DomainsSection organizationId={organization.data.id} sso={sso.data} />
            <OptionsSection
              key={sso.data.setting?.updated_at ?? 'none'}
              organizationId={organization.data.id}
              sso={sso.data}
            />
          </>
        ) : (
          <SsoSummary sso={sso.data} />
        )}
      </Stack>
    </Container>
  );
}

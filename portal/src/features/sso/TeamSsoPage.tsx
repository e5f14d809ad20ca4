import { Alert, Container, Stack, Text, Title } from '@mantine/core';
import { useParams } from 'react-router-dom';
import { PageLoader } from '../../components/PageLoader.tsx';
import { useOrganizationBySlugQuery } from '../../data/links-list-query.ts';
import { useOrganizationSsoQuery } from '../../data/sso/sso-query.ts';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { SsoSummary } from './SsoSummary.tsx';

/** organization/{org}/team/{team}/sso: the team signs in as its organization does (read-only). */
export default function TeamSsoPage() {
  const { org = '' } = useParams();
  const { productName } = useConfig();
  usePageTitle('Team single sign-on', productName);
  const organization = useOrganizationBySlugQuery(org);
  const sso = useOrganizationSsoQuery(organization.data?.id ?? null);
  if (organization.isPending || (organization.data && sso.isPending)) return <PageLoader />;
  return (
    <Container size="md" py="xl">
      <Stack gap="md">
        <Title order={1}>Single sign-on</Title>
        <Text c="gray.7">
          The team signs in as its organization does; the organization&apos;s holders of SSO change
          it.
        </Text>
        {sso.data ? (
          <SsoSummary sso={sso.data} />
        ) : (
          <Alert color="red" role="alert">
            Single sign-on could not be loaded.
          </Alert>
        )}
      </Stack>
    </Container>
  );
}

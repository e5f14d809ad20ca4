import { Alert, Container, Stack, Text, Title } from '@mantine/core';
import { useParams } from 'react-router-dom';
import { PageLoader } from '../../../components/PageLoader.tsx';
import {
  useOrganizationBySlugQuery,
  useOrganizationTeamAccountIdQuery,
} from '../../../data/links-list-query.ts';
import { useProfileQuery } from '../../../data/profile-query.ts';
import { useConfig } from '../../../lib/servicesContext.ts';
import { usePageTitle } from '../../../lib/usePageTitle.ts';
import { useCurrentRouteName } from '../../../routes/currentRoute.ts';
import { CreateLinkForm } from '../create/CreateLinkForm.tsx';
import { LinkListView } from './LinkListView.tsx';
import { organizationListScope, type OrganizationListPage } from './organizationLists.ts';

const TITLES = {
  'org.dashboard': {
    title: 'Organization dashboard',
    intro: 'Every link made in the organization.',
  },
  'org.me': { title: 'My links', intro: 'Your own links made in the organization.' },
  'org.team': { title: 'Team links', intro: "The team's links." },
} as const;

/**
 * org.dashboard, org.me and org.team: the create form in organization mode above the
 * organization's link list (link-creation 4 and 7). A created link refreshes the list, which
 * lists its own scope, so it shows only where organizationLists.acceptsCreatedLink says it
 * belongs.
 */
export default function OrganizationLinksPage() {
  const routeName = useCurrentRouteName();
  const { org = '', team = null } = useParams();
  const { productName } = useConfig();
  const texts = TITLES[routeName as keyof typeof TITLES] ?? TITLES['org.dashboard'];
  usePageTitle(texts.title, productName);
  const organization = useOrganizationBySlugQuery(org);
  const teamAccount = useOrganizationTeamAccountIdQuery(
    org,
    routeName === 'org.team' ? team : null,
  );
  const profile = useProfileQuery();

  const failed = organization.isError || teamAccount.isError || profile.isError;
  const missing =
    organization.data === null || (routeName === 'org.team' && teamAccount.data === null);
  if (failed || missing) {
    return (
      <Container size="lg" py="xl">
        <Title order={1}>{texts.title}</Title>
        <Alert color="red" role="alert" mt="md">
          {missing ? 'This organization or team was not found.' : 'The links could not be loaded.'}
        </Alert>
      </Container>
    );
  }
  if (!organization.data || !profile.data || (routeName === 'org.team' && !teamAccount.data)) {
    return <PageLoader />;
  }

  const page: OrganizationListPage =
    routeName === 'org.team'
      ? { kind: 'team', teamAccountId: teamAccount.data! }
      : routeName === 'org.me'
        ? { kind: 'me' }
        : { kind: 'dashboard' };
  const scope = organizationListScope(page, organization.data.id, profile.data.personal_account_id);

  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <div>
          <Title order={1}>{texts.title}</Title>
          <Text mt="xs" c="gray.7">
            {texts.intro}
          </Text>
        </div>
        <CreateLinkForm
          mode="organization"
          organization={{
            slug: organization.data.slug,
            accountId: organization.data.accountId,
            canManageTeams: organization.data.canManageTeams,
          }}
        />
        <div>
          <Title order={2} size="h3" mb="sm">
            Links
          </Title>
          <LinkListView scope={scope} label="Links" />
        </div>
      </Stack>
    </Container>
  );
}

import { Alert, Anchor, Container, Group, Stack, Text, Title } from '@mantine/core';
import type { OrgPermission } from '@shortlane/shared/permissions.ts';
import type { ReactNode } from 'react';
import { Link, useLocation, useParams } from 'react-router-dom';
import { PageLoader } from '../../../components/PageLoader.tsx';
import { useOrganizationBySlugQuery } from '../../../data/links-list-query.ts';
import { useConfig } from '../../../lib/servicesContext.ts';
import { usePageTitle } from '../../../lib/usePageTitle.ts';
import { href } from '../../../routes/paths.ts';
import {
  canOpenTeamSettings,
  TEAM_SETTINGS_PAGES,
  type TeamSettingsRoute,
} from './teamSettings.ts';
import { organizationUnavailableMessage } from '../OrganizationUnavailable.tsx';

export interface TeamSettingsOrganization {
  id: string;
  slug: string;
  permissions: readonly OrgPermission[];
}

function TeamSettingsLinks({
  org,
  permissions,
}: {
  org: string;
  permissions: readonly OrgPermission[];
}) {
  const { pathname } = useLocation();
  const pages = TEAM_SETTINGS_PAGES.filter((page) => canOpenTeamSettings(page.route, permissions));
  return (
    <Group component="nav" aria-label="Team settings" gap="lg">
      {pages.map((page) => {
        const to = href(page.route, { org });
        const current = pathname === to;
        return (
          <Anchor
            key={page.route}
            component={Link}
            to={to}
            fw={current ? 700 : 400}
            aria-current={current ? 'page' : undefined}
          >
            {page.label}
          </Anchor>
        );
      })}
    </Group>
  );
}

/**
 * Every organizations/{org}/settings/teams page: the organization, the caller's permissions
 * there, the links between the team settings pages, and the page once it may be shown.
 */
export function OrganizationTeamsFrame({
  route,
  title,
  summary,
  children,
}: {
  route: TeamSettingsRoute;
  title: string;
  summary: string;
  children: (organization: TeamSettingsOrganization) => ReactNode;
}) {
  const { org = '' } = useParams();
  const { productName } = useConfig();
  usePageTitle(title, productName);
  const organization = useOrganizationBySlugQuery(org);

  if (organization.isPending) return <PageLoader />;
  const refusal =
    organization.isError || organization.data === null
      ? organizationUnavailableMessage(organization.isError)
      : canOpenTeamSettings(route, organization.data.permissions)
        ? null
        : 'Your role in this organization does not include these settings.';

  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <div>
          <Title order={1}>{title}</Title>
          <Text mt="xs" c="gray.7">
            {summary}
          </Text>
        </div>
        {refusal || !organization.data ? (
          <Alert color="red" role="alert">
            {refusal}
          </Alert>
        ) : (
          <>
            <TeamSettingsLinks org={org} permissions={organization.data.permissions} />
            {children({
              id: organization.data.id,
              slug: organization.data.slug,
              permissions: organization.data.permissions,
            })}
          </>
        )}
      </Stack>
    </Container>
  );
}

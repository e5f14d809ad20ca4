import { Alert, Button, Container, Text, Title } from '@mantine/core';
import { organizationLanding } from '@shortlane/shared/permissions.ts';
import { useState } from 'react';
import { Link, Navigate, useParams } from 'react-router-dom';
import { PageLoader } from '../../components/PageLoader.tsx';
import { useOrganizationFactsQuery } from '../../data/organization-facts-query.ts';
import { useUserId } from '../../data/use-user-id.ts';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { href } from '../../routes/paths.ts';
import { organizationLandingPath } from './organizationLandingPath.ts';
import { RestoreOrganizationModal } from './RestoreOrganizationModal.tsx';
import { OrganizationUnavailable } from './OrganizationUnavailable.tsx';

/**
 * /app/organizations/{org}: sends each person where the landing rule says (owners and
 * supervisors to the dashboard, users with a role to org.me, others to their first team). An
 * archived organization first asks its owner to restore it.
 */
export default function OrganizationLandingPage() {
  const { org = '' } = useParams();
  const { productName } = useConfig();
  usePageTitle('Organization', productName);
  const userId = useUserId();
  const organization = useOrganizationFactsQuery(org);
  const [declined, setDeclined] = useState(false);

  if (organization.isPending) return <PageLoader />;
  if (organization.isError || organization.data === null || userId == null) {
    return <OrganizationUnavailable title="Organization" loadFailed={organization.isError} />;
  }
  const { facts, archived, name, id } = organization.data;
  const isOwner = facts.owner.id === userId;
  if (archived) {
    return (
      <Container size="md" py="xl">
        <Title order={1}>{name}</Title>
        <Alert color="yellow" role="status" mt="md">
          {/* No Alert title: a yellow title fails contrast (axe) under the modal's overlay. */}
          <Text fw={700}>This organization is archived</Text>
          {isOwner ? (
            <Button mt="xs" size="xs" onClick={() => setDeclined(false)}>
              Restore organization
            </Button>
          ) : (
            'Only its owner can restore it.'
          )}
        </Alert>
        <RestoreOrganizationModal
          organization={isOwner && !declined ? { id, name } : null}
          // Restoring refreshes the organization; it lands once the new state arrives.
          onClose={(restored) => {
            if (!restored) setDeclined(true);
          }}
        />
      </Container>
    );
  }
  const path = organizationLandingPath(org, organizationLanding(facts, userId));
  if (path) return <Navigate to={path} replace />;
  return (
    <Container size="md" py="xl">
      <Title order={1}>{name}</Title>
      <Alert color="blue" role="status" mt="md" title="Nothing to open here yet">
        You are not on any of this organization&apos;s teams yet.
        <Button component={Link} to={href('homepage')} variant="light" size="xs" mt="xs" ml="xs">
          Back to my links
        </Button>
      </Alert>
    </Container>
  );
}

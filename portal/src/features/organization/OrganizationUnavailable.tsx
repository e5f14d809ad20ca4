import { Alert, Container, type MantineSize, Title } from '@mantine/core';

/** Why an organization page has nothing to show: its organization failed to load, or is not one the viewer may see. */
export function organizationUnavailableMessage(loadFailed: boolean): string {
  return loadFailed ? 'The organization could not be loaded.' : 'This organization was not found.';
}

/**
 * What an organization page shows in place of its content when the organization behind its
 * address failed to load or is not the viewer's: the page's own title, so the viewer knows
 * where they are, and the reason as an alert.
 */
export function OrganizationUnavailable({
  title,
  loadFailed,
  size = 'md',
}: {
  title: string;
  loadFailed: boolean;
  size?: MantineSize;
}) {
  return (
    <Container size={size} py="xl">
      <Title order={1}>{title}</Title>
      <Alert color="red" role="alert" mt="md">
        {organizationUnavailableMessage(loadFailed)}
      </Alert>
    </Container>
  );
}

import { Anchor, Container, Text, Title } from '@mantine/core';
import type { PortalConfig } from '../lib/config.ts';
import { useServices } from '../lib/servicesContext.ts';
import { useLeaveFor } from '../lib/useLeaveFor.ts';

/** helpdesk, freescout and blog live on other sites: go there, with a link if that fails. */
export function ExternalRedirect({ site }: { site: keyof PortalConfig['externalUrls'] }) {
  const { config } = useServices();
  const url = config.externalUrls[site];
  useLeaveFor(url);
  return (
    <Container size="sm" py="xl">
      <Title order={1} size="h2">
        Leaving {config.productName}
      </Title>
      <Text mt="sm">
        Taking you to <Anchor href={url}>{url}</Anchor>…
      </Text>
    </Container>
  );
}

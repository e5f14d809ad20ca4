import { Alert, Anchor, Container, Loader, Text, Title } from '@mantine/core';
import { useLocation } from 'react-router-dom';
import { useConfig } from '../../lib/servicesContext.ts';
import { useLeaveFor } from '../../lib/useLeaveFor.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { kioskAddress } from './kioskAddress.ts';

/**
 * The portal's kiosk routes (/app/kiosk/users, …/user/{id}…): staff work in the kiosk app, so
 * each leads to the same screen there. The guards already let only developers in.
 */
export default function KioskHandOffPage() {
  const { productName, kioskUrl } = useConfig();
  usePageTitle('Kiosk', productName);
  const { pathname, search } = useLocation();
  const target = kioskAddress(kioskUrl, pathname, search);

  useLeaveFor(target);

  return (
    <Container size="sm" py="xl">
      <Title order={1}>Kiosk</Title>
      {target == null ? (
        <Alert color="red" role="alert" mt="lg" title="The kiosk's address is not set">
          Set VITE_KIOSK_URL to where the kiosk app runs, then reload this page.
        </Alert>
      ) : (
        <Text mt="lg" role="status">
          <Loader size="xs" mr="xs" aria-hidden />
          Opening this screen in the kiosk… If nothing happens,{' '}
          <Anchor href={target}>open it here</Anchor>.
        </Text>
      )}
    </Container>
  );
}

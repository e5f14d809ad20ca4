import { Alert, Paper, Stack, Title } from '@mantine/core';
import { useSearchParams } from 'react-router-dom';
import { REENROLL_PARAM } from '../../features/two-factor/reenroll.ts';
import { TwoFactorSection } from '../../features/two-factor/TwoFactorSection.tsx';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { PasswordChangeSection } from './PasswordChangeSection.tsx';

/** /app/settings/security: the password and two-factor authentication. */
export default function SecurityPage() {
  const { productName } = useConfig();
  usePageTitle('Security', productName);
  const [search] = useSearchParams();
  const reenroll = search.get(REENROLL_PARAM) === '1';
  return (
    <Stack gap="lg">
      <Title order={1}>Security</Title>
      {reenroll && (
        <Alert variant="default" role="alert" title="Set up two-factor authentication again">
          You logged in with a backup code, so two-factor authentication is now off. Turn it on
          again below to keep your account protected.
        </Alert>
      )}
      <Paper withBorder p="lg" radius="md">
        <PasswordChangeSection />
      </Paper>
      <Paper withBorder p="lg" radius="md">
        <TwoFactorSection />
      </Paper>
    </Stack>
  );
}

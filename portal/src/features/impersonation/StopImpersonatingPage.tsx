import { Alert, Container, Loader, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { envCheck } from '../../lib/env.ts';
import { useConfig, useSupabase } from '../../lib/servicesContext.ts';
import { createImpersonationClient, sessionStorageKey } from './impersonationClient.ts';
import { stopImpersonation } from './sessionSwap.ts';

/**
 * /app/kiosk/user/stop-impersonating ("Back To My Account"): records the end of the
 * impersonation, leaves the user's account, and restores the staff member's own portal
 * session; without one, they go back to the kiosk (or to the login page).
 */
export default function StopImpersonatingPage() {
  const appClient = useSupabase();
  const { kioskUrl } = useConfig();
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (!envCheck.ok) return;
    const client = createImpersonationClient(envCheck.env, sessionStorageKey(appClient));
    const reportStop = async () => {
      const { error } = await client.functions.invoke('kiosk-impersonate', {
        body: { action: 'stop' },
      });
      if (error) throw error;
    };
    void stopImpersonation(client.auth, window.localStorage, reportStop)
      .then((outcome) => {
        // A full load: every cached answer about the user goes with the page.
        if (outcome === 'restored') window.location.replace('/app');
        else window.location.replace(kioskUrl ?? '/app/login');
      })
      .catch((error: unknown) =>
        setFailure(error instanceof Error ? error.message : String(error)),
      );
  }, [appClient, kioskUrl]);

  return (
    <Container size="sm" py="xl">
      <Title order={1}>Back to your account</Title>
      {failure ? (
        <Alert color="red" role="alert" mt="md" title="Could not leave the account">
          {failure}
        </Alert>
      ) : (
        <Loader mt="md" role="status" aria-label="Returning to your account" />
      )}
    </Container>
  );
}

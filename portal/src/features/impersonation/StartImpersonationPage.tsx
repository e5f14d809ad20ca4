import { Alert, Container, Loader, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { tokenFromFragment } from './claims.ts';
import { envCheck } from '../../lib/env.ts';
import { useSupabase } from '../../lib/servicesContext.ts';
import { createImpersonationClient, sessionStorageKey } from './impersonationClient.ts';
import { startImpersonation } from './sessionSwap.ts';

/**
 * /app/kiosk/user/impersonate#impersonation_token=…: where the kiosk sends a staff member to act
 * as a user. Keeps their own session aside, signs in with the token, and opens the homepage
 * with a full load, so the whole portal starts over as the user.
 */
export default function StartImpersonationPage() {
  const appClient = useSupabase();
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const token = tokenFromFragment(window.location.hash);
    // The token must not stay in the address bar or the history.
    window.history.replaceState(null, '', window.location.pathname);
    if (!envCheck.ok) return;
    const client = createImpersonationClient(envCheck.env, sessionStorageKey(appClient));
    void startImpersonation(client.auth, window.localStorage, token)
      .then((outcome) => {
        if (outcome.ok) window.location.replace('/app');
        else setFailure(outcome.message);
      })
      .catch((error: unknown) =>
        setFailure(error instanceof Error ? error.message : String(error)),
      );
  }, [appClient]);

  return (
    <Container size="sm" py="xl">
      <Title order={1}>Opening the account</Title>
      {failure ? (
        <Alert color="red" role="alert" mt="md" title="Could not impersonate">
          {failure}
        </Alert>
      ) : (
        <Loader mt="md" role="status" aria-label="Signing in as the user" />
      )}
    </Container>
  );
}

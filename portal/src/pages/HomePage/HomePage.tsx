import { Alert, Button, Container, Group, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useAuth } from '../../auth/AuthContext.ts';
import { authErrorMessage } from '../../auth/authErrorMessage.ts';
import classes from './HomePage.module.css';

/** /app for a signed-in user: who is signed in, and the way out. Screens arrive issue by issue. */
export default function HomePage() {
  const auth = useAuth();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const signOut = async () => {
    setBusy(true);
    setFailure(null);
    const error = await auth.signOut();
    // On success the login guard takes over; only a failure keeps this page.
    if (error) {
      setFailure(authErrorMessage(error));
      setBusy(false);
    }
  };

  return (
    <Container size="lg">
      <header className={classes.header}>
        <Text fw={700} size="lg">
          Shortlane
        </Text>
        <Group gap="sm">
          <Text size="sm">
            Signed in as <strong>{auth.user?.email}</strong>
          </Text>
          <Button variant="default" onClick={signOut} loading={busy}>
            Sign out
          </Button>
        </Group>
      </header>
      <main>
        {failure && (
          <Alert color="red" role="alert" title="Could not sign out" mt="md">
            {failure}
          </Alert>
        )}
        <Title order={1} mt="xl">
          Welcome
        </Title>
        <Text mt="sm">Your short links will appear here.</Text>
      </main>
    </Container>
  );
}

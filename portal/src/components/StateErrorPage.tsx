import { Alert, Button, Container } from '@mantine/core';
import { MESSAGES } from '@shortlane/shared/messages.ts';

/** Shown instead of a page when the user's account could not be loaded. */
export function StateErrorPage({ onRetry }: { onRetry: () => void }) {
  return (
    <Container size="sm" py="xl">
      <Alert color="red" role="alert" title="Your account could not be loaded">
        {MESSAGES.somethingWentWrong} Check your connection and try again.
      </Alert>
      <Button mt="md" onClick={onRetry}>
        Try again
      </Button>
    </Container>
  );
}

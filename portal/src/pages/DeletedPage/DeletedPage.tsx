import { Button, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { AuthCard } from '../../auth/AuthCard.tsx';
import { paths } from '../../routes/paths.ts';

/** /app/deleted: where the portal goes once an account has been deleted (app-shell 2). */
export default function DeletedPage() {
  return (
    <AuthCard title="Your account has been deleted">
      <Stack gap="md">
        <Text>
          Your account, its short links and its data were removed, and you have been logged out.
          Short links you made no longer redirect.
        </Text>
        <Text>We are sorry to see you go. You are welcome back at any time.</Text>
        <Group>
          <Button component={Link} to={paths.homepage}>
            Back to the homepage
          </Button>
          <Button component={Link} to={paths.register} variant="default">
            Sign up again
          </Button>
        </Group>
      </Stack>
    </AuthCard>
  );
}

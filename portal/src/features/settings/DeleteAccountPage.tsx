import {
  Alert,
  Anchor,
  Button,
  Group,
  List,
  Paper,
  PasswordInput,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useAuth } from '../../auth/AuthContext.ts';
import { announceSignedOut } from '../../auth/stateStatus.ts';
import { formErrorsFromError } from '../../lib/forms.ts';
import { useConfig, useServices, useSupabase } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { href } from '../../routes/paths.ts';

const PASSWORD_REQUIRED = 'The password field is required.';

/**
 * settings/profile/delete: the password, then the account-delete function removes the account
 * and everything it owns in one transaction. The session died with the account, so signing out
 * only clears it here; the guards hold still meanwhile (as on logout) and the user lands on
 * the `deleted` page.
 */
export default function DeleteAccountPage() {
  const { productName } = useConfig();
  usePageTitle('Delete account', productName);
  const supabase = useSupabase();
  const auth = useAuth();
  const navigate = useNavigate();
  const { dialogs, signingOut } = useServices();
  const [busy, setBusy] = useState(false);
  const form = useForm({
    initialValues: { password: '' },
    validate: { password: (value) => (value === '' ? PASSWORD_REQUIRED : null) },
  });

  const submit = form.onSubmit(async ({ password }) => {
    setBusy(true);
    const { error } = await supabase.functions.invoke('account-delete', { body: { password } });
    if (error) {
      // The global handler announced it; a wrong password also goes under the field.
      form.setErrors(await formErrorsFromError(error));
      setBusy(false);
      return;
    }
    signingOut.set(true);
    try {
      await auth.signOut();
      announceSignedOut(window.localStorage);
      await navigate(href('deleted'), { replace: true, flushSync: true });
      dialogs.closeAll();
    } finally {
      signingOut.set(false);
    }
  });

  return (
    <Stack gap="lg">
      <Title order={1}>Delete account</Title>
      <Paper withBorder p="lg" radius="md">
        <Stack gap="md">
          <Alert color="red" title="This cannot be undone">
            Deleting your account removes, for good:
          </Alert>
          <List spacing={4}>
            <List.Item>your profile, photo and sign-in details;</List.Item>
            <List.Item>your short links, their tags and statistics, and your domains;</List.Item>
            <List.Item>
              the teams and organizations you own, with everything in them, and your plan;
            </List.Item>
            <List.Item>your place in other people&apos;s teams and organizations.</List.Item>
          </List>
          <Text size="sm" c="gray.7">
            Links you made in other people&apos;s teams stay there, no longer linked to you.
          </Text>
          <form onSubmit={submit} noValidate aria-busy={busy} aria-label="Delete account">
            <Stack gap="md">
              <Text size="sm">Enter your password to confirm.</Text>
              <PasswordInput
                label="Password"
                autoComplete="current-password"
                key={form.key('password')}
                {...form.getInputProps('password')}
              />
              <Group>
                <Button type="submit" color="red.8" loading={busy}>
                  Delete my account
                </Button>
                <Anchor component={Link} to={href('settings.profile')}>
                  Keep my account
                </Anchor>
              </Group>
            </Stack>
          </form>
        </Stack>
      </Paper>
    </Stack>
  );
}

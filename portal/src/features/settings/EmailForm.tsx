import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { profileUpdateSchema } from '@shortlane/shared/schemas/profile.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { authErrorMessage } from '../../auth/authErrorMessage.ts';
import { validateWith } from '../../lib/forms.ts';
import { useSupabase } from '../../lib/servicesContext.ts';
import { href } from '../../routes/paths.ts';
import { authUserKey, useAuthUserQuery } from './authUserQuery.ts';
import { useSuccessNotice } from './useSuccessNotice.ts';

const emailSchema = profileUpdateSchema.pick({ email: true });

export const EMAIL_CHANGE_SENT =
  'We sent a confirmation link to your current and your new address. Your e-mail address changes once both are confirmed.';

/**
 * Changing the e-mail address goes through Auth: it mails a link to both addresses
 * (double_confirm_changes) and the address changes once both links were followed. Until then
 * the page says which address is waiting.
 */
export function EmailForm({ userId }: { userId: string }) {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  const success = useSuccessNotice();
  const authUser = useAuthUserQuery(userId);
  const [busy, setBusy] = useState(false);
  const form = useForm({ initialValues: { email: '' }, validate: validateWith(emailSchema) });

  const submit = form.onSubmit(async (values) => {
    const email = emailSchema.parse(values).email;
    if (email.toLowerCase() === authUser.data?.email.toLowerCase()) {
      form.setFieldError('email', 'This is already your e-mail address.');
      return;
    }
    setBusy(true);
    const { error } = await supabase.auth.updateUser(
      { email },
      { emailRedirectTo: `${window.location.origin}${href('settings.profile')}` },
    );
    setBusy(false);
    if (error) {
      form.setFieldError('email', authErrorMessage(error));
      return;
    }
    form.reset();
    await queryClient.invalidateQueries({ queryKey: authUserKey(userId) });
    success(EMAIL_CHANGE_SENT);
  });

  if (authUser.isPending) return <Text c="gray.7">Loading your e-mail address…</Text>;
  if (authUser.isError) {
    return (
      <Alert color="red" title="Could not load your e-mail address">
        <Button variant="light" size="xs" mt="xs" onClick={() => void authUser.refetch()}>
          Try again
        </Button>
      </Alert>
    );
  }

  const { email: current, newEmail } = authUser.data;
  return (
    <Stack gap="sm">
      <Text>
        Current address: <strong>{current}</strong>
      </Text>
      {newEmail && (
        <Alert color="yellow" title="Waiting for confirmation" role="status">
          Your address changes to <strong>{newEmail}</strong> once you follow the links we sent to
          both addresses.
        </Alert>
      )}
      <form onSubmit={submit} noValidate aria-busy={busy} aria-label="Change e-mail address">
        <Stack gap="sm">
          <TextInput
            label="New e-mail address"
            type="email"
            autoComplete="email"
            key={form.key('email')}
            {...form.getInputProps('email')}
          />
          <Group>
            <Button type="submit" loading={busy}>
              Change e-mail address
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}

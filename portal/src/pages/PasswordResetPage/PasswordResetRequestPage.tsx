import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  passwordResetRequestSchema,
  type PasswordResetRequestInput,
} from '@shortlane/shared/schemas/auth.ts';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { AuthCard } from '../../auth/AuthCard.tsx';
import { authErrorMessage } from '../../auth/authErrorMessage.ts';
import { passwordResetRedirect } from '../../auth/redirectUrls.ts';
import { validateWith } from '../../lib/forms.ts';
import { useSupabase } from '../../lib/servicesContext.ts';
import { paths } from '../../routes/paths.ts';

/** The same words whether or not the address has an account: the page must not tell. */
export const RESET_LINK_SENT =
  'If an account uses this address, we sent it a link to choose a new password.';

/**
 * /app/password/reset: asks Auth to mail a recovery link, whose /verify redirect lands on
 * password/reset/{token} with the recovery session.
 */
export default function PasswordResetRequestPage() {
  const supabase = useSupabase();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm<PasswordResetRequestInput>({
    mode: 'uncontrolled',
    initialValues: { email: '' },
    validate: validateWith(passwordResetRequestSchema),
    validateInputOnBlur: true,
  });

  const submit = form.onSubmit(
    async (values) => {
      setBusy(true);
      setFailure(null);
      const { email } = passwordResetRequestSchema.parse(values);
      const { error } = await supabase.auth.resetPasswordForEmail(email, {
        redirectTo: passwordResetRedirect(),
      });
      setBusy(false);
      if (error) setFailure(authErrorMessage(error));
      else setSentTo(email);
    },
    () => form.getInputNode('email')?.focus(),
  );

  return (
    <AuthCard title="Reset your password">
      <form onSubmit={submit} noValidate aria-busy={busy} aria-label="Reset your password">
        <Stack gap="md">
          <Text>Enter the e-mail address of your account and we will send you a link.</Text>
          <div role="status">
            {sentTo && (
              <Alert color="teal" title="Check your e-mail">
                {RESET_LINK_SENT}
              </Alert>
            )}
          </div>
          {failure && (
            <Alert color="red" role="alert" title="Could not send the link">
              {failure}
            </Alert>
          )}
          <TextInput
            label="E-mail"
            type="email"
            autoComplete="email"
            key={form.key('email')}
            {...form.getInputProps('email')}
          />
          <Button type="submit" loading={busy} fullWidth>
            {sentTo ? 'Send the link again' : 'Send reset link'}
          </Button>
          <Anchor component={Link} to={paths.login} size="sm">
            Back to log in
          </Anchor>
        </Stack>
      </form>
    </AuthCard>
  );
}

import { Button, PasswordInput, Stack, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import {
  passwordChangeSchema,
  type PasswordChangeInput,
} from '@shortlane/shared/schemas/two-factor.ts';
import { useState } from 'react';
import { useAuth } from '../../auth/AuthContext.ts';
import { authErrorMessage } from '../../auth/authErrorMessage.ts';
import { usePasswordCheck } from '../../features/two-factor/usePasswordConfirmation.ts';
import { validateWith } from '../../lib/forms.ts';
import { useNotify, useSupabase } from '../../lib/servicesContext.ts';

const FIELDS = ['current_password', 'password', 'password_confirmation'] as const;
const HEADING_ID = 'password-heading';

/** settings/security: change the password (the current one first, then the new one twice). */
export function PasswordChangeSection() {
  const supabase = useSupabase();
  const notify = useNotify();
  const checkPassword = usePasswordCheck();
  const email = useAuth().user?.email;
  const [busy, setBusy] = useState(false);
  const form = useForm<PasswordChangeInput>({
    mode: 'uncontrolled',
    initialValues: { current_password: '', password: '', password_confirmation: '' },
    validate: validateWith(passwordChangeSchema),
    validateInputOnBlur: true,
  });

  const submit = form.onSubmit(
    async (values) => {
      setBusy(true);
      const wrongCurrent = await checkPassword(values.current_password);
      if (wrongCurrent) {
        setBusy(false);
        form.setFieldError('current_password', wrongCurrent);
        form.getInputNode('current_password')?.focus();
        return;
      }
      const { error } = await supabase.auth.updateUser({ password: values.password });
      setBusy(false);
      if (error) {
        form.setFieldError('password', authErrorMessage(error));
        form.getInputNode('password')?.focus();
        return;
      }
      form.reset();
      notify({
        message: 'Your password has been changed.',
        durationMs: NOTICE_DURATION_MS.default,
        tone: 'success',
      });
    },
    (errors) => {
      const firstInvalid = FIELDS.find((name) => errors[name]);
      if (firstInvalid) form.getInputNode(firstInvalid)?.focus();
    },
  );

  return (
    <Stack gap="md" component="section" aria-labelledby={HEADING_ID}>
      <Title order={2} size="h4" id={HEADING_ID}>
        Change password
      </Title>
      <form onSubmit={submit} noValidate aria-busy={busy} aria-label="Change password">
        <Stack gap="sm" maw={420}>
          {/* Lets password managers tie the new password to the account. */}
          <input type="hidden" autoComplete="username" value={email ?? ''} readOnly />
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            key={form.key('current_password')}
            {...form.getInputProps('current_password')}
          />
          <PasswordInput
            label="New password"
            autoComplete="new-password"
            key={form.key('password')}
            {...form.getInputProps('password')}
          />
          <PasswordInput
            label="Confirm new password"
            autoComplete="new-password"
            key={form.key('password_confirmation')}
            {...form.getInputProps('password_confirmation')}
          />
          <Button type="submit" loading={busy} style={{ alignSelf: 'flex-start' }}>
            Change password
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}

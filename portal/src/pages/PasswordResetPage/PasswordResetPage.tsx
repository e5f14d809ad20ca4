import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import { passwordResetSchema, type PasswordResetInput } from '@shortlane/shared/schemas/auth.ts';
import { isAuthWeakPasswordError, type AuthError } from '@supabase/supabase-js';
import { useEffect, useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router-dom';
import { AuthCard } from '../../auth/AuthCard.tsx';
import { useAuth } from '../../auth/AuthContext.ts';
import { authErrorMessage } from '../../auth/authErrorMessage.ts';
import { PasswordField } from '../../auth/PasswordField.tsx';
import { RESET_LINK_TOKEN } from '../../auth/redirectUrls.ts';
import { announceSignedIn } from '../../auth/stateStatus.ts';
import { validateWith } from '../../lib/forms.ts';
import { useServices } from '../../lib/servicesContext.ts';
import { paths } from '../../routes/paths.ts';

export const INVALID_RESET_LINK = 'This password reset link is invalid or has expired.';
export const PASSWORD_RESET_DONE = 'Your password has been reset.';

/** Refusals that are about the new password itself, said under its field. */
function isPasswordRefusal(error: AuthError): boolean {
  return isAuthWeakPasswordError(error) || error.code === 'same_password';
}

/**
 * /app/password/reset/{token}: choose the new password. Two ways in:
 * - Auth's mail link (`token` is RESET_LINK_TOKEN): /verify already signed the browser in with
 *   a recovery session, or sent it back with the failure (left in the flash messages);
 * - a link carrying a recovery token hash as `token` (a custom mail template): it is redeemed
 *   when the form is sent, so opening the link (or a mail scanner fetching it) spends nothing.
 * Then the user is signed in and goes to the homepage. A signed-in user who did not come
 * through a recovery link is sent home: the page is for guests (app-shell 2).
 */
export default function PasswordResetPage() {
  const auth = useAuth();
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const { supabase, flash, notify } = useServices();
  // A failed mail link arrives as a flash error; this page says it, so nobody else should.
  const [linkFailed] = useState(() => flash.getSnapshot().some(({ type }) => type === 'error'));
  useEffect(() => {
    if (linkFailed) flash.clear('error');
  }, [flash, linkFailed]);

  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [tokenRefused, setTokenRefused] = useState(false);
  const form = useForm<PasswordResetInput>({
    mode: 'uncontrolled',
    initialValues: { password: '', password_confirmation: '' },
    validate: validateWith(passwordResetSchema),
    validateInputOnBlur: true,
  });

  const inRecovery = auth.status === 'signedIn' && auth.passwordRecovery === true;

  const submit = form.onSubmit(
    async ({ password }) => {
      setBusy(true);
      setFailure(null);
      if (!inRecovery) {
        const { error } = await supabase.auth.verifyOtp({ type: 'recovery', token_hash: token });
        if (error) {
          setBusy(false);
          setTokenRefused(true);
          return;
        }
        announceSignedIn(window.localStorage);
      }
      const { error } = await supabase.auth.updateUser({ password });
      if (error) {
        setBusy(false);
        if (isPasswordRefusal(error)) {
          form.setFieldError('password', authErrorMessage(error));
          form.getInputNode('password')?.focus();
        } else {
          setFailure(authErrorMessage(error));
        }
        return;
      }
      notify({
        message: PASSWORD_RESET_DONE,
        tone: 'success',
        durationMs: NOTICE_DURATION_MS.default,
      });
      await navigate(paths.homepage, { replace: true });
    },
    (errors) => {
      const firstInvalid = (['password', 'password_confirmation'] as const).find(
        (name) => errors[name],
      );
      if (firstInvalid) form.getInputNode(firstInvalid)?.focus();
    },
  );

  // Signing in through the token (or saving) changes the session mid-way: stay until done.
  if (auth.status === 'signedIn' && !inRecovery && !busy) {
    return <Navigate to={paths.homepage} replace />;
  }
  const linkUnusable =
    tokenRefused || (auth.status === 'guest' && (linkFailed || token === RESET_LINK_TOKEN));
  if (linkUnusable && !busy) return <InvalidLink />;

  return (
    <AuthCard title="Choose a new password">
      <form onSubmit={submit} noValidate aria-busy={busy} aria-label="Choose a new password">
        <Stack gap="md">
          {failure && (
            <Alert color="red" role="alert" title="Could not reset the password">
              {failure}
            </Alert>
          )}
          <PasswordField
            label="New password"
            autoComplete="new-password"
            key={form.key('password')}
            {...form.getInputProps('password')}
          />
          <PasswordField
            label="Confirm new password"
            autoComplete="new-password"
            key={form.key('password_confirmation')}
            {...form.getInputProps('password_confirmation')}
          />
          <Button type="submit" loading={busy} fullWidth>
            Reset password
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}

function InvalidLink() {
  return (
    <AuthCard title="Choose a new password">
      <Stack gap="md">
        <Alert color="red" role="alert" title="The link cannot be used">
          {INVALID_RESET_LINK}
        </Alert>
        <Text>Reset links work once and for a limited time. Ask for a new one:</Text>
        <Anchor component={Link} to={paths['password.reset']}>
          Send me a new link
        </Anchor>
      </Stack>
    </AuthCard>
  );
}

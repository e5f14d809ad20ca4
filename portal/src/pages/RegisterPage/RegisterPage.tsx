import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { NAME_MAX_LENGTH, NAME_TOO_LONG } from '@shortlane/shared/schemas/profile.ts';
import { registerSchema } from '@shortlane/shared/schemas/auth.ts';
import { isAuthWeakPasswordError } from '@supabase/supabase-js';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { z } from 'zod';
import { AuthCard } from '../../auth/AuthCard.tsx';
import { authErrorMessage } from '../../auth/authErrorMessage.ts';
import { PasswordField } from '../../auth/PasswordField.tsx';
import { emailVerificationRedirect } from '../../auth/redirectUrls.ts';
import { announceSignedIn } from '../../auth/stateStatus.ts';
import { CONFIRMATION_RESENT, useResendConfirmation } from '../../auth/useResendConfirmation.ts';
import { validateWith } from '../../lib/forms.ts';
import { useSupabase } from '../../lib/servicesContext.ts';
import { paths, RETURN_PARAM } from '../../routes/paths.ts';

/** Sign-up: an optional name (it becomes the profile's), the e-mail and a new password. */
const signUpSchema = registerSchema.extend({
  name: z.string().trim().max(NAME_MAX_LENGTH, { error: NAME_TOO_LONG }),
});
type SignUpInput = z.input<typeof signUpSchema>;

const FIELDS = ['name', 'email', 'password'] as const;

/**
 * /app/register. Auth sends a confirmation mail whose link leads to email/verify; the page then
 * says to check the mail and offers to send it again. Auth answers an address that already has
 * an account the same way, so the page reveals nothing about it either.
 */
export default function RegisterPage() {
  const supabase = useSupabase();
  // An invitation link sends its invitee here with their address and the way back to it.
  const [search] = useSearchParams();
  const returnTo = search.get(RETURN_PARAM);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm<SignUpInput>({
    mode: 'uncontrolled',
    initialValues: { name: '', email: search.get('email') ?? '', password: '' },
    validate: validateWith(signUpSchema),
    validateInputOnBlur: true,
  });

  const submit = form.onSubmit(
    async (values) => {
      setBusy(true);
      setFailure(null);
      const { name, email, password } = signUpSchema.parse(values);
      const { data, error } = await supabase.auth.signUp({
        email,
        password,
        options: {
          emailRedirectTo: emailVerificationRedirect(window.location.origin, returnTo),
          data: name ? { name } : {},
        },
      });
      setBusy(false);
      if (error) {
        // A password Auth refuses (too common, in the dictionary) is said under its field.
        if (isAuthWeakPasswordError(error)) {
          form.setFieldError('password', authErrorMessage(error));
          form.getInputNode('password')?.focus();
        } else {
          setFailure(authErrorMessage(error));
        }
        return;
      }
      // Without e-mail confirmation Auth signs the user in at once; the guard then moves on.
      if (data.session) announceSignedIn(window.localStorage);
      else setSentTo(email);
    },
    (errors) => {
      const firstInvalid = FIELDS.find((name) => errors[name]);
      if (firstInvalid) form.getInputNode(firstInvalid)?.focus();
    },
  );

  if (sentTo) return <CheckYourMail email={sentTo} />;

  return (
    <AuthCard title="Sign up">
      <form onSubmit={submit} noValidate aria-busy={busy} aria-label="Sign up">
        <Stack gap="md">
          {failure && (
            <Alert color="red" role="alert" title="Could not sign up">
              {failure}
            </Alert>
          )}
          <TextInput
            label="Name (optional)"
            autoComplete="name"
            key={form.key('name')}
            {...form.getInputProps('name')}
          />
          <TextInput
            label="E-mail"
            type="email"
            autoComplete="email"
            withAsterisk
            key={form.key('email')}
            {...form.getInputProps('email')}
          />
          <PasswordField
            label="Password"
            autoComplete="new-password"
            withAsterisk
            key={form.key('password')}
            {...form.getInputProps('password')}
          />
          <Button type="submit" loading={busy} fullWidth>
            Sign up
          </Button>
          <Text size="sm">
            Already have an account?{' '}
            <Anchor component={Link} to={paths.login}>
              Log in
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}

function CheckYourMail({ email }: { email: string }) {
  const { resend, busy, outcome } = useResendConfirmation();
  return (
    <AuthCard title="Check your e-mail">
      <Stack gap="md">
        <Text>
          We sent a confirmation link to <strong>{email}</strong>. Follow it to activate your
          account.
        </Text>
        <div role="status">
          {outcome?.kind === 'sent' && <Text c="teal.9">{CONFIRMATION_RESENT}</Text>}
        </div>
        {outcome?.kind === 'failed' && (
          <Alert color="red" role="alert" title="Could not send the link">
            {outcome.message}
          </Alert>
        )}
        <Text size="sm">No mail after a few minutes? Check your spam folder, or:</Text>
        <Button variant="default" loading={busy} onClick={() => void resend(email)}>
          Send the link again
        </Button>
      </Stack>
    </AuthCard>
  );
}

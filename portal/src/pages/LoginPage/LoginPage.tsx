import {
  Alert,
  Anchor,
  Button,
  Divider,
  Group,
  PasswordInput,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { loginSchema, type LoginInput } from '@shortlane/shared/schemas/auth.ts';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useAuth } from '../../auth/AuthContext.ts';
import { authErrorMessage } from '../../auth/authErrorMessage.ts';
import { validateWith } from '../../lib/forms.ts';
import { paths } from '../../routes/paths.ts';
import { AuthCard } from '../../auth/AuthCard.tsx';
import { SsoSignIn } from '../../features/sso/SsoSignIn.tsx';

/**
 * /app/login: e-mail and password. On success the guest-only guard moves on (to the page the
 * user was sent here from, or the homepage); on failure the reason is announced and shown.
 */
export default function LoginPage() {
  const auth = useAuth();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<LoginInput>({
    mode: 'uncontrolled',
    initialValues: { email: '', password: '' },
    validate: validateWith(loginSchema),
    validateInputOnBlur: true,
  });

  const submit = form.onSubmit(
    async (values) => {
      setBusy(true);
      setFailure(null);
      // Validation passed, so parsing cannot fail; it yields the trimmed e-mail.
      const error = await auth.signIn(loginSchema.parse(values));
      // On success this page is about to be replaced; only a failure needs the form back.
      if (error) {
        setFailure(authErrorMessage(error));
        setBusy(false);
      }
    },
    (errors) => {
      const firstInvalid = (['email', 'password'] as const).find((name) => errors[name]);
      if (firstInvalid) form.getInputNode(firstInvalid)?.focus();
    },
  );

  return (
    <AuthCard title="Log in">
      <form onSubmit={submit} noValidate aria-busy={busy} aria-label="Log in">
        <Stack gap="md">
          {failure && (
            <Alert color="red" role="alert" title="Could not log in">
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
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            key={form.key('password')}
            {...form.getInputProps('password')}
          />
          <Button type="submit" loading={busy} fullWidth>
            Log in
          </Button>
          <Group justify="space-between" gap="xs">
            <Anchor component={Link} to={paths['password.reset']} size="sm">
              Forgot your password?
            </Anchor>
            <Anchor component={Link} to={paths.register} size="sm">
              No account yet? Sign up
            </Anchor>
          </Group>
        </Stack>
      </form>
      <Divider
        my="md"
        labelPosition="center"
        label={
          <Text size="sm" c="gray.7">
            or
          </Text>
        }
      />
      <SsoSignIn />
    </AuthCard>
  );
}

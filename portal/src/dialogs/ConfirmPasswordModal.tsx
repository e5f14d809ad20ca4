import { DIALOG_TITLES } from './dialogStore.ts';
import { Button, Group, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import type { PasswordCheck } from './dialogStore.ts';

/** Asks for the password before a protected action continues (app-shell 8, status 423). */
export function ConfirmPasswordModal({
  check,
  withCode = false,
  onClose,
}: {
  check: PasswordCheck;
  /** Two-factor is on: a code of the authenticator app keeps the session at aal2. */
  withCode?: boolean;
  onClose: (confirmed: boolean) => void;
}) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [codeError, setCodeError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setCodeError(null);
    const problem = await (withCode ? check(password, code) : check(password));
    setBusy(false);
    if (problem == null) onClose(true);
    else if (typeof problem === 'string') setError(problem);
    else setCodeError(problem.code);
  };

  return (
    <Modal opened onClose={() => onClose(false)} centered title={DIALOG_TITLES.confirmPassword}>
      <form onSubmit={submit} noValidate aria-busy={busy} aria-label="Confirm your password">
        <Stack gap="md">
          <Text size="sm">For your security, confirm your password to continue.</Text>
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            error={error}
            data-autofocus
          />
          {withCode && (
            <TextInput
              label="Authentication code"
              description="The 6-digit code from your authenticator app."
              autoComplete="one-time-code"
              inputMode="numeric"
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
              error={codeError}
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => onClose(false)} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Confirm
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

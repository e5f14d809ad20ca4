import { Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import type { PasswordCheck } from './dialogStore.ts';

/** Asks for the password before a protected action continues (app-shell 8, status 423). */
export function ConfirmPasswordModal({
  check,
  onClose,
}: {
  check: PasswordCheck;
  onClose: (confirmed: boolean) => void;
}) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const problem = await check(password);
    setBusy(false);
    if (problem) setError(problem);
    else onClose(true);
  };

  return (
    <Modal opened onClose={() => onClose(false)} centered title="Confirm your password">
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

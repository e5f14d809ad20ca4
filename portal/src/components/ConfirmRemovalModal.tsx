import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * Asks before something is removed for good (a token revoked, a pixel or an endpoint deleted).
 * Cancel has the focus, so Enter never removes by accident; a failure is said inside the dialog,
 * where the person is looking, and the dialog stays open to try again.
 */
export function ConfirmRemovalModal({
  opened,
  title,
  children,
  confirmLabel,
  pending,
  error,
  onCancel,
  onConfirm,
}: {
  opened: boolean;
  title: string;
  /** What goes, and what follows from it. */
  children: ReactNode;
  confirmLabel: string;
  pending: boolean;
  /** The failure of the last attempt, if any. */
  error: string | null;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onCancel} title={title} centered>
      <Stack gap="md">
        <Text>{children}</Text>
        {error !== null && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={pending} data-autofocus>
            Cancel
          </Button>
          <Button color="red" loading={pending} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

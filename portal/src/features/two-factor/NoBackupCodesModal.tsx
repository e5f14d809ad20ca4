import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { NO_BACKUP_CODES_FRAME } from './noBackupCodesFrame.ts';

interface NoBackupCodesModalProps {
  opened: boolean;
  onDismiss: () => void;
  onGenerate: () => void;
}

/** The no-backup-codes modal's content; NoBackupCodesPrompt decides when it shows. */
export default function NoBackupCodesModal({
  opened,
  onDismiss,
  onGenerate,
}: NoBackupCodesModalProps) {
  return (
    <Modal {...NO_BACKUP_CODES_FRAME} opened={opened} onClose={onDismiss}>
      <Stack gap="md">
        <Text size="sm">
          Two-factor authentication is on, but you have no unused backup codes. Without one you
          cannot log in if you lose your authenticator app. Generate new codes and keep them
          somewhere safe.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onDismiss}>
            Not now
          </Button>
          <Button onClick={onGenerate}>Generate backup codes</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

import { Button, Group, Modal, Stack, Text } from '@mantine/core';

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
    <Modal opened={opened} onClose={onDismiss} centered title="No backup codes left">
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

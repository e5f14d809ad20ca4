import { Button, Group, Modal, Text } from '@mantine/core';
import type { ConfirmModalProps } from './dialogStore.ts';

/** Title, an HTML message, cancel and confirm (link-creation 2). */
export function ConfirmModal({
  title,
  messageHtml,
  confirmLabel = 'Confirm',
  cancelLabel = 'Cancel',
  onClose,
}: ConfirmModalProps & { onClose: (confirmed: boolean) => void }) {
  return (
    <Modal opened onClose={() => onClose(false)} centered title={title}>
      <Text component="div" dangerouslySetInnerHTML={{ __html: messageHtml }} />
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={() => onClose(false)}>
          {cancelLabel}
        </Button>
        <Button onClick={() => onClose(true)} data-autofocus>
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}

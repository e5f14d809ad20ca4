import { Button, Group, Modal, Text, ThemeIcon } from '@mantine/core';
import { MESSAGES } from '@shortlane/shared/messages.ts';
import { DIALOG_TITLES, type ErrorModalProps, type ErrorModalType } from './dialogStore.ts';

const TYPE_COLORS: Record<ErrorModalType, string> = {
  error: 'red',
  warning: 'orange',
  info: 'indigo',
  success: 'teal',
};

/** The generic error modal (link-creation 2): title, message, type (default error), html. */
export function ErrorModal({
  title = DIALOG_TITLES.error,
  message,
  type = 'error',
  html = false,
  onClose,
}: ErrorModalProps & { onClose: () => void }) {
  const text = message?.trim() ? message : MESSAGES.somethingWentWrong;
  return (
    <Modal
      opened
      onClose={onClose}
      centered
      title={
        <Group gap="xs">
          <ThemeIcon color={TYPE_COLORS[type]} radius="xl" size="sm" aria-hidden="true">
            !
          </ThemeIcon>
          <span>{title}</span>
        </Group>
      }
    >
      {html ? (
        <Text component="div" dangerouslySetInnerHTML={{ __html: text }} />
      ) : (
        // Text from outside (URLs, servers) is never HTML; its line breaks still show.
        <Text style={{ whiteSpace: 'pre-line' }}>{text}</Text>
      )}
      <Group justify="flex-end" mt="lg">
        <Button onClick={onClose}>OK</Button>
      </Group>
    </Modal>
  );
}

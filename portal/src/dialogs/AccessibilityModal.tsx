import { DIALOG_TITLES } from './dialogStore.ts';
import { Anchor, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useConfig } from '../lib/servicesContext.ts';

/** The accessibility statement with the address to write to (link-creation 2). */
export function AccessibilityModal({ onClose }: { onClose: () => void }) {
  const { productName, accessibilityEmail } = useConfig();
  return (
    <Modal opened onClose={onClose} centered title={DIALOG_TITLES.accessibility}>
      <Stack gap="sm">
        <Text>
          We want {productName} to work for everyone. We aim to meet the Web Content Accessibility
          Guidelines (WCAG) 2.1 at level AA: every page can be used with a keyboard and a screen
          reader, text keeps its contrast, and layouts follow your screen size and zoom.
        </Text>
        <Text>
          If something stands in your way, tell us at{' '}
          <Anchor href={`mailto:${accessibilityEmail}`}>{accessibilityEmail}</Anchor>. We answer
          within two working days.
        </Text>
        <Group justify="flex-end">
          <Button onClick={onClose}>Close</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

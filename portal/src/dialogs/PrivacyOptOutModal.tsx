import { DIALOG_TITLES } from './dialogStore.ts';
import { Anchor, Button, Group, Modal, Stack, Switch, Text } from '@mantine/core';
import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useNotify } from '../lib/servicesContext.ts';
import { paths } from '../routes/paths.ts';
import { readStrictPrivate, strictPrivateCookie } from '../state/privacyCookie.ts';

/**
 * The privacy opt-out (link-creation 4): stores true or false in the never-expiring
 * tinyStrictPrivate cookie, and links to the privacy policy.
 */
export function PrivacyOptOutModal({ onClose }: { onClose: () => void }) {
  const notify = useNotify();
  const [optedOut, setOptedOut] = useState(() => readStrictPrivate(document.cookie) ?? false);

  const save = () => {
    document.cookie = strictPrivateCookie(optedOut);
    notify({
      message: 'Your privacy choice was saved.',
      durationMs: NOTICE_DURATION_MS.default,
      tone: 'success',
    });
    onClose();
  };

  return (
    <Modal opened onClose={onClose} centered title={DIALOG_TITLES.privacyOptOut}>
      <Stack gap="md">
        <Text size="sm">
          We show ads to visitors without a paid plan, and our ad partners may use cookies to choose
          them. You can opt out of the sale and sharing of your personal information for
          advertising. Read how we handle your data in our{' '}
          <Anchor component={Link} to={paths.privacy} onClick={onClose}>
            Privacy Policy
          </Anchor>
          .
        </Text>
        <Switch
          label="Do not sell or share my personal information"
          checked={optedOut}
          onChange={(event) => setOptedOut(event.currentTarget.checked)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={save}>Save</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

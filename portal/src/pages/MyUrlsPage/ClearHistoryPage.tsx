import { Container, Text, Title } from '@mantine/core';
import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { clearGuestHistory } from '../../features/links/guestHistory.ts';
import { useConfig, useDialogs, useNotify } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { paths } from '../../routes/paths.ts';

/** my-urls/clear-history: asks first, forgets this browser's links, and goes back to My URLs. */
export default function ClearHistoryPage() {
  const { productName } = useConfig();
  usePageTitle('Clear history', productName);
  const dialogs = useDialogs();
  const notify = useNotify();
  const navigate = useNavigate();
  // One question per visit, also when React runs the effect twice in development.
  const asked = useRef(false);

  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    void dialogs
      .confirm({
        title: 'Clear history',
        messageHtml:
          'This browser will forget the short links it made. The links themselves keep working.',
        confirmLabel: 'Clear history',
      })
      .then((confirmed) => {
        if (confirmed) {
          clearGuestHistory();
          notify({
            message: 'Your history was cleared.',
            durationMs: NOTICE_DURATION_MS.default,
            tone: 'success',
          });
        }
        navigate(paths['my-urls'], { replace: true });
      });
  }, [dialogs, navigate, notify]);

  return (
    <Container size="md" py="xl">
      <Title order={1}>Clear history</Title>
      <Text mt="xs">Forget the short links this browser remembers.</Text>
    </Container>
  );
}

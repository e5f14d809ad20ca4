import { ActionIcon, Indicator, Stack, Title } from '@mantine/core';
import { lazy, useId, useRef, useState } from 'react';
import { EnvelopeIcon } from '../../components/icons.tsx';
import { LazyOnFirstUse } from '../../components/LazyOnFirstUse.tsx';
import { LoadingFrame } from '../../components/LoadingFrame.tsx';
import { PopoverOnFirstUse } from '../../components/PopoverOnFirstUse.tsx';
import { usePendingInvitationsQuery } from '../../data/invitations-query.ts';
import type { Viewer } from '../../state/appState.ts';

// The list and its answers are fetched when the envelope is first opened.
const InvitationList = lazy(() =>
  import('./InvitationList.tsx').then((module) => ({ default: module.InvitationList })),
);

/** The envelope with the count of pending invitations, opening their list. */
export function InvitationsPopover({ viewer }: { viewer: Viewer }) {
  const invitations = usePendingInvitationsQuery(viewer.email).data ?? [];
  const count = invitations.length;
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [opened, setOpened] = useState(false);
  return (
    <PopoverOnFirstUse
      width={360}
      position="bottom-end"
      shadow="md"
      withArrow
      trapFocus
      returnFocus
      opened={opened}
      onChange={setOpened}
      dropdownProps={{ 'aria-labelledby': headingId }}
      target={
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          aria-label={count > 0 ? `Invitations, ${count} pending` : 'Invitations'}
        >
          <Indicator disabled={count === 0} label={count} size={16} offset={2}>
            <EnvelopeIcon />
          </Indicator>
        </ActionIcon>
      }
    >
      <Stack gap="sm">
        <Title order={2} size="h5" id={headingId} ref={headingRef} tabIndex={-1}>
          Invitations
        </Title>
        <LazyOnFirstUse
          active={opened}
          fallback={<LoadingFrame label="Loading the invitations" minHeight={80} />}
        >
          <InvitationList
            viewer={viewer}
            invitations={invitations}
            onAnswered={() => headingRef.current?.focus()}
          />
        </LazyOnFirstUse>
      </Stack>
    </PopoverOnFirstUse>
  );
}

import { Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { useContext, useId } from 'react';
import { Link } from 'react-router-dom';
import { SidePanelContext } from '../../../layout/sidePanel.ts';
import { useFocusOnMount } from '../../../lib/useFocusOnMount.ts';
import { href } from '../../../routes/paths.ts';

export interface BulkLinkResultProps {
  batch: { jobId: string; totalItems: number };
  onStartAnother: () => void;
}

/** The bulk result (link-creation 2): the batch is scheduled, with how many items it holds. */
export function BulkLinkResult({ batch, onStartAnother }: BulkLinkResultProps) {
  const titleId = useId();
  // Shown in the side panel too, which would otherwise stay open over the job page.
  const sidePanel = useContext(SidePanelContext);
  const title = useFocusOnMount<HTMLHeadingElement>();
  return (
    <Stack gap="md" component="section" aria-labelledby={titleId} data-job-id={batch.jobId}>
      <Title order={2} size="h3" id={titleId} ref={title} tabIndex={-1}>
        Batch scheduled
      </Title>
      <Text>
        Total items added: <strong>{batch.totalItems.toLocaleString('en-US')}</strong>
      </Text>
      <Text size="sm">
        The links are created in the background; you get a notification when they are done.{' '}
        <Anchor
          component={Link}
          to={href('bulk.job', { jobId: batch.jobId })}
          onClick={() => sidePanel?.close()}
        >
          Follow the batch
        </Anchor>{' '}
        to see its progress, the rows refused and why, and the result CSV.
      </Text>
      <div>
        <Button onClick={onStartAnother}>Start another batch</Button>
      </div>
    </Stack>
  );
}

import { Button, Stack, Text, Title } from '@mantine/core';
import { useId } from 'react';

export interface BulkLinkResultProps {
  batch: { jobId: string; totalItems: number };
  onStartAnother: () => void;
}

/** The bulk result (link-creation 2): the batch is scheduled, with how many items it holds. */
export function BulkLinkResult({ batch, onStartAnother }: BulkLinkResultProps) {
  const titleId = useId();
  return (
    <Stack gap="md" component="section" aria-labelledby={titleId} data-job-id={batch.jobId}>
      <Title order={2} size="h3" id={titleId}>
        Batch scheduled
      </Title>
      <Text>
        Total items added: <strong>{batch.totalItems.toLocaleString('en-US')}</strong>
      </Text>
      <div>
        <Button onClick={onStartAnother}>Start another batch</Button>
      </div>
    </Stack>
  );
}
